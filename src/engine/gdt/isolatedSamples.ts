/**
 * Scan samples that no neighbour agrees with: spikes and stray points (a reflection, a speck of dust,
 * a scanner's edge artefact). A zone reads a feature's extremes and a datum's tangent plane touches
 * its highest points, so a single stray sample decides them: NIST FTC 8 as a cloud of 400,000
 * points with 211 of them moved 0.1 to 1 mm read 9 callouts FAIL on a good part. A real defect (a
 * burr, a dent, a scratch) is seen by several neighbouring samples, which agree with each other;
 * a stray point is seen by one. Scanner software removes such points when it meshes; a cloud or a
 * raw mesh may still hold them.
 *
 * A sample is isolated when its deviation from its nominal face differs by more than a threshold
 * from the median of its nearest neighbours' on the same face, and none of them lies within half
 * the threshold of it (a ridge one sample wide, or its end, keeps its samples). The threshold: 6
 * robust standard deviations of the differences from the neighbours' median over the sample's face
 * where that is more than over every sample (the scan's noise: larger where it looks at a face
 * obliquely), and at least `floor`.
 */

/** Neighbours a sample is compared with, and the fewest it must have to be judged at all. */
const NEIGHBOURS = 8;
const MIN_NEIGHBOURS = 4;
/** Robust standard deviations of the local differences beyond which a sample may be isolated. */
const NOISE_FACTOR = 6;
/** Samples a face needs for a noise of its own. */
const MIN_FACE_SAMPLES = 8;
/** Neighbours within half the threshold that make a sample part of a feature, not a stray point. */
const AGREEING = 1;

export interface Isolation {
  /** Per sample: 1 when isolated. */
  isolated: Uint8Array;
  count: number;
  /** The threshold of the whole set (scan units); a noisier face has its own, larger. */
  threshold: number;
}

/**
 * Isolated samples among those with a face (`face[i] >= 0`, `deviation[i]` finite). Neighbours are
 * found in a hash grid whose cells hold a few samples each on a surface.
 */
export function isolatedSamples(points: ArrayLike<number>, face: Int32Array, deviation: Float64Array, floor: number): Isolation {
  const n = face.length;
  const isolated = new Uint8Array(n);
  const grid = sampleGrid(points, face);
  if (!grid) return { isolated, count: 0, threshold: floor };
  const median = new Float64Array(n).fill(NaN);
  const near = new Int32Array(NEIGHBOURS);
  const nearCount = new Int32Array(n);
  const neighbourOf = new Int32Array(n * NEIGHBOURS);
  // Each face's differences from the neighbours' median: its noise (a scan is noisier where it
  // looks at a face obliquely, a hole's wall more than a flat top).
  const byFace = new Map<number, number[]>();
  const all: number[] = [];
  for (let i = 0; i < n; i++) {
    if (face[i]! < 0) continue;
    const k = grid.nearest(i, near);
    if (k < MIN_NEIGHBOURS) continue;
    nearCount[i] = k;
    neighbourOf.set(near.subarray(0, k), i * NEIGHBOURS);
    median[i] = medianOf(Array.from(near.subarray(0, k), (j) => deviation[j]!));
    const d = Math.abs(deviation[i]! - median[i]!);
    let list = byFace.get(face[i]!);
    if (!list) byFace.set(face[i]!, (list = []));
    list.push(d);
    all.push(d);
  }
  if (all.length === 0) return { isolated, count: 0, threshold: floor };
  const overall = Math.max(NOISE_FACTOR * 1.4826 * medianOf(all), floor);
  const thresholdOf = new Map<number, number>();
  // A face's own noise only ever raises its threshold: estimated from its samples alone it may come
  // out low by chance (NIST FTC 6's cloud: a face of 332 samples left out a 4.9 sigma one).
  for (const [f, list] of byFace) thresholdOf.set(f, list.length >= MIN_FACE_SAMPLES ? Math.max(NOISE_FACTOR * 1.4826 * medianOf(list), overall) : overall);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const m = median[i]!;
    const threshold = thresholdOf.get(face[i]!) ?? overall;
    if (!(Math.abs(deviation[i]! - m) > threshold)) continue;
    let agree = 0;
    for (let q = 0; q < nearCount[i]!; q++) if (Math.abs(deviation[neighbourOf[i * NEIGHBOURS + q]!]! - deviation[i]!) <= threshold / 2) agree++;
    if (agree >= AGREEING) continue;
    isolated[i] = 1;
    count++;
  }
  return { isolated, count, threshold: overall };
}

function medianOf(values: number[]): number {
  values.sort((a, b) => a - b);
  const h = values.length >> 1;
  return values.length % 2 ? values[h]! : (values[h - 1]! + values[h]!) / 2;
}

/**
 * The samples with a face in a hash grid. Cell size: twice the spacing the samples would have spread
 * evenly over their box's surface, so a cell holds a few on a face and the 27 cells about a sample
 * hold its nearest neighbours.
 */
function sampleGrid(points: ArrayLike<number>, face: Int32Array): { nearest(i: number, out: Int32Array): number } | null {
  const n = face.length;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (face[i]! < 0) continue;
    m++;
    for (let c = 0; c < 3; c++) {
      const v = points[3 * i + c]!;
      if (v < lo[c]!) lo[c] = v;
      if (v > hi[c]!) hi[c] = v;
    }
  }
  if (m < MIN_NEIGHBOURS + 1) return null;
  const [ex, ey, ez] = hi.map((h, c) => h - lo[c]!) as [number, number, number];
  const area = 2 * (ex * ey + ey * ez + ez * ex);
  const cell = 2 * Math.sqrt(area / m) || 1;
  const nx = Math.floor(ex / cell) + 1, ny = Math.floor(ey / cell) + 1, nz = Math.floor(ez / cell) + 1;
  const cellOf = (x: number, y: number, z: number) => [Math.floor((x - lo[0]!) / cell), Math.floor((y - lo[1]!) / cell), Math.floor((z - lo[2]!) / cell)] as const;
  const cells = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    if (face[i]! < 0) continue;
    const [a, b, c] = cellOf(points[3 * i]!, points[3 * i + 1]!, points[3 * i + 2]!);
    const id = (a * ny + b) * nz + c;
    let list = cells.get(id);
    if (!list) cells.set(id, (list = []));
    list.push(i);
  }
  const dist = new Float64Array(NEIGHBOURS);
  return {
    nearest(i, out) {
      const x = points[3 * i]!, y = points[3 * i + 1]!, z = points[3 * i + 2]!;
      const [ci, cj, ck] = cellOf(x, y, z);
      let k = 0;
      for (let a = Math.max(0, ci - 1); a <= Math.min(nx - 1, ci + 1); a++)
        for (let b = Math.max(0, cj - 1); b <= Math.min(ny - 1, cj + 1); b++)
          for (let c = Math.max(0, ck - 1); c <= Math.min(nz - 1, ck + 1); c++) {
            const list = cells.get((a * ny + b) * nz + c);
            if (!list) continue;
            for (const j of list) {
              if (j === i || face[j] !== face[i]) continue;
              const d = (points[3 * j]! - x) ** 2 + (points[3 * j + 1]! - y) ** 2 + (points[3 * j + 2]! - z) ** 2;
              // The NEIGHBOURS nearest, kept sorted by distance.
              if (k === NEIGHBOURS && d >= dist[k - 1]!) continue;
              let p = k < NEIGHBOURS ? k++ : k - 1;
              while (p > 0 && dist[p - 1]! > d) {
                dist[p] = dist[p - 1]!;
                out[p] = out[p - 1]!;
                p--;
              }
              dist[p] = d;
              out[p] = j;
            }
          }
      return k;
    },
  };
}
