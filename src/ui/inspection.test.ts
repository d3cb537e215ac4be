import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { browserGlobals, demoFile, startTestPage, stopTestPage, until, type TestPage } from '../test/page';
import { dataPath } from '../test/data';
import { readFileSync } from 'node:fs';
import { importBytes, removeBody } from './bodies';
import { compareBodies, clearHeatmap, plotDeviationSections } from './deviationReview';
import { exportGraph, queryGraphFile, validateGraph } from './graphActions';
import { openFiles } from './files';
import { cutSections, focusStation } from './sections';
import { inspectStore, sceneStore, toolStore } from './stores';
import { runFromPanel } from './toolRuns';

/** The inspection views' state, driven by the actions a click or a form runs, on the real engine. */
let page: TestPage;
const downloads: { name: string; size: number }[] = [];

beforeAll(async () => {
  browserGlobals();
  // exportGraph offers the file as a download: record what would be saved.
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => `blob:${b.size}`, revokeObjectURL: () => undefined }));
  vi.stubGlobal('document', {
    baseURI: 'http://brepscope.test/app/',
    body: { appendChild: () => undefined },
    createElement: () => {
      const a = { href: '', download: '', click: () => downloads.push({ name: a.download, size: Number(a.href.slice(5)) }), remove: () => undefined };
      return a;
    },
  });
  page = startTestPage();
  await Promise.all([importBytes('part.brep', demoFile('part.brep')), importBytes('scan.stl', demoFile('scan.stl'))]);
  await until(() => sceneStore.getState().bodies.length === 2 && sceneStore.getState().bodies.every((b) => b.mesh), 120_000, 'the demo drawn');
});

afterAll(() => {
  stopTestPage();
  vi.unstubAllGlobals();
});

describe('inspection state', () => {
  it('deviation along an axis: measure_deviation with stations fills the chart state', async () => {
    await plotDeviationSections([1, 0, 0], 12);
    const ds = inspectStore.getState().deviationSections;
    // The offered pair measures the actual (the scan) against the nominal (issue 29.1).
    expect(ds).toMatchObject({ axis: [1, 0, 0], fromBodyId: 'scan' });
    expect(ds?.stations).toHaveLength(12);
    expect(toolStore.getState().selected).toBe('measure_deviation');
  });

  it('sections: cross_section_compare from the review, each station with the PNG the run returned as an output', async () => {
    await cutSections([1, 0, 0], 6);
    const s = inspectStore.getState().sections!;
    expect(s.result.sections).toHaveLength(6);
    expect(Object.keys(s.images)).toHaveLength(6);
    for (const file of Object.values(s.images)) expect([...file.bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]); // "PNG"
    expect(s.focused).toBe(s.result.worstStation);
    focusStation(2);
    expect(inspectStore.getState().sections?.focused).toBe(2);
  });

  it('a form run of measure_deviation starts the heat map too (the result registry), and removing a body clears its views', async () => {
    clearHeatmap();
    await runFromPanel('measure_deviation', { fromBodyId: 'part', toBodyId: 'scan', maxSamples: 2000 });
    await until(() => inspectStore.getState().heat?.status === 'done', 60_000, 'the heat map');
    // The review hid the reference; removing colours shows it again.
    expect(sceneStore.getState().bodies.find((b) => b.bodyId === 'scan')?.visible).toBe(false);
    clearHeatmap();
    expect(sceneStore.getState().bodies.find((b) => b.bodyId === 'scan')?.visible).toBe(true);
    await compareBodies('part', 'scan');
    await until(() => inspectStore.getState().heat?.status === 'done', 60_000, 'the heat map');
  });

  it('graph panel: graph_validate on a body, graph_export returns the SQLite file as an output, graph_query on a dropped database', async () => {
    await validateGraph('part');
    expect(inspectStore.getState().graph.validate).toMatchObject({ bodyId: 'part', status: 'done', result: { isValid: true } });
    await exportGraph('part');
    const last = inspectStore.getState().graph.lastExport!;
    expect(last).toMatchObject({ bodyId: 'part', head: 'SQLite format 3\0' });
    expect(downloads).toEqual([{ name: 'part.sqlite', size: last.size }]);
    // The exported database, dropped back on the page: queried, never imported.
    const exported = await page.engines.at(-1)!.runJson('graph_export', { bodyId: 'part', outputPath: 'again.sqlite' });
    const bytes = exported.outputs[0]!.bytes;
    await openFiles([new File([bytes.slice()], 'part.sqlite')]);
    expect(inspectStore.getState().graph.query).toMatchObject({ fileName: 'part.sqlite', status: 'done', result: { summary: { solids: 1 } } });
    expect(sceneStore.getState().bodies.map((b) => b.bodyId).sort()).toEqual(['part', 'scan']);
    await queryGraphFile(new File([new TextEncoder().encode('not sqlite')], 'bad.sqlite'));
    expect(inspectStore.getState().graph.query).toMatchObject({ fileName: 'bad.sqlite', status: 'failed', error: { code: 'PARSE_FAILED' } });
  });

  it('assembly: inspect_assembly on a loaded file finds the body it became', async () => {
    const as1 = readFileSync(dataPath('cax-if/as1_pe_203.stp'));
    await importBytes('as1_pe_203.stp', new Uint8Array(as1.buffer.slice(as1.byteOffset, as1.byteOffset + as1.byteLength)));
    await runFromPanel('inspect_assembly', { inputPath: 'as1_pe_203.stp' });
    const a = inspectStore.getState().assembly!;
    expect(a).toMatchObject({ source: 'as1_pe_203.stp', bodyId: 'as1_pe_203', hovered: null });
    expect(a.tree.children.length).toBeGreaterThan(0);
    await removeBody('as1_pe_203');
    expect(inspectStore.getState().assembly?.bodyId).toBeNull();
  });

  it('views of a removed body go with it', async () => {
    expect(inspectStore.getState().heat).not.toBeNull();
    expect(inspectStore.getState().sections).not.toBeNull();
    await removeBody('scan');
    expect(inspectStore.getState().heat).toBeNull();
    expect(inspectStore.getState().sections).toBeNull();
    await removeBody('part');
    expect(inspectStore.getState().deviationSections).toBeNull();
  });
});
