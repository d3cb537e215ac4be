import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserGlobals, demoFile, startTestPage, stopTestPage, until, type TestPage } from '../test/page';
import { importBytes } from './bodies';
import { compareBodies, setTolerance, TOLERANCE_REST_MS } from './deviationReview';
import { inspectStore, sceneStore } from './stores';

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
  it('makes one engine call for the comparison and one for the heat map (with its statistics); each deviation is computed once', async () => {
    page.traces.length = 0;
    await compareBodies('part', 'scan');
    const heat = await until(() => (inspectStore.getState().heat?.status === 'done' ? inspectStore.getState().heat : undefined), 120_000, 'the heat map');

    expect(page.calls).toEqual([
      { method: 'runJson', tool: 'measure_deviation' },
      { method: 'run', tool: 'deviation_heatmap' },
    ]);
    // fromToTo and toToFrom (measure_deviation), the display-vertex values and the histogram's samples.
    const computed = deviations();
    expect(computed).toHaveLength(4);
    expect(new Set(computed).size).toBe(computed.length);

    // The review is complete from those two calls: colours, range, tolerance and the stats card.
    expect(heat).toMatchObject({ fromBodyId: 'part', toBodyId: 'scan', histogramStatus: 'done' });
    const partMesh = sceneStore.getState().bodies.find((b) => b.bodyId === 'part')?.mesh;
    expect(heat?.values?.length).toBe((partMesh?.positions.length ?? 0) / 3);
    expect(heat?.range).toBeGreaterThan(0);
    expect(heat?.tolerance).toBeGreaterThan(0);
    expect(heat?.tolerance).toBeLessThan(heat!.range);
    // deviation_histogram's default 50,000 samples and measure_deviation's 20,000 (stride-subsampled: up to that many).
    expect(heat?.histogram?.withinTolerance).toEqual(expect.any(Number));
    expect(heat?.histogram?.samples).toBeGreaterThan(40000);
    expect(heat?.histogram?.samples).toBeLessThanOrEqual(50000);
    expect(heat?.deviation?.fromToTo.samples).toBeGreaterThan(15000);
    expect(heat?.deviation?.fromToTo.samples).toBeLessThanOrEqual(20000);
  });

  it('a new tolerance asks for the statistics once and computes no deviation again', async () => {
    const before = inspectStore.getState().heat!;
    const traced = page.traces.length;
    setTolerance(before.range * 0.5);
    await new Promise((resolve) => setTimeout(resolve, TOLERANCE_REST_MS));
    await until(() => inspectStore.getState().heat?.histogramStatus === 'done' && inspectStore.getState().heat?.histogram !== before.histogram, 60_000, 'the new statistics');
    expect(page.calls).toEqual([{ method: 'run', tool: 'deviation_histogram' }]);
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
});
