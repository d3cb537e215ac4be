import type { SignMode } from '../mesh/signedDeviation';
import { inBodiesWords, type ToolWarning } from '../warnings';
import type { CalloutStatus } from '../render/callouts';
import { decimalsFor } from '../render/format';
import { figureText, maxDeviation, shareText } from './figures';
import type { MetricsResult } from '../tools/computeMetrics';
import type { CrossSectionResult } from '../tools/crossSectionCompare';
import type { HeatmapData } from '../tools/deviationHeatmap';
import type { HistogramResult } from '../tools/deviationHistogram';
import type { DeviationLabel } from '../tools/deviationLabels';
import type { SurfaceMode } from '../deviation/defaults';
import type { DirectedRecord } from '../deviation/record';
import type { DeviationResult } from '../tools/measureDeviation';
import type { Characteristic } from '../gdt/evaluate';
import type { SignedHeatmapResult } from '../tools/signedDeviationHeatmap';
import { html, raw, type Html } from '../render/html';

export interface TitleBlock {
  part?: string | undefined;
  revision?: string | undefined;
  serial?: string | undefined;
  operator?: string | undefined;
  date?: string | undefined;
}

/** Everything the report shows, each part the result of the tool it is named after. */
export interface ReportData {
  title: string;
  /** Inspection roles (issue 29.1): the candidate is the actual, the reference the nominal; the reverse direction's signs are shown as actual minus nominal. */
  roles: boolean;
  /** The title block a customer reads first; date defaults to the day the report was made. */
  titleBlock: TitleBlock;
  /** The unit of every length: the bodies' declared unit (a mesh without one takes its nominal's, with a note), else "model units". */
  unit: { length: string; note: string | null };
  version: string;
  generatedAt: string;
  verdict: 'PASS' | 'FAIL' | null;
  bodies: {
    role: 'candidate' | 'reference';
    bodyId: string;
    name: string;
    file: string | null;
    format: string;
    sha256: string | null;
    fileBytes: number | null;
    kind: string;
    /** The unit the file declared (null: none). */
    lengthUnit: string | null;
    /** Where the body stood when measured: null as read from its file, else how it was placed (an alignment with its RMS). */
    placement: string | null;
  }[];
  settings: {
    signMode: SignMode;
    surface: SurfaceMode;
    deflection: number;
    maxSamples: number;
    tolerance: number | null;
    passShare: number;
    /** The search distance beyond which a sample has no counterpart (no data). */
    maxDistance: number;
    colorRange: number;
    colorBand: number;
  };
  deviation: DeviationResult;
  histograms: { fromToTo: HistogramResult; toToFrom: HistogramResult };
  /** The candidate's heat-map vertex farthest from the reference (deviation_heatmap's worstVertex): with the samples' max, the summary's Max |d|, as the screen's. */
  worstVertex: HeatmapData['worstVertex'];
  histogramPng: Uint8Array | null;
  heatmap: {
    summary: Omit<SignedHeatmapResult, 'outputPath' | 'images' | 'mimeType'>;
    images: { view: string; png: Uint8Array; width: number; height: number; labels: { number: number; status: CalloutStatus }[] }[];
  };
  labels: DeviationLabel[];
  sections: CrossSectionResult | null;
  sectionImages: (Uint8Array | null)[];
  /** evaluate_gdt's result when the report was asked for characteristics (else null). */
  characteristics: { characteristics: Characteristic[]; warnings: ToolWarning[]; callouts?: Record<string, number> } | null;
  metrics: MetricsResult[];
}

/** The id of the script element holding the report's data as JSON (images left out). */
export const REPORT_DATA_ID = 'brepscope-report-data';

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
const pngSrc = (png: Uint8Array) => `data:image/png;base64,${base64(png)}`;
const EMPTY = '\u2014';

/**
 * A number cell: the shown text rounded to `decimals`, the full value in data-value and the result
 * field it came from in data-field (the test reads both back; a reader can copy exact values).
 */
function numberCell(field: string, v: number | null | undefined, decimals: number, suffix = ''): Html {
  if (v === null || v === undefined || !Number.isFinite(v)) return html`<td class="num" data-field="${field}" data-value="">${EMPTY}</td>`;
  return html`<td class="num" data-field="${field}" data-value="${String(v)}">${v.toFixed(decimals).replace(/^-/, '\u2212')}${suffix}</td>`;
}
const percentText = shareText;
const percentCell = (field: string, v: number | null | undefined): Html =>
  v === null || v === undefined ? html`<td class="num" data-field="${field}" data-value="">${EMPTY}</td>` : html`<td class="num" data-field="${field}" data-value="${String(v)}">${percentText(v)}</td>`;
const countCell = (field: string, v: number, suffix = ''): Html => html`<td class="num" data-field="${field}" data-value="${String(v)}">${v.toLocaleString('en-US')}${suffix}</td>`;
const textCell = (s: string | null): Html => html`<td>${s ?? EMPTY}</td>`;
const pointText = (p: readonly number[] | null, d: number) => (p ? `(${p.map((c) => c.toFixed(d)).join(', ')})` : EMPTY);
const neg = (v: number | null): number | null => (v === null ? null : v === 0 ? 0 : -v);

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;margin:24px auto;max-width:1100px;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ccc;padding-bottom:3px}
.meta{color:#555;font-size:12px}
table{border-collapse:collapse;margin:6px 0;font-size:13px}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f2efe6}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:11px;word-break:break-all}
.verdict{display:inline-block;font-weight:700;padding:2px 10px;border-radius:4px;color:#fff;-webkit-print-color-adjust:exact;print-color-adjust:exact}
th{-webkit-print-color-adjust:exact;print-color-adjust:exact}
.PASS{background:#1a7f37}.FAIL{background:#b2182b}.none{background:#777}
.title-block{width:100%}.title-block th{width:14%}.title-block td{width:36%}
.summary{display:grid;grid-template-columns:repeat(4,1fr);gap:6px;margin:8px 0}.summary div{border:1px solid #ccc;padding:4px 8px}.summary dt{font-size:11px;color:#555}.summary dd{margin:0;font-size:16px;font-variant-numeric:tabular-nums}
figure{margin:10px 0;break-inside:avoid;page-break-inside:avoid}figcaption{font-size:12px;color:#555}
img{max-width:100%;height:auto;border:1px solid #ddd}
.views{display:grid;grid-template-columns:repeat(auto-fill,minmax(460px,1fr));gap:10px}
section{break-inside:avoid-page}
@media print{body{margin:0;max-width:none}h2{break-after:avoid}.views{grid-template-columns:1fr 1fr}}
@page{size:A4;margin:14mm}
`;

/** Words for the two bodies and directions: actual and nominal under inspection roles, else candidate and reference. */
function words(data: ReportData) {
  return data.roles
    ? { candidate: 'actual', reference: 'nominal', forward: 'actual \u2192 nominal', backward: 'nominal \u2192 actual (coverage)' }
    : { candidate: 'candidate', reference: 'reference', forward: 'candidate \u2192 reference', backward: 'reference \u2192 candidate' };
}

/** One self-contained HTML document: no external resource, no script that runs; every field escaped by the template. */
export function reportHtml(data: ReportData): string {
  const { deviation, settings } = data;
  const ref = Math.max(deviation.fromToTo.max, deviation.toToFrom.max, settings.tolerance ?? 0);
  const d = Math.max(3, decimalsFor(ref) + 1, settings.tolerance ? decimalsFor(settings.tolerance) + 1 : 0);
  const w = words(data);
  const unit = data.unit.length;
  const tol = settings.tolerance;
  const rule =
    tol === null
      ? null
      : `PASS when at least ${percentText(settings.passShare)} of the ${w.candidate}'s samples lie within \u00b1${tol} ${unit} of the ${w.reference}`;
  const s = data.heatmap.summary;
  const h = data.histograms.fromToTo;
  const doc = html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="generator" content="brepscope ${data.version}">
<title>${data.title}</title><style>${raw(CSS)}</style></head>
<body>
<header><h1>${data.title}</h1>
${titleBlockTable(data)}
<p>Verdict: <span class="verdict ${data.verdict ?? 'none'}" data-field="verdict">${data.verdict ?? 'no tolerance given'}</span>${rule ? html` \u2014 <span data-field="verdictRule">${rule}</span>` : ''}</p>
<p class="meta">brepscope <span data-field="version">${data.version}</span> \u00b7 generated <span data-field="generatedAt">${data.generatedAt}</span> \u00b7 lengths in <span data-field="unit">${unit}</span>${data.unit.note ? ` (${data.unit.note})` : ''}${data.roles ? ' \u00b7 deviation = actual \u2212 nominal: + material outside the nominal, \u2212 inside' : ''}</p></header>
${summaryCard(data, d)}
${bodiesTable(data)}
${settingsTable(data, d)}
${statisticsTable(data, d)}
<section><h2>Heat maps (${w.candidate} coloured)</h2><div class="views">
${data.heatmap.images.map((img) => {
  return html`<figure><img src="${pngSrc(img.png)}" width="${img.width}" height="${img.height}" alt="Heat map, ${img.view} view"><figcaption data-field="heatmap.${img.view}.caption">${img.view} view${hiddenLabels(img.labels)}</figcaption></figure>`;
})}
</div>
<p class="meta">${s.vertices.toLocaleString('en-US')} display vertices coloured, ${s.ambiguousVertices.toLocaleString('en-US')} without a trustworthy sign (grey); colours over \u00b1${s.clamp.toFixed(d)} ${unit}, neutral within \u00b1${s.tolerance.toFixed(d)}.</p></section>
${data.labels.length ? labelsTable(data.labels, d, w.candidate) : ''}
<section><h2>Histogram (${w.forward}, signed)</h2>
${data.histogramPng ? html`<figure><img src="${pngSrc(data.histogramPng)}" alt="Histogram of the signed deviation"></figure>` : html`<p>${h.warnings.map((w) => w.message).join('; ') || 'no histogram'}</p>`}
<table><tr><th>mean</th><th>std</th><th>median</th><th>signed samples</th></tr><tr>${numberCell('histogram.mean', h.mean, d)}${numberCell('histogram.std', h.std, d)}${numberCell('histogram.median', h.median, d)}${countCell('histogram.signedSamples', h.signedSamples)}</tr></table></section>
${data.sections ? sectionsPart(data.sections, data.sectionImages, d, data.unit.length) : ''}
${data.characteristics ? characteristicsTable(data.characteristics.characteristics, w.candidate, w.reference, data.characteristics.callouts ?? {}) : ''}
${metricsPart(data)}
<script type="application/json" id="${REPORT_DATA_ID}">${raw(JSON.stringify(jsonData(data)).replace(/</g, '\\u003c'))}</script>
</body></html>
`;
  return doc.text;
}

const TITLE_FIELDS: [keyof TitleBlock, string][] = [
  ['part', 'Part'],
  ['revision', 'Revision'],
  ['serial', 'Serial'],
  ['operator', 'Operator'],
  ['date', 'Date'],
];

function titleBlockTable(data: ReportData): Html {
  const b = data.bodies;
  const cells = TITLE_FIELDS.map(([k, label]) => html`<th>${label}</th><td data-field="titleBlock.${k}">${data.titleBlock[k] ?? EMPTY}</td>`);
  return html`<table class="title-block">
<tr>${cells[0]}${cells[1]}</tr><tr>${cells[2]}${cells[3]}</tr><tr>${cells[4]}<th>${words(data).reference} / ${words(data).candidate}</th><td>${b[1]!.name} / ${b[0]!.name}</td></tr>
</table>`;
}

/** The screen's stats card, figure for figure (deviation_histogram at the report's tolerance and samples). */
function summaryCard(data: ReportData, d: number): Html {
  const h = data.histograms.fromToTo;
  const unit = data.unit.length;
  const item = (label: string, field: string, value: number | null, text: string) =>
    html`<div><dt>${label}</dt><dd data-field="${field}" data-value="${value === null ? '' : String(value)}">${text}</dd></div>`;
  // The stats card's own text (figureText, shareText), so the report reads what the screen read.
  const num = (v: number | null, signed = false) => (v === null ? EMPTY : figureText(v, signed));
  const noDataShare = h.noDataSamples / Math.max(1, h.samples + h.noDataSamples);
  const maxAbs = maxDeviation(h.maxAbs, data.worstVertex);
  return html`<section><h2>Result (${words(data).forward}, ${unit})</h2><dl class="summary">
${item('Signed mean', 'summary.mean', h.mean, num(h.mean, true))}
${item('Sigma', 'summary.std', h.std, num(h.std))}
${item('p95 |d|', 'summary.p95', h.p95, num(h.p95))}
${item('Max |d|', 'summary.maxAbs', maxAbs, num(maxAbs))}
${item(`Within \u00b1${data.settings.tolerance ?? EMPTY}`, 'summary.withinTolerance', h.withinTolerance ?? null, h.withinTolerance === undefined ? EMPTY : percentText(h.withinTolerance))}
${item('Ambiguous', 'summary.ambiguousFraction', h.ambiguousFraction, percentText(h.ambiguousFraction))}
${item('No data', 'summary.noDataShare', noDataShare, `${percentText(noDataShare)} (${h.noDataSamples.toLocaleString('en-US')})`)}
${item('Samples', 'summary.samples', h.samples, h.samples.toLocaleString('en-US'))}
</dl><p class="meta">No data: samples with no counterpart within ${h.maxDistance.toFixed(d)} ${unit} (beyond the other body's open boundary); they count in no figure. Max |d|: the farthest of the samples and of the heat map's vertices (a scan's own points), ${maxAbs > h.maxAbs ? `here a vertex, at ${pointText(data.worstVertex!.point, d)}` : 'here a sample'}.</p></section>`;
}

/**
 * The labels a view does not show, by number ("label 8 (occluded) hidden in this view"): "labels not
 * visible here: 8 occluded" was read as eight labels hidden when labels 1 to 7 were in the picture.
 */
export function hiddenLabels(labels: readonly { number: number; status: CalloutStatus }[]): string {
  const hidden = labels.filter((l) => l.status !== 'visible');
  if (hidden.length === 0) return '';
  const list = hidden.map((l) => `${l.number} (${l.status})`).join(', ');
  return ` \u00b7 ${hidden.length === 1 ? 'label' : 'labels'} ${list} hidden in this view`;
}

function bodiesTable(data: ReportData): Html {
  const w = words(data);
  return html`<section><h2>Bodies</h2><table><tr><th>role</th><th>body</th><th>file</th><th>format</th><th>unit</th><th>size</th><th>SHA-256 of the file</th><th>placement (alignment)</th></tr>
${data.bodies.map(
  (b) => html`<tr data-role="${b.role}"><td>${b.role === 'candidate' ? w.candidate : w.reference}</td>${textCell(`${b.bodyId} (${b.name})`)}${textCell(b.file)}${textCell(b.format)}${textCell(b.lengthUnit ?? (data.unit.length === 'model units' ? 'none' : `none (read in ${data.unit.length})`))}${b.fileBytes === null ? html`<td>${EMPTY}</td>` : countCell(`${b.role}.fileBytes`, b.fileBytes, ' bytes')}<td class="mono" data-field="${b.role}.sha256">${b.sha256 ?? 'not from a file'}</td><td data-field="${b.role}.placement">${b.placement ?? 'as read from its file (no alignment applied)'}</td></tr>`,
)}
</table></section>`;
}

function settingsTable(data: ReportData, d: number): Html {
  const settings = data.settings;
  const unit = data.unit.length;
  return html`<section><h2>Settings</h2><table>
<tr><th>tolerance</th>${settings.tolerance === null ? html`<td data-field="tolerance" data-value="">none given</td>` : numberCell('tolerance', settings.tolerance, d, ` ${unit}`)}</tr>
<tr><th>verdict rule (required share within tolerance)</th>${percentCell('passShare', settings.passShare)}</tr>
<tr><th>sign mode</th><td data-field="signMode">${settings.signMode}</td></tr>
<tr><th>surfaces</th><td data-field="surface">${settings.surface === 'exact' ? 'exact (BREP faces)' : 'tessellated'}</td></tr>
<tr><th>deflection</th>${numberCell('deflection', settings.deflection, Math.max(d, decimalsFor(settings.deflection)), ` ${unit}`)}</tr>
<tr><th>samples per direction (at most)</th>${countCell('maxSamples', settings.maxSamples)}</tr>
<tr><th>no-data search distance</th>${numberCell('maxDistance', settings.maxDistance, d, ` ${unit}`)}</tr>
<tr><th>heat-map colour range / neutral band</th><td class="num">\u00b1${settings.colorRange.toFixed(d)} / \u00b1${settings.colorBand.toFixed(d)} ${unit}</td></tr>
</table></section>`;
}

function statisticsTable(data: ReportData, d: number): Html {
  const w = words(data);
  // Under roles the reverse direction (the nominal measured against the actual) reads actual minus nominal too.
  const flipBack = data.roles;
  const dirs: { key: 'fromToTo' | 'toToFrom'; label: string; flip: boolean }[] = [
    { key: 'fromToTo', label: w.forward, flip: false },
    { key: 'toToFrom', label: w.backward, flip: flipBack },
  ];
  const tol = data.settings.tolerance;
  const signedRow = (r: DirectedRecord, k: string, flip: boolean, field: 'signedMin' | 'signedMax' | 'signedMean'): Html => {
    if (!flip) return numberCell(`${k}.${field}`, r[field], d);
    const other = field === 'signedMin' ? r.signedMax : field === 'signedMax' ? r.signedMin : r.signedMean;
    return numberCell(`${k}.${field}`, neg(other), d);
  };
  const rows: [string, (r: DirectedRecord, key: string, flip: boolean) => Html][] = [
    ['samples', (r, k) => countCell(`${k}.samples`, r.samples)],
    ['signed samples', (r, k) => countCell(`${k}.signedSamples`, r.signedSamples)],
    ['ambiguous (no trustworthy sign)', (r, k) => percentCell(`${k}.ambiguousFraction`, r.ambiguousFraction)],
    ['max |deviation|', (r, k) => numberCell(`${k}.max`, r.max, d)],
    ['mean |deviation|', (r, k) => numberCell(`${k}.mean`, r.mean, d)],
    ['rms', (r, k) => numberCell(`${k}.rms`, r.rms, d)],
    ['p95 |deviation|', (r, k) => numberCell(`${k}.p95`, r.p95, d)],
    ['signed min (shy, material missing)', (r, k, f) => signedRow(r, k, f, 'signedMin')],
    ['signed max (proud, material added)', (r, k, f) => signedRow(r, k, f, 'signedMax')],
    ['signed mean', (r, k, f) => signedRow(r, k, f, 'signedMean')],
    ['worst point', (r) => html`<td class="num">${pointText(r.worstPoint, d)}</td>`],
  ];
  const verdicts = dirs.map((x) => ((data.histograms[x.key].withinTolerance ?? 0) >= data.settings.passShare ? 'PASS' : 'FAIL'));
  return html`<section><h2>Statistics (measure_deviation, ${data.unit.length})</h2><table><tr><th></th>${dirs.map((x) => html`<th>${x.label}</th>`)}</tr>
${rows.map(([name, cell]) => html`<tr><th>${name}</th>${dirs.map((x) => cell(data.deviation[x.key], x.key, x.flip))}</tr>`)}
${tol === null ? '' : html`<tr><th>within \u00b1${tol}</th>${dirs.map((x) => percentCell(`${x.key}.withinTolerance`, data.histograms[x.key].withinTolerance))}</tr>
<tr><th>verdict</th>${verdicts.map((v, i) => html`<td data-field="${dirs[i]!.key}.verdict"><span class="verdict ${v}">${v}</span>${i === 1 ? ' (for information)' : ''}</td>`)}</tr>`}
<tr><th>symmetric Hausdorff</th>${numberCell('symmetricHausdorff', data.deviation.symmetricHausdorff, d)}<td></td></tr></table>
<p class="meta">Magnitudes are distances to the nearest surface of the other body over every sample with a counterpart; signed figures use only samples with a trustworthy sign (+ proud, outside the ${w.reference}; \u2212 shy).${data.roles ? ' The coverage column measures the nominal against the actual; its signed figures are negated so they too read actual \u2212 nominal.' : ''} The verdict is the ${w.candidate}'s direction.</p>
${data.deviation.warnings?.length ? html`<p class="meta" data-field="deviation.warnings">Notes: ${data.deviation.warnings.map((x) => inBodiesWords(x.message)).join('; ')}.</p>` : ''}</section>`;
}

function labelsTable(labels: DeviationLabel[], d: number, candidate: string): Html {
  return html`<section><h2>Deviation labels</h2><table><tr><th>#</th><th>point on the ${candidate}</th><th>nearest point of the other body</th><th>signed</th><th>distance</th><th>verdict</th></tr>
${labels.map(
  (l) => html`<tr data-label="${l.number}"><td>${l.number}</td><td class="num">${pointText(l.point, d)}</td><td class="num">${pointText(l.referencePoint, d)}</td>${numberCell(`labels.${l.number}.signed`, l.signed, d)}${numberCell(`labels.${l.number}.distance`, l.distance, d)}<td><span class="verdict ${l.pass ? 'PASS' : 'FAIL'}">${l.pass ? 'PASS' : 'FAIL'}</span></td></tr>`,
)}
</table></section>`;
}

function sectionsPart(r: CrossSectionResult, images: (Uint8Array | null)[], d: number, unit: string): Html {
  const w = r.whiskers;
  return html`<section><h2>Sections (cross_section_compare, ${r.referenceMode}, ${unit})</h2>
${w ? html`<p class="meta" data-testid="sections.whiskers">Whiskers on the reference outline: deviation \u00d7 ${String(w.scale)} (drawn ${String(w.scale)} times its size), grey within \u00b1${w.tolerance.toFixed(d)} ${unit}, red proud, blue shy.</p>` : ''}
${r.warnings.length ? html`<p>${r.warnings.map((w) => w.message).join('; ')}</p>` : ''}
<table><tr><th>station</th><th>axis coordinate</th><th>signed mean</th><th>rms</th><th>max |signed|</th><th>area ratio</th></tr>
${r.sections.map(
  (s) =>
    html`<tr><td>${s.station}</td>${numberCell(`sections.${s.station}.axisCoord`, s.axisCoord, d)}${numberCell(`sections.${s.station}.signedMean`, s.signedMean, d)}${numberCell(`sections.${s.station}.rms`, s.rms, d)}${numberCell(`sections.${s.station}.maxAbs`, s.maxAbs, d)}${numberCell(`sections.${s.station}.areaRatio`, s.areaRatio, 4)}</tr>`,
)}
</table><div class="views">
${r.sections.map((s, i) => {
  const png = images[i];
  return png ? html`<figure><img src="${pngSrc(png)}" alt="Section ${s.station}"><figcaption>station ${s.station}</figcaption></figure>` : '';
})}
</div></section>`;
}

function metricsPart(data: ReportData): Html {
  const unit = data.unit.length;
  return html`<section><h2>Metrics of each body (compute_metrics, ${unit})</h2><table><tr><th></th><th>volume</th><th>surface area</th><th>bounding box min</th><th>bounding box max</th></tr>
${data.metrics.map((m, i) => {
  const role = data.bodies[i]!.role;
  const box = m.boundingBox;
  return html`<tr><th>${role === 'candidate' ? words(data).candidate : words(data).reference}</th>${numberCell(`${role}.volume`, m.volume, 3)}${numberCell(`${role}.surfaceArea`, m.surfaceArea, 3)}<td class="num">${pointText(box?.min ?? null, 3)}</td><td class="num">${pointText(box?.max ?? null, 3)}</td></tr>`;
})}
</table></section>`;
}

/** Words for evaluate_gdt's kinds (camelCase): surface profile, perpendicularity ... */
const kindWords = (kind: string) => kind.replace(/([A-Z])/g, ' $1').toLowerCase();

/** A figure of a characteristic: 4 significant digits, as the app's table shows it. */
const gdtNumber = (field: string, v: number | null): Html =>
  v === null || !Number.isFinite(v) ? html`<td class="num" data-field="${field}" data-value="">${EMPTY}</td>` : html`<td class="num" data-field="${field}" data-value="${String(v)}">${String(Number(v.toPrecision(4))).replace(/^-/, '\u2212')}</td>`;

function gdtTolerance(c: Characteristic): string {
  if (c.tolerance !== null) return `${Number(c.tolerance.toPrecision(4))}${c.bonus > 0 ? ` (bonus ${Number(c.bonus.toPrecision(4))})` : ''}`;
  if (c.upper === null || c.lower === null) return EMPTY;
  return c.upper === -c.lower ? `\u00b1${Number(c.upper.toPrecision(4))}` : `+${Number(c.upper.toPrecision(4))} / ${Number(c.lower.toPrecision(4)).toString().replace(/^-/, '\u2212')}`;
}

/** evaluate_gdt's characteristics, one row each, in its order (docs/gdt.md). */
function characteristicsTable(rows: Characteristic[], candidate: string, reference: string, callouts: Record<string, number>): Html {
  const count = (p: boolean | null) => rows.filter((c) => c.pass === p).length;
  return html`<section><h2>Characteristics (GD&amp;T)</h2>
<p>evaluate_gdt: each callout of the ${reference}'s PMI checked on the ${candidate} where it stands. <span data-field="characteristics.pass">${String(count(true))}</span> pass, <span data-field="characteristics.fail">${String(count(false))}</span> fail, <span data-field="characteristics.notEvaluated">${String(count(null))}</span> not evaluated${rows.some((c) => c.withinUncertainty) ? html` (<span data-field="characteristics.notProven">${String(rows.filter((c) => c.withinUncertainty).length)}</span> of the verdicts not proven: the reading lies within its uncertainty of a limit)` : ''}.${Object.keys(callouts).length ? ' On the heat maps each is labelled at its faces with its id and verdict (#: its callout number).' : ''}</p>
<table><tr><th>#</th><th>id</th><th>characteristic</th><th>datums</th><th>faces</th><th>samples</th><th>nominal</th><th>actual</th><th>tolerance</th><th>verdict</th></tr>
${rows.map(
  (c) => html`<tr data-characteristic="${c.id}">${callouts[c.id] === undefined ? html`<td class="num" data-field="characteristics.${c.id}.callout" data-value="">${EMPTY}</td>` : countCell(`characteristics.${c.id}.callout`, callouts[c.id]!)}<td>${c.id}</td><td>${kindWords(c.kind)}${c.composite ? ` (composite, ${c.composite} segment)` : ''}</td><td>${c.datums.join(' | ') || EMPTY}</td><td class="num">${String(c.faces.length)}</td>${countCell(`characteristics.${c.id}.samples`, c.samples)}${gdtNumber(`characteristics.${c.id}.nominal`, c.nominal)}${gdtNumber(`characteristics.${c.id}.actual`, c.actual)}<td class="num">${gdtTolerance(c)}</td><td>${c.pass === null ? html`<span class="verdict none">not evaluated</span> ${c.reason ?? ''}` : html`<span class="verdict ${c.pass ? 'PASS' : 'FAIL'}">${c.pass ? 'PASS' : 'FAIL'}</span>${c.withinUncertainty ? html` <span data-field="characteristics.${c.id}.notProven">not proven: read ${String(Number(c.actual!.toPrecision(6)))}${c.uncertainty === undefined ? '' : ` \u00b1 ${Number(c.uncertainty.toPrecision(2))}`}, within its uncertainty of a limit</span>` : ''}`}</td></tr>`,
)}
</table></section>`;
}

/** The report's data as JSON: the tool results as they came, images left out. */
function jsonData(data: ReportData): unknown {
  return {
    title: data.title,
    titleBlock: data.titleBlock,
    roles: data.roles,
    unit: data.unit,
    version: data.version,
    generatedAt: data.generatedAt,
    verdict: data.verdict,
    bodies: data.bodies,
    settings: data.settings,
    measure_deviation: data.deviation,
    deviation_histogram: { fromToTo: { ...data.histograms.fromToTo, imagePath: undefined }, toToFrom: data.histograms.toToFrom },
    signed_deviation_heatmap: { ...data.heatmap.summary, images: data.heatmap.images.map((i) => ({ view: i.view, width: i.width, height: i.height, labels: i.labels })) },
    deviation_labels: data.labels,
    cross_section_compare: data.sections ? { ...data.sections, sections: data.sections.sections.map((s) => ({ ...s, imagePath: null })) } : null,
    evaluate_gdt: data.characteristics,
    compute_metrics: data.metrics,
  };
}
