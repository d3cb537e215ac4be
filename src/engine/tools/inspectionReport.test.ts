import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadImage } from '@napi-rs/canvas';
import { parse, type HTMLElement } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { dataPath } from '../../test/data';
import { makeSphere } from '../../test/kernelShapes';
import type { DeviationLabelsResult } from './deviationLabels';
import type { HeatmapResult } from './deviationHeatmap';
import type { HistogramResult } from './deviationHistogram';
import type { Body } from '../scene/Body';
import { figureText, shareText } from '../report/figures';
import { characteristicCallouts, reportUnit, type InspectionReportResult } from './inspectionReport';
import type { Characteristic } from '../gdt/evaluate';
import type { CrossSectionResult } from './crossSectionCompare';
import type { DeviationResult } from './measureDeviation';
import { REPORT_DATA_ID } from '../report/reportHtml';

let oc: OC;
let engine: Engine;
let dir: string;
const run = <T>(tool: string, args: object) => engine.runJson(tool, args).then((r) => r.result as T);

/** The app's demo files by absolute path: test engines resolve relative paths in a temporary folder. */
const DEMO = (name: string) => fileURLToPath(new URL(`../../../public/demo/${name}`, import.meta.url));

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  // The app's demo pair, read as a user's files: its scan against its CAD part.
  await run('import_file', { path: DEMO('scan.stl'), bodyId: 'scan' });
  await run('import_file', { path: DEMO('part.brep'), bodyId: 'part' });
  addShapeBody(oc, engine.scene, 'ref', makeSphere(oc, 10));
  addShapeBody(oc, engine.scene, 'proud', makeSphere(oc, 10.1));
  dir = mkdtempSync(join(tmpdir(), 'brepscope-report-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every number cell of the report: its result field, its full value and its shown text. */
function cells(doc: HTMLElement): Map<string, { value: number | null; text: string }> {
  const out = new Map<string, { value: number | null; text: string }>();
  for (const el of doc.querySelectorAll('[data-field]')) {
    const raw = el.getAttribute('data-value');
    out.set(el.getAttribute('data-field')!, { value: raw === undefined || raw === '' ? null : Number(raw), text: el.text.trim() });
  }
  return out;
}

describe('inspection_report', () => {
  it("writes one self-contained HTML file of the demo pair whose every figure is the tools' own result", async () => {
    const outputPath = join(dir, 'demo.html');
    const settings = { tolerance: 0.1, signMode: 'robust', maxSamples: 5000 };
    const r = await run<InspectionReportResult>('inspection_report', { fromBodyId: 'scan', referenceBodyId: 'part', outputPath, ...settings, views: ['iso', 'top'], sections: { axis: [0, 0, 1], stations: 2 } });
    const bytes = readFileSync(outputPath);
    expect(r.bytes).toBe(bytes.length);
    const html = bytes.toString('utf8');
    const doc = parse(html);

    // Self-contained: no external resource of any kind, images inline and real PNGs.
    const text = html.replace(/data:image\/png;base64,[A-Za-z0-9+/=]+/g, 'data:');
    expect(text.match(/(https?:)?\/\/[a-z0-9]|url\(|@import/gi)).toBeNull();
    expect(doc.querySelectorAll('link, iframe, object, embed, script[src]')).toHaveLength(0);
    for (const s of doc.querySelectorAll('script')) expect(s.getAttribute('type')).toBe('application/json');
    const images = doc.querySelectorAll('img');
    // Two heat-map views, the histogram, two section overlays.
    expect(images).toHaveLength(5);
    for (const img of images) {
      const src = img.getAttribute('src')!;
      expect(src.startsWith('data:image/png;base64,')).toBe(true);
      const png = await loadImage(Buffer.from(src.slice(22), 'base64'));
      expect(png.width).toBeGreaterThan(100);
    }

    // The same tools, run on their own with the same settings, give every number the report shows.
    const common = { deflection: undefined, signMode: 'robust', maxSamples: 5000 };
    const deviation = await run<DeviationResult>('measure_deviation', { fromBodyId: 'scan', toBodyId: 'part', ...common });
    const forward = await run<HistogramResult>('deviation_histogram', { fromBodyId: 'scan', referenceBodyId: 'part', tolerance: 0.1, ...common });
    const backward = await run<HistogramResult>('deviation_histogram', { fromBodyId: 'part', referenceBodyId: 'scan', tolerance: 0.1, ...common });
    const labels = await run<DeviationLabelsResult>('deviation_labels', { fromBodyId: 'scan', referenceBodyId: 'part', tolerance: 0.1 });
    const metrics = [await run<{ volume: number | null; surfaceArea: number }>('compute_metrics', { bodyId: 'scan' }), await run<{ volume: number | null; surfaceArea: number }>('compute_metrics', { bodyId: 'part' })];
    const c = cells(doc);
    const decimals = c.get('fromToTo.max')!.text.split('.')[1]!.length;
    const expectCell = (field: string, want: number | null) => {
      const cell = c.get(field);
      expect(cell, field).toBeDefined();
      expect(cell!.value, field).toBe(want);
      if (want !== null && !/amples$|Fraction$|withinTolerance$/.test(field)) expect(cell!.text.replace('\u2212', '-').replace(/ model units$/, ''), field).toBe(want.toFixed(decimals));
    };
    for (const key of ['fromToTo', 'toToFrom'] as const) {
      for (const f of ['max', 'mean', 'rms', 'p95', 'signedMin', 'signedMax', 'signedMean', 'samples', 'signedSamples', 'ambiguousFraction'] as const) expectCell(`${key}.${f}`, deviation[key][f]);
      // The histogram's samples are measure_deviation's: the same maximum.
    }
    expect(forward.maxAbs).toBe(deviation.fromToTo.max);
    expect(backward.maxAbs).toBe(deviation.toToFrom.max);
    expectCell('symmetricHausdorff', deviation.symmetricHausdorff);
    expectCell('fromToTo.withinTolerance', forward.withinTolerance!);
    expectCell('toToFrom.withinTolerance', backward.withinTolerance!);
    expect(c.get('fromToTo.withinTolerance')!.text).toBe(`${(100 * forward.withinTolerance!).toFixed(2)} %`);
    expectCell('histogram.mean', forward.mean);
    expectCell('histogram.std', forward.std);
    expectCell('histogram.median', forward.median);
    expectCell('deflection', deviation.deflection);
    expectCell('tolerance', 0.1);
    expect(labels.labels).toHaveLength(8);
    for (const l of labels.labels) {
      expectCell(`labels.${l.number}.signed`, l.signed);
      expectCell(`labels.${l.number}.distance`, l.distance);
    }
    expect(c.get('candidate.volume')!.value).toBe(metrics[0]!.volume);
    expect(c.get('reference.surfaceArea')!.value).toBe(metrics[1]!.surfaceArea);
    // The verdict: the demo scan strays up to 0.44 from the part, more than the 0.1 tolerance.
    expect(forward.withinTolerance!).toBeLessThan(1);
    expect(r.verdict).toBe('FAIL');
    expect(c.get('verdict')!.text).toBe('FAIL');
    expect(r.withinTolerance).toEqual({ fromToTo: forward.withinTolerance, toToFrom: backward.withinTolerance });

    // The bodies: file names, and SHA-256 of the very bytes that were loaded.
    for (const [role, file] of [
      ['candidate', 'scan.stl'],
      ['reference', 'part.brep'],
    ] as const) {
      const sha = createHash('sha256').update(readFileSync(DEMO(file))).digest('hex');
      expect(c.get(`${role}.sha256`)!.text).toBe(sha);
      expect(doc.querySelector(`tr[data-role="${role}"]`)!.text).toContain(file);
    }
    expect(r.sha256.from).toBe(c.get('candidate.sha256')!.text);

    // The sections carry deviation whiskers at the report's tolerance, with the magnification the tool chose on its own.
    const cut = await run<CrossSectionResult>('cross_section_compare', { fromBodyId: 'scan', referenceBodyId: 'part', axis: [0, 0, 1], stations: 2, tolerance: 0.1, outputDir: join(dir, 'sections') });
    expect(cut.whiskers).toMatchObject({ tolerance: 0.1, unit: 'model units' });
    const whiskers = doc.querySelector('[data-testid="sections.whiskers"]')!.text;
    expect(whiskers).toContain(`deviation \u00d7 ${cut.whiskers!.scale} `);
    expect(whiskers).toContain('grey within \u00b1' + (0.1).toFixed(decimals) + ' model units');
    for (const s of cut.sections) expectCell(`sections.${s.station}.signedMean`, s.signedMean);

    // The data block holds the tool results as they came.
    const data = JSON.parse(doc.getElementById(REPORT_DATA_ID)!.text) as { measure_deviation: DeviationResult; deviation_labels: unknown; settings: { maxSamples: number } };
    expect(data.measure_deviation).toEqual(JSON.parse(JSON.stringify(deviation)));
    expect(data.deviation_labels).toEqual(JSON.parse(JSON.stringify(labels.labels)));
    expect(data.settings.maxSamples).toBe(5000);
  });

  it('PASSes an offset sphere within tolerance and FAILs it outside, and reports no verdict without a tolerance', async () => {
    const base = { fromBodyId: 'proud', referenceBodyId: 'ref', deflection: 0.05, views: ['front'], maxSamples: 2000, labels: false };
    const pass = await run<InspectionReportResult>('inspection_report', { ...base, tolerance: 0.11, outputPath: join(dir, 'pass.html') });
    const fail = await run<InspectionReportResult>('inspection_report', { ...base, tolerance: 0.09, outputPath: join(dir, 'fail.html') });
    const none = await run<InspectionReportResult>('inspection_report', { ...base, outputPath: join(dir, 'none.html') });
    expect([pass.verdict, fail.verdict, none.verdict]).toEqual(['PASS', 'FAIL', null]);
    expect(pass.withinTolerance).toEqual({ fromToTo: 1, toToFrom: 1 });
    expect(fail.withinTolerance).toEqual({ fromToTo: 0, toToFrom: 0 });
    expect(none.withinTolerance).toBeNull();
    const doc = parse(readFileSync(join(dir, 'pass.html'), 'utf8'));
    expect(doc.querySelectorAll('img')).toHaveLength(2);
    expect(doc.querySelectorAll('[data-label]')).toHaveLength(0);
    // A built body has no file: no hash.
    expect(pass.sha256).toEqual({ from: null, reference: null });
  });

  it("states each body's placement: as read, or the motion that placed it and what set it", async () => {
    const base = { fromBodyId: 'proud', referenceBodyId: 'ref', deflection: 0.05, views: ['front'], maxSamples: 500, labels: false };
    const placementOf = (file: string) => cells(parse(readFileSync(join(dir, file), 'utf8')));
    await run('inspection_report', { ...base, outputPath: join(dir, 'as-read.html') });
    expect(placementOf('as-read.html').get('candidate.placement')!.text).toBe('as read from its file (no alignment applied)');
    // A quarter turn about z and a shift of (3, 4, 0): 90 degrees, 5 model units.
    await run('set_placement', { bodyId: 'proud', transform: [[0, -1, 0, 3], [1, 0, 0, 4], [0, 0, 1, 0], [0, 0, 0, 1]] });
    try {
      await run('inspection_report', { ...base, outputPath: join(dir, 'placed.html') });
      const c = placementOf('placed.html');
      expect(c.get('candidate.placement')!.text).toBe('placed by set_placement: rotated 90.00°, moved 5.000 (model units)');
      expect(c.get('reference.placement')!.text).toBe('as read from its file (no alignment applied)');
      // The same motion applied as an app applies a previewed alignment: its figures go with it.
      await run('set_placement', { bodyId: 'proud', transform: [[0, -1, 0, 3], [1, 0, 0, 4], [0, 0, 1, 0], [0, 0, 0, 1]], alignment: { fixedBodyId: 'ref', method: 'bestFit', rmsBefore: 2.5, rmsAfter: 0.1, converged: true } });
      await run('inspection_report', { ...base, outputPath: join(dir, 'aligned.html') });
      expect(placementOf('aligned.html').get('candidate.placement')!.text).toMatch(/^aligned to ref .*RMS 2\.5.* 0\.1/);
      await expect(run('set_placement', { bodyId: 'proud', alignment: { fixedBodyId: 'ref', method: 'bestFit', rmsBefore: 1, rmsAfter: 0.1, converged: true } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    } finally {
      await run('set_placement', { bodyId: 'proud' });
    }
  });

  it('under inspection roles: every signed figure reads actual minus nominal, the screen\'s card, the title block escaped, colours never narrower than the band', async () => {
    const outputPath = join(dir, 'roles.html');
    const operator = 'A. <script>alert("x")</script> & "B"';
    const settings = { tolerance: 0.5, signMode: 'robust', maxSamples: 3000 };
    const r = await run<InspectionReportResult>('inspection_report', {
      actualBodyId: 'scan',
      nominalBodyId: 'part',
      outputPath,
      ...settings,
      views: ['top'],
      labels: false,
      titleBlock: { part: 'Bracket <7>', revision: 'C', serial: 'SN-0042', operator, date: '2026-11-27' },
    });
    expect(r.passShare).toBe(0.99);
    const html = readFileSync(outputPath, 'utf8');
    const doc = parse(html);
    // The template escapes every field: no element but the data block's script, the text as typed.
    expect(doc.querySelectorAll('script')).toHaveLength(1);
    expect(html).not.toContain('<script>alert');
    const c = cells(doc);
    expect(c.get('titleBlock.operator')!.text).toBe(operator);
    expect(c.get('titleBlock.part')!.text).toBe('Bracket <7>');
    expect(doc.querySelector('h1')!.text).toBe('Inspection report: Bracket <7> against part');

    const common = { signMode: 'robust', maxSamples: 3000 };
    const deviation = await run<DeviationResult>('measure_deviation', { fromBodyId: 'scan', toBodyId: 'part', ...common });
    const forward = await run<HistogramResult>('deviation_histogram', { fromBodyId: 'scan', referenceBodyId: 'part', tolerance: 0.5, ...common });
    // The actual's direction as it comes; the coverage direction (the part against the scan) negated.
    expect(c.get('fromToTo.signedMean')!.value).toBe(deviation.fromToTo.signedMean);
    expect(c.get('toToFrom.signedMean')!.value).toBe(-deviation.toToFrom.signedMean!);
    expect(c.get('toToFrom.signedMin')!.value).toBe(-deviation.toToFrom.signedMax!);
    expect(c.get('toToFrom.signedMax')!.value).toBe(-deviation.toToFrom.signedMin!);
    // The screen's stats card: deviation_histogram at the same tolerance and samples.
    expect(c.get('summary.mean')!.value).toBe(forward.mean);
    expect(c.get('summary.p95')!.value).toBe(forward.p95);
    expect(c.get('summary.withinTolerance')!.value).toBe(forward.withinTolerance);
    // The text the stats card prints (issue 29: the same function, so the same digits): 4 significant digits.
    // Max |d|: the samples' or the heat map's worst covered vertex's, the larger (the screen's worstPoint.ts).
    const heat = await run<HeatmapResult>('deviation_heatmap', { fromBodyId: 'scan', toBodyId: 'part', ...common });
    const maxAbs = Math.max(forward.maxAbs, heat.worstVertex!.distance);
    expect(c.get('summary.maxAbs')!.value).toBe(maxAbs);
    for (const [field, v, sign] of [['summary.mean', forward.mean!, true], ['summary.std', forward.std!, false], ['summary.p95', forward.p95, false], ['summary.maxAbs', maxAbs, false]] as const) {
      const text = c.get(field)!.text;
      expect(text, field).toBe(figureText(v, sign));
      expect(Number(text.replace('\u2212', '-').replace(/,/g, '')), field).toBe(Number(v.toPrecision(4)));
    }
    expect(c.get('summary.withinTolerance')!.text).toBe(shareText(forward.withinTolerance!));
    expect(c.get('summary.noDataShare')!.value).toBe(forward.noDataSamples / (forward.samples + forward.noDataSamples));
    expect(c.get('passShare')!.value).toBe(0.99);
    expect(r.verdict).toBe(forward.withinTolerance! >= 0.99 ? 'PASS' : 'FAIL');
    expect(c.get('verdictRule')!.text).toBe("PASS when at least 99.00 % of the actual's samples lie within ±0.5 model units of the nominal");
    // The demo's 99th percentile is well under 1: the colours span twice the tolerance, not less than the band.
    const data = JSON.parse(doc.getElementById(REPORT_DATA_ID)!.text) as { settings: { colorRange: number; colorBand: number }; roles: boolean };
    expect(data.roles).toBe(true);
    expect(data.settings).toMatchObject({ colorRange: 1, colorBand: 0.5 });
    expect(doc.querySelector('tr[data-role="candidate"]')!.text).toContain('actual');
  });

  it('a callout on the heat map says a verdict read within its uncertainty of a limit is not proven', () => {
    const row = (id: string, pass: boolean | null, near?: true) => ({ id, pass, anchor: [0, 0, 0], ...(near ? { withinUncertainty: near } : {}) }) as unknown as Characteristic;
    const texts = characteristicCallouts([row('a', false, true), row('b', true), row('c', true, true), row('d', null)], 1).map((c) => c.text);
    expect(texts).toEqual(['a\nFAIL (not proven)', 'b\nPASS', 'c\nPASS (not proven)', 'd\nnot evaluated']);
  });

  it('lengths in the declared unit: a mesh without one takes its nominal\'s, with a note; model units when none declares one', () => {
    const body = (name: string, unit?: 'mm') => ({ name, lengthUnit: unit ? { unit, declared: unit } : undefined }) as unknown as Body;
    expect(reportUnit(body('scan'), body('part', 'mm'))).toEqual({ length: 'mm', note: 'scan declares no unit and is read in mm' });
    expect(reportUnit(body('a', 'mm'), body('b', 'mm'))).toEqual({ length: 'mm', note: null });
    expect(reportUnit(body('scan'), body('part'))).toEqual({ length: 'model units', note: null });
  });

  it('characteristics: evaluate_gdt\'s table of the NIST CTC 1 PMI, every row its result (ids, actuals, verdicts), in the report\'s JSON too', async () => {
    await run('import_file', { path: dataPath('nist/nist_ctc_01_asme1_ap242-e1.stp'), bodyId: 'ctc1' });
    await run('import_file', { path: dataPath('nist/nist_ctc_01_asme1_ap242-e1.stp'), bodyId: 'ctc1scan' });
    const ids = ['tolerance[0]', 'tolerance[5]', 'dimension[3]'];
    const outputPath = join(dir, 'gdt.html');
    const r = await run<InspectionReportResult>('inspection_report', { actualBodyId: 'ctc1scan', nominalBodyId: 'ctc1', outputPath, tolerance: 0.1, views: ['iso'], labels: false, maxSamples: 2000, characteristics: ids });
    type Row = { id: string; kind: string; actual: number | null; pass: boolean | null; uncertainty?: number; withinUncertainty?: true };
    const direct = await run<{ characteristics: Row[] }>('evaluate_gdt', { actualBodyId: 'ctc1scan', nominalBodyId: 'ctc1', characteristics: ids });
    expect(direct.characteristics.map((c) => c.id)).toEqual(ids);
    const doc = parse(readFileSync(outputPath, 'utf8'));
    const rows = doc.querySelectorAll('tr[data-characteristic]');
    expect(rows.map((tr) => tr.getAttribute('data-characteristic'))).toEqual(ids);
    const c = cells(doc);
    for (const d of direct.characteristics) {
      expect(c.get(`characteristics.${d.id}.actual`)!.value).toBe(d.actual);
      const verdict = rows.find((tr) => tr.getAttribute('data-characteristic') === d.id)!.querySelector('.verdict')!.text;
      expect(verdict).toBe(d.pass === null ? 'not evaluated' : d.pass ? 'PASS' : 'FAIL');
      // A verdict read within its uncertainty of a limit says so beside it, with the reading and its uncertainty.
      const note = c.get(`characteristics.${d.id}.notProven`);
      if (d.withinUncertainty) expect(note!.text).toMatch(/^not proven: read [\d.]+ ± [\d.e-]+, within its uncertainty of a limit$/);
      else expect(note).toBeUndefined();
    }
    // The 35 +0/-0.2 bore read on the nominal's own surfaces: at its upper limit, which no reading proves it under or over.
    expect(direct.characteristics[2]).toMatchObject({ id: 'dimension[3]', withinUncertainty: true });
    const count = (p: boolean | null) => direct.characteristics.filter((x) => x.pass === p).length;
    expect(r.characteristics).toEqual({ pass: count(true), fail: count(false), notEvaluated: count(null), notProven: direct.characteristics.filter((x) => x.withinUncertainty).length });
    expect(c.get('characteristics.pass')!.text).toBe(String(count(true)));
    // The flatness of A on the nominal's own surface: 0 and PASS.
    expect(direct.characteristics[1]).toMatchObject({ kind: 'flatness', pass: true });
    expect(direct.characteristics[1]!.actual!).toBeLessThan(1e-9);
    const json = JSON.parse(doc.getElementById(REPORT_DATA_ID)!.text) as { evaluate_gdt: { characteristics: Row[] }; signed_deviation_heatmap: { images: { labels: { number: number; status: string }[] }[] } };
    expect(json.evaluate_gdt.characteristics.map((x) => [x.id, x.actual, x.pass])).toEqual(direct.characteristics.map((x) => [x.id, x.actual, x.pass]));
    // Callouts on the heat map: one per characteristic at its faces (no deviation labels asked: numbered
    // from 1), the number in the table's # column; the iso view sees the top face's flatness callout.
    ids.forEach((id, i) => expect(c.get(`characteristics.${id}.callout`)!.value).toBe(i + 1));
    const placed = json.signed_deviation_heatmap.images[0]!.labels;
    expect(placed.map((l) => l.number)).toEqual([1, 2, 3]);
    for (const l of placed) expect(['visible', 'occluded']).toContain(l.status);
    // A report not asked for them has no such section.
    const plain = join(dir, 'plain.html');
    await run('inspection_report', { fromBodyId: 'proud', referenceBodyId: 'ref', outputPath: plain, views: ['iso'], labels: false, maxSamples: 2000 });
    expect(parse(readFileSync(plain, 'utf8')).querySelectorAll('tr[data-characteristic]')).toHaveLength(0);
  }, 240_000);

  it('refuses bad arguments with stable codes and writes nothing', async () => {
    const base = { fromBodyId: 'proud', referenceBodyId: 'ref', outputPath: join(dir, 'bad.html') };
    for (const bad of [{ tolerance: -1 }, { passShare: 0 }, { views: [] }, { sections: { axis: [0, 0, 0] } }, { outputPath: '' }, { actualBodyId: 'proud', nominalBodyId: 'ref' }, { referenceBodyId: undefined }, { titleBlock: { part: 'x'.repeat(201) } }, { characteristics: [] }, { characteristics: false }]) {
      await expect(run('inspection_report', { ...base, ...bad }), JSON.stringify(bad)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
    await expect(run('inspection_report', { ...base, fromBodyId: 'nope' })).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
    expect(() => readFileSync(join(dir, 'bad.html'))).toThrow();
  });
});
