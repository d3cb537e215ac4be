/** Six significant digits, thousands grouped; values within 1e-9 of the scale read as 0. */
export function formatNumber(value: number, scale = 1): string {
  if (!Number.isFinite(value)) return String(value);
  const v = Math.abs(value) < 1e-9 * Math.max(1, Math.abs(scale)) ? 0 : value;
  // Tiny and huge values read better in exponent form than as a row of zeros.
  if (v !== 0 && (Math.abs(v) < 1e-4 || Math.abs(v) >= 1e15)) return v.toExponential(4);
  return v.toLocaleString('en-US', { maximumSignificantDigits: 6 });
}

export function formatVector(v: readonly number[], scale = 1): string {
  return `(${v.map((x) => formatNumber(x, scale)).join(', ')})`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** How a body kind is named on the page. */
export function kindLabel(kind: 'brep' | 'mesh' | 'points'): string {
  return kind === 'brep' ? 'BREP' : kind === 'mesh' ? 'mesh' : 'points';
}

/**
 * The unit a result value carries, from its key: lengths in model units, areas and volumes in their
 * squares and cubes, angles in radians; counts, shares and ids carry none.
 */
export function unitOf(key: string): string {
  const k = key.toLowerCase();
  if (/(count|samples|fraction|share|ratio|percent|index|sections|within|ambiguous|faces|edges|vertices|triangles|solids|shells|id$|ids$|ms$|seconds|depthlevel|level|n$)/.test(k)) return '';
  if (/volume/.test(k)) return 'model units³';
  if (/area/.test(k)) return 'model units²';
  if (/angle/.test(k)) return 'rad';
  if (/(distance|deviation|length|radius|diameter|depth|deflection|mean|max|min|rms|sigma|std|^p\d+$|tolerance|width|height|gap|offset|size|center|centre|centroid|point|origin|position|extent|signed|unsigned|worst|box)/.test(k)) return 'model units';
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
