/** Linear interpolation of per-vertex values at barycentric weights, ignoring NaN corners; NaN when all are. */
export function interpolate(values: Float32Array, a: number, b: number, c: number, wa: number, wb: number, wc: number): number {
  let sum = 0, w = 0;
  const va = values[a]!, vb = values[b]!, vc = values[c]!;
  if (va === va) {
    sum += va * wa;
    w += wa;
  }
  if (vb === vb) {
    sum += vb * wb;
    w += wb;
  }
  if (vc === vc) {
    sum += vc * wc;
    w += wc;
  }
  return w > 1e-9 ? sum / w : NaN;
}
