import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import type { PointSet } from './bodySamples';

/** A zone per unit area (read_pmi's perArea: AP242's area unit): its shape and sides, mm. */
export interface AreaUnit {
  shape: string;
  size: number | null;
  second: number | null;
}

/** Most windows read on one face: the grid's step grows past a quarter of the window to stay under. */
const MAX_WINDOWS = 400;

export interface AreaWindow {
  /** Samples inside the window (indices into the face's samples). */
  members: number[];
  /** The window's centre on the face, in the samples' coordinates. */
  centre: Vec3;
}

/**
 * The areas a per-unit-area zone is read on (ASME Y14.5-2018 5.4.3 and 9.4.1.3, a flatness or an
 * orientation "per unit area": the zone applies to every area of that size anywhere on the face):
 * windows of the unit's shape (a circle of diameter `size`, a square, a rectangle `size` x `second`
 * both ways round), placed on a grid over the samples' extent across `normal` at a quarter of the
 * window's smaller side, each centred on the face (a sample within the step of its centre) and
 * holding at least `minSamples` samples. A window near the face's edge holds the part of the face
 * it covers.
 */
export function areaWindows(pts: PointSet, normal: Vec3, unit: AreaUnit, minSamples: number): AreaWindow[] | { reason: string } {
  if (!(unit.size !== null && unit.size > 0)) return { reason: 'the unit area has no size' };
  const shapes: [number, number, boolean][] =
    unit.shape === 'circular' ? [[unit.size / 2, unit.size / 2, true]]
    : unit.shape === 'square' ? [[unit.size / 2, unit.size / 2, false]]
    : unit.shape === 'rectangular' && unit.second !== null && unit.second > 0 ? [[unit.size / 2, unit.second / 2, false], [unit.second / 2, unit.size / 2, false]]
    : [];
  if (shapes.length === 0) return { reason: `a unit area of shape '${unit.shape}'${unit.shape === 'rectangular' ? ' without its second side' : ''} is not read` };
  const n = normalize(normal);
  const e1 = normalize(cross(n, Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0])), e2 = cross(n, e1);
  const u = new Float64Array(pts.count), v = new Float64Array(pts.count);
  let u0 = Infinity, u1 = -Infinity, v0 = Infinity, v1 = -Infinity;
  for (let i = 0; i < pts.count; i++) {
    const p: Vec3 = [pts.points[3 * i]!, pts.points[3 * i + 1]!, pts.points[3 * i + 2]!];
    u[i] = dot(p, e1);
    v[i] = dot(p, e2);
    [u0, u1, v0, v1] = [Math.min(u0, u[i]!), Math.max(u1, u[i]!), Math.min(v0, v[i]!), Math.max(v1, v[i]!)];
  }
  const smallest = Math.min(...shapes.map(([a, b]) => Math.min(a, b)));
  let step = smallest / 2;
  while (((u1 - u0) / step + 1) * ((v1 - v0) / step + 1) * shapes.length > MAX_WINDOWS) step *= 1.25;
  const windows: AreaWindow[] = [];
  for (let cu = u0; cu <= u1 + 1e-9 * step; cu += step) {
    for (let cv = v0; cv <= v1 + 1e-9 * step; cv += step) {
      let onFace = -1;
      for (let i = 0; i < pts.count && onFace < 0; i++) if (Math.abs(u[i]! - cu) <= step / 2 && Math.abs(v[i]! - cv) <= step / 2) onFace = i;
      if (onFace < 0) continue;
      for (const [hu, hv, round] of shapes) {
        const members: number[] = [];
        for (let i = 0; i < pts.count; i++) {
          const du = (u[i]! - cu) / hu, dv = (v[i]! - cv) / hv;
          if (round ? du * du + dv * dv <= 1 : Math.abs(du) <= 1 && Math.abs(dv) <= 1) members.push(i);
        }
        if (members.length < minSamples) continue;
        const h = dot([pts.points[3 * onFace]!, pts.points[3 * onFace + 1]!, pts.points[3 * onFace + 2]!], n);
        windows.push({ members, centre: [cu * e1[0] + cv * e2[0] + h * n[0], cu * e1[1] + cv * e2[1] + h * n[1], cu * e1[2] + cv * e2[2] + h * n[2]] });
      }
    }
  }
  if (windows.length === 0) return { reason: `no unit area on the face holds ${minSamples} scan samples` };
  return windows;
}
