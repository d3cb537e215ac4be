import type { CloudPositions } from './cloudPositions';

/**
 * Points drawn for a cloud (and coloured by the heat map): all of them up to DISPLAY_POINT_LIMIT,
 * else every stride-th. A viewport shows no more than that many distinct points usefully, and the
 * heat map measures each drawn point against the part's exact surface.
 */
export const DISPLAY_POINT_LIMIT = 500_000;

export function displayStride(count: number): number {
  return Math.max(1, Math.ceil(count / DISPLAY_POINT_LIMIT));
}

/** Positions of the drawn points (float32, as every display array), every `displayStride` -th. */
export function displayPointPositions(positions: CloudPositions, count: number): Float32Array<ArrayBuffer> {
  const stride = displayStride(count);
  const n = Math.ceil(count / stride);
  const out = new Float32Array(3 * n);
  for (let j = 0, i = 0; j < n; j++, i += stride) {
    out[3 * j] = positions[3 * i]!;
    out[3 * j + 1] = positions[3 * i + 1]!;
    out[3 * j + 2] = positions[3 * i + 2]!;
  }
  return out;
}
