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
import { makeSphere } from '../../test/kernelShapes';
import type { DeviationLabelsResult } from './deviationLabels';
import type { HistogramResult } from './deviationHistogram';
import type { InspectionReportResult } from './inspectionReport';
import type { DeviationResult } from './measureDeviation';
import { REPORT_DATA_ID } from './reportHtml';

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
      if (want !== null && !/amples$|Fraction$|withinTolerance$/.test(field)) expect(cell!.text.replace('\u2212', '-'), field).toBe(want.toFixed(decimals));
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
    } finally {
      await run('set_placement', { bodyId: 'proud' });
    }
  });

  it('refuses bad arguments with stable codes and writes nothing', async () => {
    const base = { fromBodyId: 'proud', referenceBodyId: 'ref', outputPath: join(dir, 'bad.html') };
    for (const bad of [{ tolerance: -1 }, { passShare: 0 }, { views: [] }, { sections: { axis: [0, 0, 0] } }, { outputPath: '' }]) {
      await expect(run('inspection_report', { ...base, ...bad }), JSON.stringify(bad)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
    await expect(run('inspection_report', { ...base, fromBodyId: 'nope' })).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
    expect(() => readFileSync(join(dir, 'bad.html'))).toThrow();
  });
});
