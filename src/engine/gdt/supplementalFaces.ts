import { createExactHit, FootKind, type ExactReference } from '../exact/ExactReference';
import { evaluateSurface, projectElementary } from '../exact/surfaces';
import { insideTrim } from '../exact/trim';
import type { PointSet } from './bodySamples';
import { concatSets, filter } from './bodySamples';

/**
 * Supplemental geometry: NIST's AP242 parts keep construction surfaces beside the solid (CATIA's
 * "Extract", "Split", "Join": copies of some of the part's faces, or a region of one), and their PMI
 * may name those instead of the part's own faces: FTC 10's two 5.5 mm hole diameters (a 2 mm split
 * of a 35 mm bore), CTC 4's profile of a 35 mm square on a 65 x 120 face, CTC 2's datum K (a disk of
 * 85 mm on a flange face). The scan is split by the solid's faces only (solidsBeside.ts), so such a
 * face got no sample. Each is read on the solid faces it lies on, within its own boundary.
 */
export interface Supplemental {
  /** The solid faces a construction face lies on; null for a face of the solid. */
  under(face: number): number[] | null;
  /** Whether a point on one of those solid faces lies within the construction face's boundary. */
  inside(face: number, x: number, y: number, z: number): boolean;
}

/** Share of the diagonal: a construction face's point this close to a solid face lies on it. */
const ON_FACE = 1e-5;
/** Points of a construction face probed, per direction of its parameter box. */
const GRID = 24;

export function supplementalFaces(ref: ExactReference, solidFace: Uint8Array | null): Supplemental | null {
  if (!solidFace) return null;
  const cache = new Map<number, number[]>();
  const tol = ON_FACE * ref.geometry.diagonal;
  const uv = new Float64Array(2), ev = new Float64Array(18);
  const under = (face: number): number[] | null => {
    if (solidFace[face] !== 0) return null;
    let found = cache.get(face);
    if (found) return found;
    const f = ref.geometry.faces[face];
    const hits = new Set<number>();
    const t = f?.trim;
    if (f && t && f.surface.kind !== 'kernel') {
      const hit = createExactHit();
      for (let i = 0; i < GRID; i++)
        for (let j = 0; j < GRID; j++) {
          const u = t.uMin + ((i + 0.5) * (t.uMax - t.uMin)) / GRID, v = t.vMin + ((j + 0.5) * (t.vMax - t.vMin)) / GRID;
          if (!insideTrim(t, u, v)) continue;
          evaluateSurface(f.surface, u, v, ev);
          ref.nearest(ev[0]!, ev[1]!, ev[2]!, hit);
          if (hit.kind === FootKind.face && hit.face >= 0 && hit.distance <= tol) hits.add(hit.face);
        }
    }
    cache.set(face, (found = [...hits].sort((a, b) => a - b)));
    return found;
  };
  const inside = (face: number, x: number, y: number, z: number): boolean => {
    const f = ref.geometry.faces[face];
    if (!f) return false;
    // A face without trims is its whole surface; a surface without a closed-form projection: the whole solid face.
    if (!f.trim || !projectElementary(f.surface, x, y, z, 0, uv)) return true;
    for (const du of shifts(f.uPeriod)) for (const dv of shifts(f.vPeriod)) if (insideTrim(f.trim, uv[0]! + du, uv[1]! + dv)) return true;
    return false;
  };
  return { under, inside };
}

/**
 * Membership in some faces where construction faces stand for regions of the solid's: (solid face,
 * a point on it) => in. The solid faces to look on are `faces` with each construction face replaced
 * by those under it.
 */
export function regionMember(supplemental: Supplemental | null | undefined, faces: number[]): { solid: number[]; member: (face: number, x: number, y: number, z: number) => boolean } {
  const construction = supplemental ? faces.filter((f) => supplemental.under(f) !== null) : [];
  if (!supplemental || construction.length === 0) {
    const want = new Set(faces);
    return { solid: faces, member: (f) => want.has(f) };
  }
  const direct = new Set(faces.filter((f) => supplemental.under(f) === null));
  const solid = [...new Set([...direct, ...construction.flatMap((f) => supplemental.under(f)!)])];
  return { solid, member: (f, x, y, z) => direct.has(f) || construction.some((c) => supplemental.under(c)!.includes(f) && supplemental.inside(c, x, y, z)) };
}

const shifts = (period: number): number[] => (period > 0 ? [0, -period, period, -2 * period, 2 * period] : [0]);

/**
 * The scan's samples on some faces where construction faces among them stand for the solid's: the
 * samples of the faces named directly, and those of the solid faces under a construction face that
 * lie within its boundary (a solid face named directly too keeps all its samples).
 */
export function onSolidFaces(supplemental: Supplemental | null, ref: ExactReference, actualOn: (faces: number[]) => PointSet, densify?: (faces: number[], have: PointSet) => PointSet): (faces: number[]) => PointSet {
  if (!supplemental) return actualOn;
  return (faces) => {
    const direct = faces.filter((f) => supplemental.under(f) === null);
    const construction = faces.filter((f) => supplemental.under(f) !== null);
    if (construction.length === 0) return actualOn(faces);
    const below = [...new Set(construction.flatMap((f) => supplemental.under(f)!))].filter((f) => !direct.includes(f));
    if (below.length === 0) return actualOn(direct);
    const hit = createExactHit();
    const inRegions = filter(actualOn(below), (x, y, z) => {
      ref.nearest(x, y, z, hit);
      const p = [hit.x, hit.y, hit.z] as const;
      return construction.some((f) => supplemental.under(f)!.includes(hit.face) && supplemental.inside(f, ...p));
    });
    // A small region of a large face (FTC 10's 2 mm of a 35 mm bore) gets more drawn near it alone.
    const regions = densify ? densify(construction, inRegions) : inRegions;
    if (direct.length === 0) return regions;
    const own = actualOn(direct);
    return concatSets(own, regions);
  };
}


/** A characteristic on construction faces says so: where it was read, or that they lie on no face of the part. */
export function onConstruction<C extends { method: string; pass: boolean | null; reason?: string }>(nominal: { supplemental?: Supplemental | null }, faces: number[], c: C): C {
  const s = nominal.supplemental;
  const construction = s ? faces.filter((f) => s.under(f) !== null) : [];
  if (!s || construction.length === 0) return c;
  const ids = (fs: number[]) => fs.map((f) => `face[${f}]`).join(', ');
  const lost = construction.filter((f) => s.under(f)!.length === 0);
  const read = construction.filter((f) => s.under(f)!.length > 0);
  const note = [
    read.length ? `${ids(read)}: supplemental geometry beside the solid (a construction surface the PMI names), read on the solid's ${ids([...new Set(read.flatMap((f) => s.under(f)!))])} within its boundary` : '',
    lost.length ? `${ids(lost)}: supplemental geometry that lies on no face of the solid (not part of the measured part)` : '',
  ].filter(Boolean).join('; ');
  return { ...c, method: `${c.method}; ${note}`, ...(c.pass === null && lost.length ? { reason: `${c.reason ?? ''} (${note})` } : {}) };
}
