import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browserGlobals, demoFile, startTestPage, stopTestPage, until } from '../test/page';
import { importBytes } from './bodies';
import { session } from './session';
import { alignBodies, applyAlignment, undoAlignment } from './alignment';
import { openShareLink, shareLink } from './shareLinks';
import { runFromPanel } from './toolRuns';
import { buildShareHash } from './shareLink';
import { inspectStore, sceneStore, toolStore } from './stores';

/** Share links applied to the page (models fetched, the tool run) and the link the page offers. */
const BASE = 'http://brepscope.test/app/';
const fetched: string[] = [];

beforeEach(() => {
  browserGlobals();
  fetched.length = 0;
  vi.stubGlobal('fetch', async (url: URL) => {
    fetched.push(url.href);
    const name = url.pathname.split('/').pop();
    if (name !== 'part.brep' && name !== 'scan.stl') return new Response(null, { status: 404, statusText: 'Not Found' });
    const bytes = demoFile(name);
    return new Response(bytes, { headers: { 'content-length': String(bytes.byteLength) } });
  });
  startTestPage();
});

afterEach(() => {
  stopTestPage();
  vi.unstubAllGlobals();
});

const link = (params: [string, string][]) => `#${new URLSearchParams(params).toString()}`;

const c = Math.cos((25 * Math.PI) / 180), s = Math.sin((25 * Math.PI) / 180);
/** 25 degrees about z, then a shift (as e2e/alignment.spec.ts moves the demo's scan). */
const MISALIGNED = [
  [c, -s, 0, 3],
  [s, c, 0, -2],
  [0, 0, 1, 1],
  [0, 0, 0, 1],
];

const placementOf = (bodyId: string) => sceneStore.getState().bodies.find((b) => b.bodyId === bodyId)!.summary.placement!.transform;

/** A link's runs as [tool, args] pairs. */
function runsOf(offered: ReturnType<typeof shareLink>): [string, unknown][] {
  if (!offered.ok) throw new Error(offered.reason);
  const params = [...new URLSearchParams(offered.url.split('#')[1])];
  return params.flatMap(([k, v], i) => (k === 'tool' ? [[v, params[i + 1]?.[0] === 'args' ? JSON.parse(params[i + 1]![1]) : undefined] as [string, unknown]] : []));
}

describe('share links', () => {
  it('load their models (named by the URL), fill the form and run the tool; the page offers the same link back', async () => {
    const args = { bodyId: 'part', kinds: ['hole'] };
    await openShareLink(link([['model', 'demo/part.brep'], ['model', 'demo/scan.stl'], ['tool', 'recognize_features'], ['args', JSON.stringify(args)]]));
    expect(fetched).toEqual([`${BASE}demo/part.brep`, `${BASE}demo/scan.stl`]);
    expect(sceneStore.getState().bodies.map((b) => b.bodyId).sort()).toEqual(['part', 'scan']);
    const last = sceneStore.getState().lastToolResult;
    expect(last).toMatchObject({ tool: 'recognize_features', ok: true, args });
    expect(toolStore.getState().selected).toBe('recognize_features');
    expect(toolStore.getState().forms.recognize_features).toMatchObject({ bodyId: 'part' });

    const offered = shareLink(`${BASE}#old`);
    expect(offered.ok).toBe(true);
    if (!offered.ok) return;
    expect(offered.url).toBe(
      `${BASE}${buildShareHash({ models: [`${BASE}demo/part.brep`, `${BASE}demo/scan.stl`], runs: [{ tool: 'recognize_features', args }], inspection: { tolerance: 0.1, passShare: 0.99, colorOn: 'actual' } })}`,
    );
  });

  it('bad links give coded errors and the models that exist still load', async () => {
    await openShareLink(link([['model', 'javascript:alert(1)'], ['tool', 'compute_metrics']]));
    expect(sceneStore.getState().errors.map((e) => e.code)).toEqual(['INVALID_ARGUMENT']);
    await openShareLink(link([['model', 'demo/missing.stl'], ['model', 'demo/scan.stl'], ['tool', 'no_such_tool']]));
    await until(() => sceneStore.getState().bodies.length === 1, 60_000, 'the scan');
    expect(sceneStore.getState().errors.map((e) => e.code).sort()).toEqual(['FILE_NOT_FOUND', 'INVALID_ARGUMENT', 'UNKNOWN_TOOL']);
    // Arguments that are not JSON: an error, and the link's models still load (as with an unknown tool).
    await openShareLink(link([['model', 'demo/part.brep'], ['tool', 'compute_metrics'], ['args', '{bad']]));
    await until(() => sceneStore.getState().bodies.length === 2, 60_000, 'the part');
    expect(sceneStore.getState().errors.at(-1)).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('args: not valid JSON') });
    await openShareLink(link([['tool', 'import_file'], ['args', '{}']]));
    expect(sceneStore.getState().errors.at(-1)?.code).toBe('INVALID_ARGUMENT');
    // Arguments the engine rejects come back from its schema, under the form.
    await openShareLink(link([['tool', 'query_topology'], ['args', JSON.stringify({ bodyId: 'scan', entity: 'solid' })]]));
    const last = sceneStore.getState().lastToolResult;
    expect(last).toMatchObject({ tool: 'query_topology', ok: false, error: { code: 'INVALID_ARGUMENT' } });
  });

  it('carry the tolerance, verdict rule, roles and title block: the heat map colours at the link\'s tolerance; the page offers them back', async () => {
    const inspection = { tolerance: 0.15, passShare: 0.95, colorOn: 'actual' as const, titleBlock: { part: 'Bracket', operator: 'Ann' } };
    await openShareLink(buildShareHash({ models: ['demo/part.brep', 'demo/scan.stl'], runs: [{ tool: 'measure_deviation', args: { fromBodyId: 'scan', toBodyId: 'part' } }], inspection }));
    const heat = await until(() => (inspectStore.getState().heat?.histogramStatus === 'done' ? inspectStore.getState().heat : undefined), 120_000, 'the heat map');
    expect(heat.tolerance).toBe(0.15);
    expect(inspectStore.getState()).toMatchObject({ tolerance: { value: 0.15, source: 'link' }, passShare: 0.95, titleBlock: { part: 'Bracket', operator: 'Ann' } });
    // The statistics at that tolerance: the share within it is the engine's at 0.15, not at a default.
    const direct = await session().run('deviation_histogram', { fromBodyId: 'scan', referenceBodyId: 'part', tolerance: 0.15, maxSamples: heat.maxSamples, maxDistance: heat.maxDistance });
    expect(direct.ok && heat.histogram!.withinTolerance).toBe(direct.ok ? direct.value.result.withinTolerance : NaN);
    const offered = shareLink(BASE);
    const params = offered.ok ? new URLSearchParams(offered.url.split('#')[1]) : null;
    expect([params?.get('tol'), params?.get('pass'), params?.get('part'), params?.get('operator'), params?.get('on')]).toEqual(['0.15', '0.95', 'Bracket', 'Ann', 'actual']);
  });

  it('carry the deviation labels: placed and measured once the heat map is on, offered back in the link', async () => {
    const args = { fromBodyId: 'part', toBodyId: 'scan' };
    const labels: [number, number, number][] = [
      [0, -25, 12],
      [40, 0, 12],
    ];
    await openShareLink(buildShareHash({ models: ['demo/part.brep', 'demo/scan.stl'], runs: [{ tool: 'measure_deviation', args }], labels }));
    await until(() => inspectStore.getState().heat?.labels?.status === 'done', 120_000, 'the labels');
    const heat = inspectStore.getState().heat!;
    expect(heat.labels!.points).toEqual(labels);
    const measured = heat.labels!.result!;
    expect(measured).toHaveLength(2);
    // Each moved onto the part's surface (both points lie on its faces: y = -25 and x = 40) and measured against the scan.
    expect(measured.map((l) => l.offset)).toEqual([expect.closeTo(0, 6), expect.closeTo(0, 6)]);
    for (const l of measured) expect(Math.abs(l.signed!)).toBeLessThan(0.5);
    const offered = shareLink(BASE);
    expect(offered.ok && new URLSearchParams(offered.url.split('#')[1]).getAll('label')).toEqual(['0,-25,12', '40,0,12']);
    await openShareLink(link([['model', 'demo/scan.stl'], ['label', '1,2']]));
    expect(sceneStore.getState().errors.at(-1)?.code).toBe('INVALID_ARGUMENT');
  });

  it('carry the placements exactly, then the last run: the opened page stands and measures as the original, bit for bit; Undo drops the placement from the link', async () => {
    await openShareLink(link([['model', 'demo/part.brep'], ['model', 'demo/scan.stl']]));
    await until(() => sceneStore.getState().bodies.length === 2, 60_000, 'the demo');
    // The scan moved by a known motion, then aligned back (an applied alignment composes the two: its rotation is not a typed one).
    expect((await runFromPanel('set_placement', { bodyId: 'scan', transform: MISALIGNED })).ok).toBe(true);
    await alignBodies('scan', 'part');
    await until(() => inspectStore.getState().alignment?.status === 'proposed', 120_000, 'the proposal');
    // A proposal not applied moved nothing: the link carries where the scan stands, not the alignment run.
    expect(runsOf(shareLink(BASE))).toEqual([['set_placement', { bodyId: 'scan', transform: placementOf('scan') }]]);
    expect(placementOf('scan')).toEqual(MISALIGNED);
    await applyAlignment();
    expect(inspectStore.getState().alignment?.status).toBe('applied');
    // The last run moved a body: the link carries the placement (with the alignment's figures), not the run.
    const aligned = { fixedBodyId: 'part', method: 'bestFit', rmsBefore: expect.any(Number), rmsAfter: expect.any(Number), converged: true };
    expect(runsOf(shareLink(BASE))).toEqual([['set_placement', { bodyId: 'scan', transform: placementOf('scan'), alignment: aligned }]]);
    const deviation = { fromBodyId: 'part', toBodyId: 'scan' };
    const measured = await runFromPanel('measure_deviation', deviation);
    expect(measured.ok).toBe(true);
    const placed = placementOf('scan');
    const offered = shareLink(BASE);
    expect(runsOf(offered)).toEqual([
      ['set_placement', { bodyId: 'scan', transform: placed, alignment: aligned }],
      ['measure_deviation', deviation],
    ]);
    const stats = measured.ok ? measured.result : null;

    // A fresh page opens the link: the scan stands where it stood, to the last bit, without an alignment run.
    stopTestPage();
    startTestPage();
    const page = session();
    await openShareLink(offered.ok ? `#${offered.url.split('#')[1]}` : '');
    expect(sceneStore.getState().errors).toEqual([]);
    const reopened = placementOf('scan');
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) expect(Object.is(reopened[i]![j], placed[i]![j])).toBe(true);
    expect(page.keptFiles().find((f) => f.bodyId === 'scan')?.placement?.transform).toEqual(placed);
    const again = sceneStore.getState().lastToolResult;
    expect(again).toMatchObject({ tool: 'measure_deviation', ok: true });
    expect(again?.ok && again.result).toEqual(stats);
    expect(toolStore.getState().lastRun).toEqual({ tool: 'measure_deviation', args: deviation });
    // The review says where the scan stands and that the link put it there; the opened page offers the same link.
    expect(inspectStore.getState().alignment).toEqual({ origin: 'link', movingBodyId: 'scan', status: 'applied', previous: null });
    expect(shareLink(BASE)).toEqual(offered);

    // Undo: where the scan stood before the link placed it (its file position); the link then carries no placement.
    await undoAlignment();
    expect(inspectStore.getState().alignment).toBeNull();
    expect(sceneStore.getState().bodies.find((b) => b.bodyId === 'scan')?.summary.placement).toBeNull();
    expect(runsOf(shareLink(BASE))).toEqual([]);
  });

  it('a run the schema refuses stops every run before any starts; a failed run stops the ones after it; the models load', async () => {
    const placement = JSON.stringify({ bodyId: 'scan', transform: MISALIGNED });
    await openShareLink(link([['model', 'demo/scan.stl'], ['tool', 'set_placement'], ['args', placement], ['tool', 'measure_deviation'], ['args', JSON.stringify({ fromBodyId: 'scan', sections: 3 })]]));
    await until(() => sceneStore.getState().bodies.length === 1, 60_000, 'the scan');
    expect(sceneStore.getState().errors.map((e) => [e.code, e.message])).toEqual([
      ['INVALID_ARGUMENT', expect.stringMatching(/^run 2 of 2: measure_deviation: .*toBodyId/)],
      ['INVALID_ARGUMENT', "tool: none of the link's 2 runs was run (each may build on the one before)"],
    ]);
    // The placement before it did not run; the refused run shows under its form.
    expect(sceneStore.getState().bodies[0]!.summary.placement).toBeNull();
    expect(toolStore.getState().selected).toBe('measure_deviation');
    expect(sceneStore.getState().lastToolResult).toMatchObject({ tool: 'measure_deviation', ok: false, error: { code: 'INVALID_ARGUMENT' } });

    // Valid, but the first run fails (no such body): the run after it does not run.
    await openShareLink(link([['tool', 'set_placement'], ['args', JSON.stringify({ bodyId: 'nope', transform: MISALIGNED })], ['tool', 'compute_metrics'], ['args', JSON.stringify({ bodyId: 'scan' })]]));
    expect(sceneStore.getState().errors.at(-1)).toMatchObject({ code: 'BODY_NOT_FOUND', message: expect.stringMatching(/^run 1 of 2: set_placement failed .*the 1 run\(s\) after it were not run$/) });
    expect(toolStore.getState().results.compute_metrics).toBeUndefined();
    expect(inspectStore.getState().alignment).toBeNull();
  });

  it('a scene with a local file has no link, and says why', async () => {
    expect(shareLink(BASE)).toEqual({ ok: false, reason: 'the scene is empty' });
    await importBytes('scan.stl', demoFile('scan.stl'));
    expect(shareLink(BASE)).toEqual({ ok: false, reason: 'scan came from local files, which a link cannot carry' });
    expect(session().keptFiles().map((f) => f.sourceUrl)).toEqual([undefined]);
  });
});
