import type { SignMode } from '../mesh/signedDeviation';
import type { CalloutStatus } from '../render/callouts';
import { decimalsFor } from '../render/format';
import type { MetricsResult } from './computeMetrics';
import type { CrossSectionResult } from './crossSectionCompare';
import type { HistogramResult } from './deviationHistogram';
import type { DeviationLabel } from './deviationLabels';
import type { SurfaceMode } from '../deviation/defaults';
import type { DirectedRecord } from '../deviation/record';
import type { DeviationResult } from './measureDeviation';
import type { SignedHeatmapResult } from './signedDeviationHeatmap';

/** Everything the report shows, each part the result of the tool it is named after. */
export interface ReportData {
  title: string;
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
    colourRange: number;
    colourBand: number;
  };
  deviation: DeviationResult;
  histograms: { fromToTo: HistogramResult; toToFrom: HistogramResult };
  histogramPng: Uint8Array | null;
  heatmap: {
    summary: Omit<SignedHeatmapResult, 'outputPath' | 'images' | 'mimeType'>;
    images: { view: string; png: Uint8Array; width: number; height: number; labels: { number: number; status: CalloutStatus }[] }[];
  };
  labels: DeviationLabel[];
  sections: CrossSectionResult | null;
  sectionImages: (Uint8Array | null)[];
  metrics: MetricsResult[];
}

/** The id of the script element holding the report's data as JSON (images left out). */
export const REPORT_DATA_ID = 'brepscope-report-data';

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
const pngSrc = (png: Uint8Array) => `data:image/png;base64,${base64(png)}`;

/**
 * A number cell: the shown text rounded to `decimals`, the full value in data-value and the result
 * field it came from in data-field (the test reads both back; a reader can copy exact values).
 */
function numberCell(field: string, v: number | null | undefined, decimals: number, suffix = ''): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return `<td class="num" data-field="${field}" data-value="">\u2014</td>`;
  const text = v.toFixed(decimals).replace(/^-/, '\u2212');
  return `<td class="num" data-field="${field}" data-value="${v}">${text}${suffix}</td>`;
}
const percentCell = (field: string, v: number | null | undefined) =>
  v === null || v === undefined ? `<td class="num" data-field="${field}" data-value="">\u2014</td>` : `<td class="num" data-field="${field}" data-value="${v}">${(100 * v).toFixed(2)} %</td>`;
const countCell = (field: string, v: number) => `<td class="num" data-field="${field}" data-value="${v}">${v.toLocaleString('en-US')}</td>`;
const textCell = (s: string | null) => `<td>${s === null ? '\u2014' : escapeHtml(s)}</td>`;
const pointText = (p: readonly number[] | null, d: number) => (p ? `(${p.map((c) => c.toFixed(d)).join(', ')})` : '\u2014');

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
figure{margin:10px 0;break-inside:avoid;page-break-inside:avoid}figcaption{font-size:12px;color:#555}
img{max-width:100%;height:auto;border:1px solid #ddd}
.views{display:grid;grid-template-columns:repeat(auto-fill,minmax(460px,1fr));gap:10px}
section{break-inside:avoid-page}
@media print{body{margin:0;max-width:none}h2{break-after:avoid}.views{grid-template-columns:1fr 1fr}}
@page{size:A4;margin:14mm}
`;

/** One self-contained HTML document: no external resource, no script that runs. */
export function reportHtml(data: ReportData): string {
  const { deviation, settings } = data;
  const ref = Math.max(deviation.fromToTo.max, deviation.toToFrom.max, settings.tolerance ?? 0);
  const d = Math.max(3, decimalsFor(ref) + 1, settings.tolerance ? decimalsFor(settings.tolerance) + 1 : 0);
  const verdict = data.verdict ?? 'none';
  const parts: string[] = [];
  parts.push(
    `<header><h1>${escapeHtml(data.title)}</h1>`,
    `<p>Verdict: <span class="verdict ${verdict}" data-field="verdict">${data.verdict ?? 'no tolerance given'}</span>`,
    settings.tolerance === null
      ? ''
      : ` \u2014 ${(settings.passShare * 100).toFixed(settings.passShare === 1 ? 0 : 1)} % of the candidate's samples must lie within \u00b1${settings.tolerance} of the reference`,
    `</p><p class="meta">brepscope <span data-field="version">${escapeHtml(data.version)}</span> \u00b7 generated <span data-field="generatedAt">${escapeHtml(data.generatedAt)}</span> \u00b7 lengths in model units (the files' own units)</p></header>`,
  );

  parts.push('<section><h2>Bodies</h2><table><tr><th>role</th><th>body</th><th>file</th><th>format</th><th>size</th><th>SHA-256 of the file</th><th>placement</th></tr>');
  for (const b of data.bodies) {
    parts.push(
      `<tr data-role="${b.role}"><td>${b.role}</td>${textCell(`${b.bodyId} (${b.name})`)}${textCell(b.file)}${textCell(b.format)}`,
      b.fileBytes === null ? '<td>\u2014</td>' : countCell(`${b.role}.fileBytes`, b.fileBytes).replace('</td>', ' bytes</td>'),
      `<td class="mono" data-field="${b.role}.sha256">${b.sha256 ?? 'not from a file'}</td><td data-field="${b.role}.placement">${escapeHtml(b.placement ?? 'as read from its file (no alignment applied)')}</td></tr>`,
    );
  }
  parts.push('</table></section>');

  parts.push(
    '<section><h2>Settings</h2><table>',
    `<tr><th>sign mode</th><td data-field="signMode">${settings.signMode}</td></tr>`,
    `<tr><th>surfaces</th><td data-field="surface">${settings.surface === 'exact' ? 'exact (BREP faces)' : 'tessellated'}</td></tr>`,
    `<tr><th>deflection</th>${numberCell('deflection', settings.deflection, Math.max(d, decimalsFor(settings.deflection)))}</tr>`,
    `<tr><th>samples per direction (at most)</th>${countCell('maxSamples', settings.maxSamples)}</tr>`,
    `<tr><th>tolerance</th>${settings.tolerance === null ? '<td data-field="tolerance" data-value="">none given</td>' : numberCell('tolerance', settings.tolerance, d)}</tr>`,
    `<tr><th>heat-map colour range / neutral band</th><td class="num">\u00b1${settings.colourRange.toFixed(d)} / \u00b1${settings.colourBand.toFixed(d)}</td></tr>`,
    '</table></section>',
  );

  parts.push(statisticsTable(data, d));

  parts.push('<section><h2>Heat maps</h2><div class="views">');
  for (const img of data.heatmap.images) {
    const hidden = img.labels.filter((l) => l.status !== 'visible').map((l) => `${l.number} ${l.status}`);
    parts.push(
      `<figure><img src="${pngSrc(img.png)}" width="${img.width}" height="${img.height}" alt="Heat map, ${escapeHtml(img.view)} view">`,
      `<figcaption>${escapeHtml(img.view)} view${hidden.length ? ` \u00b7 labels not visible here: ${escapeHtml(hidden.join(', '))}` : ''}</figcaption></figure>`,
    );
  }
  parts.push('</div>');
  const s = data.heatmap.summary;
  parts.push(`<p class="meta">${s.vertices.toLocaleString('en-US')} display vertices coloured, ${s.ambiguousVertices.toLocaleString('en-US')} without a trustworthy sign (grey).</p></section>`);

  if (data.labels.length) parts.push(labelsTable(data.labels, d));

  const h = data.histograms.fromToTo;
  parts.push('<section><h2>Histogram (candidate to reference, signed)</h2>');
  if (data.histogramPng) parts.push(`<figure><img src="${pngSrc(data.histogramPng)}" alt="Histogram of the signed deviation"></figure>`);
  else parts.push(`<p>${escapeHtml(h.warnings.map((w) => w.message).join('; ') || 'no histogram')}</p>`);
  parts.push(
    `<table><tr><th>mean</th><th>std</th><th>median</th><th>signed samples</th></tr><tr>${numberCell('histogram.mean', h.mean, d)}${numberCell('histogram.std', h.std, d)}${numberCell('histogram.median', h.median, d)}${countCell('histogram.signedSamples', h.signedSamples)}</tr></table></section>`,
  );

  if (data.sections) parts.push(sectionsPart(data.sections, data.sectionImages, d));
  parts.push(metricsPart(data));

  const json = JSON.stringify(jsonData(data)).replace(/</g, '\\u003c');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="generator" content="brepscope ${escapeHtml(data.version)}">
<title>${escapeHtml(data.title)}</title><style>${CSS}</style></head>
<body>
${parts.join('\n')}
<script type="application/json" id="${REPORT_DATA_ID}">${json}</script>
</body></html>
`;
}

function statisticsTable(data: ReportData, d: number): string {
  const dirs: { key: 'fromToTo' | 'toToFrom'; label: string }[] = [
    { key: 'fromToTo', label: 'candidate \u2192 reference' },
    { key: 'toToFrom', label: 'reference \u2192 candidate' },
  ];
  const tol = data.settings.tolerance;
  const rows: [string, (r: DirectedRecord, key: string) => string][] = [
    ['samples', (r, k) => countCell(`${k}.samples`, r.samples)],
    ['signed samples', (r, k) => countCell(`${k}.signedSamples`, r.signedSamples)],
    ['ambiguous (no trustworthy sign)', (r, k) => percentCell(`${k}.ambiguousFraction`, r.ambiguousFraction)],
    ['max |deviation|', (r, k) => numberCell(`${k}.max`, r.max, d)],
    ['mean |deviation|', (r, k) => numberCell(`${k}.mean`, r.mean, d)],
    ['rms', (r, k) => numberCell(`${k}.rms`, r.rms, d)],
    ['p95 |deviation|', (r, k) => numberCell(`${k}.p95`, r.p95, d)],
    ['signed min (shy)', (r, k) => numberCell(`${k}.signedMin`, r.signedMin, d)],
    ['signed max (proud)', (r, k) => numberCell(`${k}.signedMax`, r.signedMax, d)],
    ['signed mean', (r, k) => numberCell(`${k}.signedMean`, r.signedMean, d)],
    ['worst point', (r) => `<td class="num">${pointText(r.worstPoint, d)}</td>`],
  ];
  const out = [`<section><h2>Statistics (measure_deviation)</h2><table><tr><th></th>${dirs.map((x) => `<th>${x.label}</th>`).join('')}</tr>`];
  for (const [name, cell] of rows) out.push(`<tr><th>${name}</th>${dirs.map((x) => cell(data.deviation[x.key], x.key)).join('')}</tr>`);
  if (tol !== null) {
    out.push(`<tr><th>within \u00b1${tol}</th>${dirs.map((x) => percentCell(`${x.key}.withinTolerance`, data.histograms[x.key].withinTolerance)).join('')}</tr>`);
    const verdicts = dirs.map((x) => ((data.histograms[x.key].withinTolerance ?? 0) >= data.settings.passShare ? 'PASS' : 'FAIL'));
    out.push(`<tr><th>verdict</th>${verdicts.map((v, i) => `<td data-field="${dirs[i]!.key}.verdict"><span class="verdict ${v}">${v}</span>${i === 1 ? ' (for information)' : ''}</td>`).join('')}</tr>`);
  }
  out.push(`<tr><th>symmetric Hausdorff</th>${numberCell('symmetricHausdorff', data.deviation.symmetricHausdorff, d)}<td></td></tr></table>`);
  out.push('<p class="meta">Magnitudes are distances to the nearest surface of the other body over every sample; signed figures use only samples with a trustworthy sign (+ proud, outside the reference; \u2212 shy). The verdict is the candidate\'s direction.</p></section>');
  return out.join('\n');
}

function labelsTable(labels: DeviationLabel[], d: number): string {
  const out = ['<section><h2>Deviation labels</h2><table><tr><th>#</th><th>point on the candidate</th><th>reference point</th><th>signed</th><th>distance</th><th>verdict</th></tr>'];
  for (const l of labels) {
    out.push(
      `<tr data-label="${l.number}"><td>${l.number}</td><td class="num">${pointText(l.point, d)}</td><td class="num">${pointText(l.referencePoint, d)}</td>`,
      `${numberCell(`labels.${l.number}.signed`, l.signed, d)}${numberCell(`labels.${l.number}.distance`, l.distance, d)}<td><span class="verdict ${l.pass ? 'PASS' : 'FAIL'}">${l.pass ? 'PASS' : 'FAIL'}</span></td></tr>`,
    );
  }
  out.push('</table></section>');
  return out.join('\n');
}

function sectionsPart(r: CrossSectionResult, images: (Uint8Array | null)[], d: number): string {
  const out = [`<section><h2>Sections (cross_section_compare, ${r.referenceMode})</h2>`];
  if (r.warnings.length) out.push(`<p>${escapeHtml(r.warnings.map((w) => w.message).join('; '))}</p>`);
  out.push('<table><tr><th>station</th><th>axis coordinate</th><th>signed mean</th><th>rms</th><th>max |signed|</th><th>area ratio</th></tr>');
  for (const s of r.sections) {
    out.push(
      `<tr><td>${s.station}</td>${numberCell(`sections.${s.station}.axisCoord`, s.axisCoord, d)}${numberCell(`sections.${s.station}.signedMean`, s.signedMean, d)}${numberCell(`sections.${s.station}.rms`, s.rms, d)}${numberCell(`sections.${s.station}.maxAbs`, s.maxAbs, d)}${numberCell(`sections.${s.station}.areaRatio`, s.areaRatio, 4)}</tr>`,
    );
  }
  out.push('</table><div class="views">');
  r.sections.forEach((s, i) => {
    const png = images[i];
    if (png) out.push(`<figure><img src="${pngSrc(png)}" alt="Section ${s.station}"><figcaption>station ${s.station}</figcaption></figure>`);
  });
  out.push('</div></section>');
  return out.join('\n');
}

function metricsPart(data: ReportData): string {
  const out = ['<section><h2>Metrics of each body (compute_metrics)</h2><table><tr><th></th><th>volume</th><th>surface area</th><th>bounding box min</th><th>bounding box max</th></tr>'];
  data.metrics.forEach((m, i) => {
    const role = data.bodies[i]!.role;
    const box = m.boundingBox;
    out.push(
      `<tr><th>${role}</th>${numberCell(`${role}.volume`, m.volume, 3)}${numberCell(`${role}.surfaceArea`, m.surfaceArea, 3)}<td class="num">${pointText(box?.min ?? null, 3)}</td><td class="num">${pointText(box?.max ?? null, 3)}</td></tr>`,
    );
  });
  out.push('</table></section>');
  return out.join('\n');
}

/** The report's data as JSON: the tool results as they came, images left out. */
function jsonData(data: ReportData): unknown {
  return {
    title: data.title,
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
    compute_metrics: data.metrics,
  };
}
