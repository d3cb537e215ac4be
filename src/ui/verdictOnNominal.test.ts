import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStl, writeBinaryStl } from '../engine/scene/import/stl';
import { browserGlobals, demoFile, startTestPage, stopTestPage, until, type TestPage } from '../test/page';
import { importBytes } from './bodies';
import { compareBodies, reportArgs, setColorOn, setTolerance, TOLERANCE_REST_MS } from './deviationReview';
import { verdictOf, verdictWithin } from './roles';
import { session } from './session';
import { engineStore, inspectStore, sceneStore, type HeatState } from './stores';

/**
 * The verdict is the actual's whichever surface is coloured. The demo's scan with a boss: the
 * vertices of its top within 10 mm of one of them lifted 1.5 mm, a defect of the actual that has no
 * counterpart on the nominal's surface (the nominal under it is nearest the boss's foot). Before,
 * "On nominal" gave PASS from the nominal's coverage share, and so did the report downloaded then,
 * whose actual direction got the coverage direction's search distance (0.57: the scan's noise) and
 * left the boss out as no data; on the actual both said FAIL.
 */
const TOLERANCE = 0.6;
const BOSS = { radius: 10, height: 1.5 };
let page: TestPage;

function bossedScan(): Uint8Array<ArrayBuffer> {
  const scan = parseStl(demoFile('scan.stl'));
  const p = scan.positions;
  let top = -Infinity;
  for (let i = 2; i < p.length; i += 3) top = Math.max(top, p[i]!);
  const onTop: number[] = [];
  for (let i = 0; i < p.length; i += 3) if (p[i + 2]! > top - 0.8) onTop.push(i);
  const c = onTop[Math.floor(onTop.length / 2)]!;
  for (const i of onTop) if (Math.hypot(p[i]! - p[c]!, p[i + 1]! - p[c + 1]!) < BOSS.radius) p[i + 2] = p[i + 2]! + BOSS.height;
  return new Uint8Array(writeBinaryStl(scan)).slice();
}

const settled = (coloured: string, flip: boolean) =>
  until(
    () => {
      const h = inspectStore.getState().heat;
      return h?.status === 'done' && h.fromBodyId === coloured && h.histogramStatus === 'done' && h.tolerance === TOLERANCE && (!flip || h.actualWithin !== undefined) ? h : undefined;
    },
    120_000,
    `the review on ${coloured}`,
  );

/** A new tolerance, and the statistics and the verdict's share measured at it. */
async function atTolerance(tolerance: number): Promise<void> {
  const before = inspectStore.getState().heat!.histogram;
  setTolerance(tolerance);
  await new Promise((resolve) => setTimeout(resolve, TOLERANCE_REST_MS));
  await until(() => {
    const h = inspectStore.getState().heat;
    return h?.histogramStatus === 'done' && h.histogram !== before && h.actualWithin !== undefined;
  }, 60_000, `the statistics at ${tolerance}`);
}

beforeAll(async () => {
  browserGlobals();
  page = startTestPage();
  await Promise.all([importBytes('part.brep', demoFile('part.brep')), importBytes('scan.stl', bossedScan())]);
  await until(() => sceneStore.getState().bodies.length === 2 && sceneStore.getState().bodies.every((b) => b.mesh), 120_000, 'both bodies drawn');
});

afterAll(() => stopTestPage());

describe('the verdict on either surface', () => {
  let onActual: HeatState;

  it('on the actual: the boss fails the part', async () => {
    setTolerance(TOLERANCE);
    await compareBodies('scan', 'part');
    onActual = await settled('scan', false);
    expect(onActual.flip).toBe(false);
    const within = onActual.histogram!.withinTolerance!;
    expect(within).toBeLessThan(0.99);
    expect(within).toBeGreaterThan(0.95);
    expect(onActual.histogram!.maxAbs).toBeGreaterThan(BOSS.height);
    expect(verdictOf(verdictWithin(onActual), inspectStore.getState().passShare)).toBe('FAIL');
  });

  it('on the nominal: the coverage passes, the verdict is still the actual\'s FAIL, and a tolerance change follows it', async () => {
    page.calls.length = 0;
    await setColorOn('nominal');
    const heat = await settled('part', true);
    expect(heat.flip).toBe(true);
    // The nominal's samples all lie within the tolerance of the scan: the boss is not seen from there.
    expect(heat.histogram!.withinTolerance).toBe(1);
    // One colour scale for both views: the actual's (the boss's p99 is not in the nominal's vertices).
    expect(onActual.rangeFrom).toBeUndefined();
    expect(heat).toMatchObject({ range: onActual.range, rangeFrom: 'scan' });
    expect(page.calls.map((c) => c.tool)).toEqual(['measure_deviation', 'deviation_heatmap', 'deviation_histogram']);
    // The actual's samples at the same settings: the on-actual figure to the last bit.
    expect(verdictWithin(heat)).toBe(onActual.histogram!.withinTolerance);
    expect(verdictOf(verdictWithin(heat), inspectStore.getState().passShare)).toBe('FAIL');

    // A tolerance wide enough for the boss: the verdict follows to PASS, still the actual's share.
    await atTolerance(BOSS.height + 0.5);
    const wide = inspectStore.getState().heat!;
    expect(wide.actualWithin).toBe(1);
    expect(verdictOf(verdictWithin(wide), inspectStore.getState().passShare)).toBe('PASS');
    await atTolerance(TOLERANCE);
    expect(inspectStore.getState().heat!.actualWithin).toBe(onActual.histogram!.withinTolerance);
    expect(inspectStore.getState().heat).toMatchObject({ range: onActual.range, rangeFrom: 'scan' });
  });

  it('the report downloaded on the nominal says the screen\'s FAIL, with the actual\'s figures', async () => {
    const heat = inspectStore.getState().heat!;
    const args = reportArgs(heat, 'on-nominal.html');
    expect(args).toMatchObject({ actualBodyId: 'scan', nominalBodyId: 'part', tolerance: TOLERANCE });
    expect(args).not.toHaveProperty('maxDistance');
    const report = await session().run('inspection_report', { ...args, labels: false, views: ['iso'] });
    expect(report.ok).toBe(true);
    if (!report.ok) return;
    expect(report.value.result).toMatchObject({ verdict: 'FAIL', withinTolerance: { fromToTo: onActual.histogram!.withinTolerance } });
    // What the page used to pass: the heat map's search distance, the coverage direction's default.
    expect(heat.maxDistance!).toBeLessThan(1);
    const before = await session().run('inspection_report', { ...args, maxDistance: heat.maxDistance, outputPath: 'before.html', labels: false, views: ['iso'] });
    expect(before.ok && before.value.result.verdict).toBe('PASS');
  });

  it('when the actual\'s statistics fail, the page says there is no verdict and why; Compare again asks again', async () => {
    await setColorOn('actual');
    await settled('scan', false);
    page.abortNext.add('deviation_histogram');
    await setColorOn('nominal');
    const failed = await until(() => {
      const h = inspectStore.getState().heat;
      return h?.status === 'done' && h.fromBodyId === 'part' && h.actualWithin === null ? h : undefined;
    }, 120_000, 'the failed verdict share');
    expect(failed.actualWithinError?.code).toBe('KERNEL_ABORTED');
    expect(verdictOf(verdictWithin(failed), inspectStore.getState().passShare)).toBeNull();
    // The aborted kernel's worker was replaced, its bodies restored; the same comparison again.
    await until(() => !engineStore.getState().restoring || undefined, 120_000, 'the restored engine');
    page.calls.length = 0;
    await compareBodies('part', 'scan');
    const again = await settled('part', true);
    // The same review (its colours kept): only the verdict's share is asked for again.
    expect(page.calls.map((c) => c.tool)).toEqual(['measure_deviation', 'deviation_histogram']);
    expect(again.actualWithinError).toBeUndefined();
    expect(again.actualWithin).toBe(onActual.histogram!.withinTolerance);
  });
});
