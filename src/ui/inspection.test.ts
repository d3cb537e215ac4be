import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { browserGlobals, demoFile, startTestPage, stopTestPage, until, type TestPage } from '../test/page';
import { dataPath } from '../test/data';
import { readFileSync } from 'node:fs';
import { importBytes, removeBody } from './bodies';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { SECTION_PLOT_AREA, WHISKER_WITHIN_COLOR } from '../engine/render/sectionOverlay';
import { compareBodies, clearHeatmap, plotDeviationSections, setTolerance } from './deviationReview';
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

  it('sections follow the tolerance: the same stations cut again, their whiskers grey exactly within the new band', async () => {
    const before = inspectStore.getState().sections!;
    const start = inspectStore.getState().tolerance.value;
    expect(before.result.whiskers?.tolerance).toBe(start);
    const greyOf = async (s: typeof before) => {
      let n = 0;
      for (const file of Object.values(s.images)) {
        const img = await loadImage(Buffer.from(file.bytes));
        const c = createCanvas(img.width, img.height);
        const g = c.getContext('2d');
        g.drawImage(img, 0, 0);
        // The drawing area only: the header and footer have grey text of their own.
        const [x0, y0, x1, y1] = SECTION_PLOT_AREA;
        const d = g.getImageData(x0, y0, x1 - x0, y1 - y0).data;
        for (let i = 0; i < d.length; i += 4) if (d[i] === grey[0] && d[i + 1] === grey[1] && d[i + 2] === grey[2]) n++;
      }
      return n;
    };
    const grey = [1, 3, 5].map((k) => parseInt(WHISKER_WITHIN_COLOR.slice(k, k + 2), 16));
    // Wider than every station's largest |deviation|: every whisker within the band, grey.
    const widest = Math.max(...before.result.sections.map((s) => s.maxAbs ?? 0));
    expect(widest).toBeGreaterThan(0);
    const wide = Number((widest * 1.5).toPrecision(3));
    setTolerance(wide);
    const wideCut = await until(() => inspectStore.getState().sections?.result.whiskers?.tolerance === wide && inspectStore.getState().sections, 60_000, 'the sections cut at the wide band');
    // The same stations and figures (they do not depend on the band), the station the user looked at kept, the tab left alone.
    expect(wideCut.result.sections.map((s) => [s.station, s.signedMean, s.maxAbs])).toEqual(before.result.sections.map((s) => [s.station, s.signedMean, s.maxAbs]));
    expect(wideCut.focused).toBe(2);
    expect(wideCut.recut).toBe(true);
    expect(toolStore.getState().results.cross_section_compare?.args).toMatchObject({ tolerance: wide, axis: [1, 0, 0], stations: 6, fromBodyId: 'scan', referenceBodyId: 'part' });
    const wideGrey = await greyOf(wideCut);
    expect(wideGrey).toBeGreaterThan(200);

    // Far below every deviation: no whisker is within the band, none is grey.
    const tight = 1e-7;
    setTolerance(tight);
    const tightCut = await until(() => inspectStore.getState().sections?.result.whiskers?.tolerance === tight && inspectStore.getState().sections, 60_000, 'the sections cut at the tight band');
    expect(tightCut.result.whiskers?.tolerance).toBe(tight);
    expect(await greyOf(tightCut)).toBe(0);
    setTolerance(start);
    await until(() => inspectStore.getState().sections?.result.whiskers?.tolerance === start, 60_000, 'the sections back at the first band');
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
