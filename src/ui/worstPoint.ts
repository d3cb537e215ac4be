import type { HeatState, Vec3 } from './stores';

/**
 * The review's worst point and its distance: the farther of the statistics' worst sample
 * (measure_deviation's worstPoint) and the heat map's worst covered vertex. The samples are area
 * samples inside the triangles, where a scan's noise is averaged, so the worst measured point (a
 * vertex: the scanner's own point) can lie beyond every sample: 0.3347 against 0.3208 on an
 * assembly's scan with 0.01 of noise. The stats card's Max |d|, the Go to worst point button and
 * the report read this one figure.
 */
export function worstOf(heat: Pick<HeatState, 'deviation' | 'worstVertex'>): { point: Vec3; distance: number } | null {
  const sample = heat.deviation?.fromToTo;
  const vertex = heat.worstVertex;
  if (vertex && (!sample || vertex.distance > sample.max)) return { point: vertex.point, distance: vertex.distance };
  return sample ? { point: sample.worstPoint as Vec3, distance: sample.max } : null;
}
