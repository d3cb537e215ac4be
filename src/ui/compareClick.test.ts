import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserGlobals, demoFile, startTestPage, stopTestPage, until, type TestPage } from '../test/page';
import { importBytes, removeBody } from './bodies';
import { clearHeatmap, comparePair, compareBodies, setColorOn, setTolerance, TOLERANCE_REST_MS } from './deviationReview';
import { inspectStore, sceneStore, toolStore } from './stores';
import { runFromPanel } from './toolRuns';

/**
 * The Compare click traced through the page's actions, its session and the engine: which calls
 * reach the engine and how often a deviation is computed (the engine's trace counts them).
 */
let page: TestPage;

beforeAll(async () => {
  browserGlobals();
  page = startTestPage();
  await Promise.all([importBytes('part.brep', demoFile('part.brep')), importBytes('scan.stl', demoFile('scan.stl'))]);
  await until(() => sceneStore.getState().bodies.every((b) => b.mesh) && sceneStore.getState().bodies.length === 2, 120_000, 'both demo bodies drawn');
});

afterAll(() => stopTestPage());

beforeEach(() => {
  page.calls.length = 0;
});

const deviations = () => page.traces.filter((t) => t.kind === 'deviation').map((t) => t.what);

describe('the Compare click', () => {
  it('makes one engine call for the comparison, one for the heat map (with its statistics) and, the nominal coloured, one for the verdict; each deviation is computed once', async () => {
    page.traces.length = 0;
    await compareBodies('part', 'scan');
    const heat = await until(() => (inspectStore.getState().heat?.status === 'done' ? inspectStore.getState().heat : undefined), 120_000, 'the heat map');

    // The part (the nominal) is coloured: the verdict's share is the scan's, one more histogram.
    await until(() => inspectStore.getState().heat?.actualWithin !== undefined, 60_000, "the actual's share");
    expect(page.calls).toEqual([
      { method: 'runJson', tool: 'measure_deviation' },
      { method: 'run', tool: 'deviation_heatmap' },
      { method: 'run', tool: 'deviation_histogram' },
    ]);
    // fromToTo and toToFrom (measure_deviation) and the display-vertex values; the statistics are the
    // fromToTo samples again (same settings, same samples: one computation). The verdict's share is
    // the scan measured as the from-body, at its own default deflection (0.5 % of its diagonal, as
    // on the actual and in the report), where toToFrom took the part's: one more.
    const computed = deviations();
    expect(computed).toHaveLength(4);
    expect(computed[3]).toMatch(/^scan>part:/);
    expect(new Set(computed).size).toBe(computed.length);

    // The review is complete from those two calls: colours, range, tolerance and the stats card.
    // The part is the nominal (issue 29.1): colouring it flips every signed figure to actual minus nominal.
    expect(heat).toMatchObject({ fromBodyId: 'part', toBodyId: 'scan', histogramStatus: 'done', nominalBodyId: 'part', flip: true });
    // One value per vertex of the heat map's mesh: the part's display mesh (its vertices first, as drawn before) refined.
    const partMesh = sceneStore.getState().bodies.find((b) => b.bodyId === 'part')?.mesh;
    expect(heat?.values?.length).toBe(heat!.mesh!.positions.length / 3);
    expect(Array.from(heat!.mesh!.positions.subarray(0, partMesh!.positions.length))).toEqual(Array.from(partMesh!.positions));
    expect(heat!.mesh!.positions.length).toBeGreaterThan(partMesh!.positions.length);
    expect(heat?.range).toBeGreaterThan(0);
    // The user's tolerance (the stated default until set), never one derived from the data.
    expect(heat?.tolerance).toBe(0.1);
    // One source for the stats card and the tool panel: measure_deviation's fromToTo samples (20,000
    // stride-subsampled: up to that many), so max, p95 and the signed mean are the same numbers.
    const h = heat!.histogram!;
    const forward = heat!.deviation!.fromToTo;
    expect(h.withinTolerance).toEqual(expect.any(Number));
    expect(forward.samples).toBeGreaterThan(15000);
    expect(forward.samples).toBeLessThanOrEqual(20000);
    expect([h.samples, h.maxAbs, h.p95, h.signedMin, h.signedMax, h.ambiguousSamples]).toEqual([
      forward.samples,
      forward.max,
      forward.p95,
      -forward.signedMax!,
      -forward.signedMin!,
      forward.ambiguousSamples,
    ]);
    // Summed in another order (sorted): equal to the last bits, with the sign flipped.
    expect(Math.abs(h.mean! + forward.signedMean!)).toBeLessThan(1e-12 * Math.max(1, forward.max));
  });

  it('a new tolerance asks for the statistics once and computes no deviation again', async () => {
    const before = inspectStore.getState().heat!;
    const traced = page.traces.length;
    setTolerance(before.range * 0.5);
    await new Promise((resolve) => setTimeout(resolve, TOLERANCE_REST_MS));
    await until(() => inspectStore.getState().heat?.histogramStatus === 'done' && inspectStore.getState().heat?.histogram !== before.histogram && inspectStore.getState().heat?.actualWithin !== undefined, 60_000, 'the new statistics');
    // The coloured part's statistics, then the scan's share for the verdict.
    expect(page.calls).toEqual([
      { method: 'run', tool: 'deviation_histogram' },
      { method: 'run', tool: 'deviation_histogram' },
    ]);
    expect(page.traces.length).toBe(traced);
    expect(inspectStore.getState().heat?.histogram?.withinTolerance).toBeGreaterThan(before.histogram!.withinTolerance!);
  });

  it('Compare again on the same pair: one call, no deviation recomputed, the colours kept', async () => {
    const traced = page.traces.length;
    const colors = inspectStore.getState().heat?.colors;
    await compareBodies('part', 'scan');
    expect(page.calls).toEqual([{ method: 'runJson', tool: 'measure_deviation' }]);
    expect(page.traces.length).toBe(traced);
    expect(inspectStore.getState().heat?.colors).toBe(colors);
  });

  it('a rerun with other settings (issue 20.2): heat map, statistics, histogram and worst point all follow it', async () => {
    const before = inspectStore.getState().heat!;
    await runFromPanel('measure_deviation', { fromBodyId: 'part', toBodyId: 'scan', deflection: 0.05, signMode: 'nearest' });
    const heat = await until(() => {
      const h = inspectStore.getState().heat;
      return h?.status === 'done' && h.settings.deflection === 0.05 && h.histogramStatus === 'done' && h.actualWithin !== undefined ? h : undefined;
    }, 120_000, 'the review at the new settings');
    expect(page.calls).toEqual([
      { method: 'runJson', tool: 'measure_deviation' },
      { method: 'run', tool: 'deviation_heatmap' },
      { method: 'run', tool: 'deviation_histogram' },
    ]);
    const run = sceneStore.getState().lastToolResult!.result as NonNullable<typeof heat.deviation>;
    expect(heat.deviation).toBe(run);
    expect(heat.settings).toEqual({ deflection: 0.05, signMode: 'nearest' });
    const h = heat.histogram!;
    expect([h.deflection, h.signMode]).toEqual([0.05, 'nearest']);
    expect([h.samples, h.maxAbs, h.p95, h.signedMin, h.signedMax]).toEqual([run.fromToTo.samples, run.fromToTo.max, run.fromToTo.p95, -run.fromToTo.signedMax!, -run.fromToTo.signedMin!]);
    // New colours (the display vertices measured against the scan at the run's settings), not the old ones.
    expect(heat.values).not.toBe(before.values);
    // The tolerance rerun keeps the run's settings.
    setTolerance(heat.range * 0.3);
    await new Promise((resolve) => setTimeout(resolve, TOLERANCE_REST_MS));
    const again = await until(() => (inspectStore.getState().heat?.histogram !== h && inspectStore.getState().heat?.histogramStatus === 'done' ? inspectStore.getState().heat!.histogram : undefined), 60_000, 'statistics');
    expect([again!.deflection, again!.signMode, again!.samples]).toEqual([0.05, 'nearest', h.samples]);
  });
  it('"on actual" after a run on the nominal (issue 29.1) measures the scan against the part with the same settings; the views follow', async () => {
    const before = inspectStore.getState().heat!;
    const partToScan = before.deviation!;
    page.calls.length = 0;
    await setColorOn('actual');
    const heat = await until(() => {
      const h = inspectStore.getState().heat;
      return h?.status === 'done' && h.fromBodyId === 'scan' && h.histogramStatus === 'done' ? h : undefined;
    }, 120_000, 'the swapped review');
    expect(page.calls).toEqual([
      { method: 'runJson', tool: 'measure_deviation' },
      { method: 'run', tool: 'deviation_heatmap' },
    ]);
    expect(sceneStore.getState().lastToolResult).toMatchObject({ tool: 'measure_deviation', args: { fromBodyId: 'scan', toBodyId: 'part', deflection: 0.05, signMode: 'nearest' } });
    expect(heat).toMatchObject({ fromBodyId: 'scan', toBodyId: 'part', settings: { deflection: 0.05, signMode: 'nearest' } });
    expect(inspectStore.getState().colorOn).toBe('actual');
    expect(heat.flip).toBe(false);
    // The same two directions as before, named the other way round: scan to part is the earlier run's toToFrom.
    const scanToPart = heat.deviation!.fromToTo;
    expect([scanToPart.samples, scanToPart.max, scanToPart.signedMean]).toEqual([partToScan.toToFrom.samples, partToScan.toToFrom.max, partToScan.toToFrom.signedMean]);
    expect(heat.histogram!.maxAbs).toBe(scanToPart.max);
    // The same sign on either surface: the scan's signed mean as it comes, the part's earlier one negated back.
    expect(Math.sign(heat.histogram!.mean!)).toBe(Math.sign(before.histogram!.mean!));
    // The scan is coloured (one value per vertex of its heat-map mesh, its own vertices first) and shown; the part, now the reference, hidden.
    const scan = sceneStore.getState().bodies.find((b) => b.bodyId === 'scan')!;
    expect(heat.values?.length).toBe(heat.mesh!.positions.length / 3);
    expect(Array.from(heat.mesh!.positions.subarray(0, scan.mesh!.positions.length))).toEqual(Array.from(scan.mesh!.positions));
    expect(scan.visible).toBe(true);
    expect(sceneStore.getState().bodies.find((b) => b.bodyId === 'part')?.visible).toBe(false);

    // On the nominal again: the part against the scan, the earlier figures.
    await setColorOn('nominal');
    const back = await until(() => {
      const h = inspectStore.getState().heat;
      return h?.status === 'done' && h.fromBodyId === 'part' && h.histogramStatus === 'done' ? h : undefined;
    }, 120_000, 'the review swapped back');
    expect(back.deviation!.fromToTo.max).toBe(partToScan.fromToTo.max);
    expect(inspectStore.getState().colorOn).toBe('nominal');
  });

  it('before a run, "on actual" and "on nominal" change the offer only (no engine call)', async () => {
    clearHeatmap();
    expect(comparePair()).toEqual({ from: 'part', to: 'scan' });
    page.calls.length = 0;
    await setColorOn('actual');
    expect(comparePair()).toEqual({ from: 'scan', to: 'part' });
    expect(page.calls).toEqual([]);
    await setColorOn('nominal');
    expect(comparePair()).toEqual({ from: 'part', to: 'scan' });
  });

  it('removing the scan while it is compared ends the review without an error (last: the scan goes)', async () => {
    clearHeatmap();
    await setColorOn('actual');
    page.calls.length = 0;
    const compared = compareBodies('scan', 'part');
    // The removal queues behind the comparison, ahead of the heat map, which then finds no scan.
    await until(() => page.calls.some((c) => c.tool === 'measure_deviation') || undefined, 60_000, 'the comparison under way');
    await Promise.all([compared, removeBody('scan')]);
    await until(() => !toolStore.getState().running || undefined, 60_000, 'the runs over');
    expect(page.calls.map((c) => c.tool)).toEqual(['measure_deviation', 'remove_body', 'deviation_heatmap']);
    expect(sceneStore.getState().bodies.map((b) => b.bodyId)).toEqual(['part']);
    // Before: "Compare failed · BODY_NOT_FOUND" for the user's own removal.
    const ended = await until(() => {
      const h = inspectStore.getState().heat;
      return h === null ? 'cleared' : h.status === 'running' ? undefined : h.status;
    }, 60_000, 'the heat map answered');
    expect(ended).toBe('cleared');
  });
});
