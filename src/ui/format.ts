/** Six significant digits, thousands grouped; values within 1e-9 of the scale read as 0. */
export function formatNumber(value: number, scale = 1): string {
  if (!Number.isFinite(value)) return String(value);
  const v = Math.abs(value) < 1e-9 * Math.max(1, Math.abs(scale)) ? 0 : value;
  // Tiny and huge values read better in exponent form than as a row of zeros.
  if (v !== 0 && (Math.abs(v) < 1e-4 || Math.abs(v) >= 1e15)) return v.toExponential(4);
  return v.toLocaleString('en-US', { maximumSignificantDigits: 6 });
}

/** The round step (1, 2 or 5 × 10ⁿ) nearest above `x`: slider steps people can read. */
/** Four significant digits, as the review's figures show them. */
export function formatFigure(value: number): string {
  return formatNumber(Number(value.toPrecision(4)));
}

export function roundStep(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  const r = x / p;
  const step = (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * p;
  // Rounded so the step has no binary tail (0.30000000000000004).
  return Number(step.toPrecision(1));
}

export function formatVector(v: readonly number[], scale = 1): string {
  return `(${v.map((x) => formatNumber(x, scale)).join(', ')})`;
}

const COUNT = new Intl.NumberFormat('en-US');

/** 1,000,000: one formatter for every count (toLocaleString makes a new one each call). */
export function formatCount(n: number): string {
  return COUNT.format(n);
}

/** How a body kind is named on the page. */
export function kindLabel(kind: 'brep' | 'mesh' | 'points'): string {
  return kind === 'brep' ? 'BREP' : kind === 'mesh' ? 'mesh' : 'points';
}

/** What a result value measures, from its key: its unit follows from the bodies' length unit (units.ts). */
export type UnitKind = 'length' | 'area' | 'volume' | 'angle' | 'degrees' | 'curvature' | 'curvature2' | 'ms' | '';

/** Keys whose values are counts, shares, ratios, flags, ids or unit vectors: no unit. */
const UNITLESS = /(count|samples|fraction|share|ratio|percent|index|indices|ids?|kind|level|stride|iterations|contours|paths|stations?|solids|shells|faces|edges|vertices|triangles|watertight|valid|through|closed|smell|profile|rank|uses|version|rewrites|axes|axis|direction|normals?|params|mode|bins)$/i;
const UNITLESS_EXACT = new Set(['n', 'k', 'within', 'withinTolerance', 'ambiguous', 'sections', 'noData', 'outOfPlane', 'uvBounds', 'su', 'sv', 'suu', 'suv', 'svv', 'sMin', 'sMax']);
const LENGTH = /(distance|deviation|length|radius|diameter|depth|deflection|mean|max|min|median|rms|sigma|std|^p\d+$|tolerance|width|height|gap|offset|size|center|centre|centroid|point|origin|position|extent|signed|unsigned|worst|box|coord|overlap|thickness|hausdorff|range|l2|^lo$|^hi$|endpoints|error|span)/i;

/**
 * The kind of quantity a result value is, from its key: lengths in the model's unit, areas and
 * volumes in its square and cube, angles in radians (degrees where the key ends in Degrees), curvatures per length, times in ms; counts,
 * shares, ids and unit vectors have none. A container's kind (`parentKind` '') does not leak into
 * counts below it: the valence of a graph is a count whatever its `mean` is called.
 */
export function unitOf(key: string, container?: string): UnitKind {
  if (container && /^(valence|counts)$/i.test(container)) return '';
  if (UNITLESS_EXACT.has(key)) return '';
  if (/(^ms$|Ms$)/.test(key)) return 'ms';
  if (/(volume|Mm3$)/i.test(key)) return 'volume';
  if (UNITLESS.test(key)) return '';
  if (/Degrees$/.test(key)) return 'degrees';
  if (/angle/i.test(key)) return 'angle';
  if (/area/i.test(key)) return 'area';
  if (/^K$|gaussian/i.test(key)) return 'curvature2';
  if (/curvature|^H$/i.test(key)) return 'curvature';
  if (LENGTH.test(key)) return 'length';
  return '';
}

/** Copies text to the clipboard; false when the browser refuses (no permission, not focused). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Offers bytes as a download under `name`. */
export function downloadBytes(name: string, bytes: BlobPart, mimeType: string): void {
  const url = URL.createObjectURL(new Blob([bytes], { type: mimeType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** 1.2 KiB, 3.4 MiB: one decimal. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
