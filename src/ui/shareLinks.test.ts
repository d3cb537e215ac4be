import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browserGlobals, demoFile, startTestPage, stopTestPage, until } from '../test/page';
import { importBytes } from './bodies';
import { session } from './session';
import { openShareLink, shareLink } from './shareLinks';
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
    expect(offered.url).toBe(`${BASE}${buildShareHash({ models: [`${BASE}demo/part.brep`, `${BASE}demo/scan.stl`], tool: 'recognize_features', args })}`);
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

  it('carry the deviation labels: placed and measured once the heat map is on, offered back in the link', async () => {
    const args = { fromBodyId: 'part', toBodyId: 'scan' };
    const labels: [number, number, number][] = [
      [0, -25, 12],
      [40, 0, 12],
    ];
    await openShareLink(buildShareHash({ models: ['demo/part.brep', 'demo/scan.stl'], tool: 'measure_deviation', args, labels }));
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

  it('a scene with a local file has no link, and says why', async () => {
    expect(shareLink(BASE)).toEqual({ ok: false, reason: 'the scene is empty' });
    await importBytes('scan.stl', demoFile('scan.stl'));
    expect(shareLink(BASE)).toEqual({ ok: false, reason: 'scan came from local files, which a link cannot carry' });
    expect(session().keptFiles().map((f) => f.sourceUrl)).toEqual([undefined]);
  });
});
