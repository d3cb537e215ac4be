import { closestPoint, createHit } from '../mesh/closestPoint';
import { closestPointOnTriangle } from '../mesh/closestPointOnTriangle';
import type { PseudoNormals } from '../mesh/pseudoNormals';
import type { AmbiguityReason, SignMode } from '../mesh/signedDeviation';
import { depthFirst, nearestFirst, nodeMaxima } from '../mesh/bvhTraversal';
import { nodeDistanceSq, type TriangleBvh } from '../mesh/TriangleBvh';
import type { FaceTessellation } from '../mesh/TriMesh';
import { evaluateCurve, projectOnCurve, type Curve } from './curves';
import { measureChordErrors } from './chordError';
import type { ExactFace, ExactGeometry } from './geometry';
import { evaluateSurface, lastProjection, projectElementary, projectNewton, unitNormal, type KernelSurfaces } from './surfaces';
import { insideTrim } from './trim';

/** Where on the reference a nearest point lies. */
export const FootKind = { none: 0, face: 1, edge: 2, vertex: 3 } as const;
export type FootKind = (typeof FootKind)[keyof typeof FootKind];

/** The nearest point found on the exact reference. Reuse one per thread of queries. */
export interface ExactHit {
  distance: number;
  /** The point on the reference. */
  x: number;
  y: number;
  z: number;
  /** face[N] the point was reached through (-1 when nothing qualified). */
  face: number;
  kind: FootKind;
  /** edge[N] for an edge foot, vertex[N] for a vertex foot, else -1. */
  entity: number;
  /** The foot's (u, v) on the face's surface for a face foot (the representative inside the trims on a periodic face); the edge parameter in u otherwise, v NaN. */
  u: number;
  v: number;
  /** Unit outward normal of `face` at the point (the face's orientation applied). */
  nx: number;
  ny: number;
  nz: number;
}

export function createExactHit(): ExactHit {
  return { distance: Infinity, x: NaN, y: NaN, z: NaN, face: -1, kind: FootKind.none, entity: -1, u: NaN, v: NaN, nx: 0, ny: 0, nz: 0 };
}

export interface ExactDeviation {
  /** Unsigned distance to the nearest exact surface. */
  distance: number;
  /** Signed distance to the surface the sample corresponds to; NaN when ambiguous. */
  signed: number;
  ambiguous: boolean;
  reason: AmbiguityReason | null;
  nearest: ExactHit;
  winner: ExactHit;
}

export function createExactDeviation(): ExactDeviation {
  return { distance: Infinity, signed: NaN, ambiguous: true, reason: null, nearest: createExactHit(), winner: createExactHit() };
}

/** The sign rules' constants, shared with the tessellated path (src/engine/mesh/signedDeviation.ts). */
export interface SignRules {
  tieFactor: number;
  tieSlack: number;
  reachFactor: number;
  reachFloor: number;
}

/**
 * A BREP body prepared as an exact deviation reference, once per body and deflection. Its
 * tessellation and BVH only find candidate faces; each candidate is projected onto its exact
 * surface (closed form for planes, cylinders, cones, spheres and tori; Newton's method from the
 * nearest triangle's (u, v) otherwise), tested against the face's trims, and a foot outside the
 * face falls back to the face's edges and vertices. A face is a candidate while some triangle of it
 * could still hold a point nearer than the best so far: distance to the triangle minus that
 * triangle's measured chord error (chordError.ts) below the best.
 *
 * Everything here is plain JS on typed arrays (no kernel), except faces whose surface type has no
 * JS form, which evaluate through `kernel`.
 */
export class ExactReference {
  readonly geometry: ExactGeometry;
  readonly mesh: FaceTessellation;
  readonly bvh: TriangleBvh;
  /** Per triangle: bound on the distance from the triangle's exact surface patch to the triangle. */
  readonly triangleError: Float64Array;
  /** Largest triangleError. */
  readonly maxError: number;
  /** Bounding-box diagonal of the reference (scale of the robust reach floor and tolerances). */
  readonly diagonal: number;
  /**
   * Whether the body is closed: every edge bounds at least two faces (a solid, or solids that touch;
   * a seam counts its face twice). Then the nearest foot's side classifies a point against the
   * solid exactly and signs need no tie band (signed).
   */
  readonly closed: boolean;
  private readonly slotError: Float64Array;
  private readonly nodeError: Float64Array;
  /** Angle-weighted normal per BREP vertex (from the tessellation's welded pseudo-normals). */
  private readonly vertexNormals: Float64Array;
  private readonly kernel: KernelSurfaces | undefined;
  private readonly rules: SignRules;
  /** Per face: 1 when its surface is projected by Newton's method (a local minimum, so the start matters). */
  private readonly newtonFace: Uint8Array;

  // Per-query state, per face: the face's nearest point, valid while faceStamp equals stamp.
  private stamp = 0;
  private readonly faceStamp: Uint32Array;
  /** The bound the face was evaluated under: a result at or above it may be incomplete. */
  private readonly faceLimit: Float64Array;
  /** Distance to the triangle the face's evaluation started from. */
  private readonly faceStart: Float64Array;
  /** Faces evaluated in this query, in order (evaluatedCount of them). */
  private readonly evaluated: Int32Array;
  private evaluatedCount = 0;
  private readonly faceDist: Float64Array;
  private readonly facePoint: Float64Array;
  private readonly faceNormal: Float64Array;
  private readonly faceKind: Uint8Array;
  private readonly faceEntity: Int32Array;
  private readonly faceParam: Float64Array;
  /** The edge a boundary foot lies on (-1 for an interior foot), and whether faceNormal holds the face's normal there yet. */
  private readonly faceEdge: Int32Array;
  private readonly normalReady: Uint8Array;
  /** The face's side (+1 / -1), valid while faceSideStamp equals stamp (sideOf is asked per triangle of the tie band). */
  private readonly faceSide: Int8Array;
  private readonly faceSideStamp: Uint32Array;
  private readonly edgeStamp: Uint32Array;
  private readonly edgeDist: Float64Array;
  private readonly edgeParam: Float64Array;
  private readonly edgePoint: Float64Array;
  /** The nearest triangle of the last query (closestPoint starts from it). */
  private readonly startHit = createHit();
  private readonly faceQuery = this.faceSearch();
  private readonly bandQuery = this.bandSearch();

  constructor(input: { geometry: ExactGeometry; mesh: FaceTessellation; bvh: TriangleBvh; pseudoNormals: PseudoNormals; rules: SignRules; kernel?: KernelSurfaces | undefined }) {
    const { geometry, mesh, bvh } = input;
    this.geometry = geometry;
    this.mesh = mesh;
    this.bvh = bvh;
    this.kernel = input.kernel;
    this.rules = input.rules;
    let diagonal = 0;
    if (bvh.nodeCount > 0) {
      const b = bvh.nodeBounds;
      diagonal = Math.hypot(b[3]! - b[0]!, b[4]! - b[1]!, b[5]! - b[2]!);
    }
    this.diagonal = diagonal;
    this.closed = geometry.faces.length > 0 && geometry.edges.every((e) => e.faces.length >= 2 || e.outside === true);
    this.triangleError = measureChordErrors(geometry, mesh, input.kernel);
    let maxError = 0;
    for (let t = 0; t < this.triangleError.length; t++) maxError = Math.max(maxError, this.triangleError[t]!);
    this.maxError = maxError;
    this.slotError = new Float64Array(bvh.slotTriangle.length);
    for (let s = 0; s < this.slotError.length; s++) this.slotError[s] = this.triangleError[bvh.slotTriangle[s]!]!;
    this.nodeError = nodeMaxima(bvh, this.slotError);
    this.vertexNormals = vertexPseudoNormals(geometry, bvh, input.pseudoNormals);
    const F = geometry.faces.length, E = geometry.edges.length;
    this.newtonFace = Uint8Array.from(geometry.faces, (f) => (f.surface.kind === 'nurbs' || f.surface.kind === 'kernel' || f.surface.kind === 'extrusion' || f.surface.kind === 'revolution' ? 1 : 0));
    this.faceStamp = new Uint32Array(F);
    this.faceLimit = new Float64Array(F);
    this.faceStart = new Float64Array(F);
    this.evaluated = new Int32Array(F);
    this.faceDist = new Float64Array(F);
    this.facePoint = new Float64Array(3 * F);
    this.faceNormal = new Float64Array(3 * F);
    this.faceKind = new Uint8Array(F);
    this.faceEntity = new Int32Array(F);
    this.faceParam = new Float64Array(2 * F);
    this.faceEdge = new Int32Array(F);
    this.normalReady = new Uint8Array(F);
    this.faceSide = new Int8Array(F);
    this.faceSideStamp = new Uint32Array(F);
    this.edgeStamp = new Uint32Array(E);
    this.edgeDist = new Float64Array(E);
    this.edgeParam = new Float64Array(E);
    this.edgePoint = new Float64Array(3 * E);
  }

  /** The nearest point of the exact reference to p (whatever its orientation). */
  nearest(px: number, py: number, pz: number, target: ExactHit = createExactHit()): ExactHit {
    this.beginQuery();
    const f = this.search(px, py, pz, Infinity, null, 1, 0);
    return this.writeHit(f, target);
  }

  /**
   * Which side of the exact reference p is on: -1 inside (behind the outward normal of the
   * feature its nearest point lies on), +1 outside or on it, 0 for an empty reference. For a
   * closed, consistently oriented BREP that is inside or outside the solid.
   */
  side(px: number, py: number, pz: number): -1 | 0 | 1 {
    this.beginQuery();
    const f = this.search(px, py, pz, Infinity, null, 1, 0);
    return f < 0 ? 0 : this.sideOf(f, px, py, pz);
  }

  /**
   * Signed deviation of a sample (point p, its own unit normal n) from the exact reference, with the
   * same rules as the tessellated path (signedDeviation.ts), exact normals in place of triangle
   * and pseudo-normals. The magnitude is always the nearest distance; the rules decide the sign:
   * - closed body: the side of the nearest foot's feature ((p - q) . normal of the feature q lies
   *   on: the face's normal inside a face; the sum of the adjacent faces' normals on an edge; the
   *   angle-weighted normal at a vertex), which classifies p against the solid exactly.
   * - open body, nearest: that side; ambiguous when a face's nearest point on the other side lies
   *   within tieFactor x d + tieSlack.
   * - robust: a face whose nearest point has a normal not facing n (dot <= 0) does not count; the
   *   nearest remaining face within reach is the compatible surface. Ambiguous when it is not the
   *   nearest within the tie band and puts p on the other side than the nearest face does
   *   (notNearest: p lies past a thin wall's other skin), and when there is none in reach. On an open body its side is the sign, ambiguous when a compatible face's
   *   nearest point on the other side lies within the tie band.
   */
  signed(px: number, py: number, pz: number, nx: number, ny: number, nz: number, mode: SignMode, target: ExactDeviation = createExactDeviation()): ExactDeviation {
    this.beginQuery();
    const rules = this.rules;
    // The nearest search also evaluates every face that could hold a point within the tie band of
    // the nearest (tieFactor x best + tieSlack), so the usual tie check needs no second traversal.
    const f0 = this.search(px, py, pz, Infinity, null, rules.tieFactor, rules.tieSlack);
    this.writeHit(f0, target.nearest);
    target.distance = target.nearest.distance;
    target.signed = NaN;
    target.ambiguous = true;
    if (f0 < 0) {
      this.writeHit(-1, target.winner);
      target.reason = 'emptyReference';
      return target;
    }
    const d0 = this.faceDist[f0]!;
    let w = f0;
    const robust = mode === 'robust';
    if (robust) {
      if (!(nx * nx + ny * ny + nz * nz > 0)) {
        this.writeHit(-1, target.winner);
        target.reason = 'zeroNormal';
        return target;
      }
      if (!this.compatible(f0, nx, ny, nz)) {
        // A compatible face in the tie band is usually among the faces the nearest search evaluated (the other face of an edge foot).
        w = this.compatibleEvaluated(rules.tieFactor * d0 + rules.tieSlack, nx, ny, nz);
        if (w < 0) {
          const reach = Math.max(rules.reachFactor * d0, rules.reachFloor * this.diagonal) * (1 + 1e-12);
          filterNormal[0] = nx;
          filterNormal[1] = ny;
          filterNormal[2] = nz;
          w = this.search(px, py, pz, reach, filterNormal, 1, 0);
          if (w < 0) {
            // Nothing facing the sample is in reach (an inside-out body, a flipped sample): no evidence for either side.
            this.writeHit(-1, target.winner);
            target.reason = 'noCompatibleSurface';
            return target;
          } else if (this.faceDist[w]! > rules.tieFactor * d0 + rules.tieSlack && this.sideOf(w, px, py, pz) !== this.sideOf(f0, px, py, pz)) {
            // The sample's own surface and the nearest one disagree on its side: it lies past a wall's other skin.
            this.writeHit(w, target.winner);
            target.reason = 'notNearest';
            return target;
          }
        }
      }
    }
    this.writeHit(w, target.winner);
    if (this.closed) {
      target.ambiguous = false;
      target.reason = null;
      target.signed = this.sideOf(f0, px, py, pz) * d0;
      return target;
    }
    const side = this.sideOf(w, px, py, pz);
    const band = rules.tieFactor * this.faceDist[w]! + rules.tieSlack;
    filterNormal[0] = nx;
    filterNormal[1] = ny;
    filterNormal[2] = nz;
    const tie = w === f0 ? this.someOppositeEvaluated(px, py, pz, band, side, robust ? filterNormal : null) : this.someOppositeWithin(px, py, pz, band, side, robust ? filterNormal : null);
    if (tie) {
      target.reason = 'tieBand';
      return target;
    }
    target.ambiguous = false;
    target.reason = null;
    target.signed = side * d0;
    return target;
  }

  /** The nearest compatible face among those the nearest search evaluated, within `band`; -1 when none. */
  private compatibleEvaluated(band: number, nx: number, ny: number, nz: number): number {
    let best = -1;
    for (let i = 0; i < this.evaluatedCount; i++) {
      const f = this.evaluated[i]!;
      const d = this.faceDist[f]!;
      if (!(d <= band) || (best >= 0 && !(d < this.faceDist[best]!))) continue;
      if (this.compatible(f, nx, ny, nz)) best = f;
    }
    return best;
  }

  private beginQuery(): void {
    this.evaluatedCount = 0;
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.faceStamp.fill(0);
      this.faceSideStamp.fill(0);
      this.edgeStamp.fill(0);
      this.stamp = 1;
    }
  }

  private writeHit(f: number, target: ExactHit): ExactHit {
    if (f < 0) {
      target.distance = Infinity;
      target.x = target.y = target.z = NaN;
      target.face = target.entity = -1;
      target.u = target.v = NaN;
      target.kind = FootKind.none;
      target.nx = target.ny = target.nz = 0;
      return target;
    }
    target.distance = this.faceDist[f]!;
    target.x = this.facePoint[3 * f]!;
    target.y = this.facePoint[3 * f + 1]!;
    target.z = this.facePoint[3 * f + 2]!;
    this.ensureNormal(f);
    target.face = f;
    target.kind = this.faceKind[f]! as FootKind;
    target.entity = this.faceEntity[f]!;
    target.u = this.faceParam[2 * f]!;
    target.v = this.faceKind[f] === FootKind.face ? this.faceParam[2 * f + 1]! : NaN;
    target.nx = this.faceNormal[3 * f]!;
    target.ny = this.faceNormal[3 * f + 1]!;
    target.nz = this.faceNormal[3 * f + 2]!;
    return target;
  }

  private compatible(f: number, nx: number, ny: number, nz: number): boolean {
    this.ensureNormal(f);
    return this.faceNormal[3 * f]! * nx + this.faceNormal[3 * f + 1]! * ny + this.faceNormal[3 * f + 2]! * nz > 0;
  }

  /**
   * The face whose nearest point is nearest to p among faces nearer than `bound` (and, with a
   * filter normal, whose nearest point's normal faces it); -1 when none.
   */
  private search(px: number, py: number, pz: number, bound: number, filter: Float64Array | null, widen: number, slack: number): number {
    const q = this.faceQuery;
    q.px = px;
    q.py = py;
    q.pz = pz;
    q.limit = bound;
    q.filter = filter;
    q.widen = widen;
    q.slack = slack;
    q.best = bound;
    // Faces are evaluated while they could beat the query's bound ("reach"), the best widened for the tie band.
    q.bound = bound;
    q.bestFace = -1;
    // Start from the nearest triangle (its face holds the nearest point more often than not, and
    // its closest point is the best start on that face): its face's distance bounds the search.
    if (filter === null) {
      const hit = closestPoint(this.bvh, px, py, pz, this.startHit);
      if (hit.slot >= 0) {
        const f = this.mesh.faceIds[hit.triangle]!;
        this.visitSlot(hit.slot, f, px, py, pz, q.bound);
        if (this.faceStamp[f] === this.stamp && this.faceDist[f]! < q.best) {
          q.best = this.faceDist[f]!;
          q.bound = Math.min(bound, widen * q.best + slack);
          q.bestFace = f;
        }
      }
    }
    if (this.bvh.nodeCount === 0) return -1;
    nearestFirst(this.bvh, q);
    q.filter = null;
    return q.bestFace;
  }

  /**
   * The face search as a BvhQuery: nodes nearer-first by a lower bound of the distance to their
   * exact surface (box distance minus chord error); `bound` is the best face distance widened for
   * the tie band, capped at `limit`.
   */
  private faceSearch() {
    const q = {
      bound: Infinity,
      limit: Infinity,
      best: Infinity,
      bestFace: -1,
      px: 0,
      py: 0,
      pz: 0,
      filter: null as Float64Array | null,
      widen: 1,
      slack: 0,
      nodeScore: (node: number): number => {
        return lowerBound(nodeDistanceSq(this.bvh, node, q.px, q.py, q.pz), this.nodeError[node]!);
      },
      leaf: (first: number, count: number): boolean => {
        const filter = q.filter;
        for (let s = first; s < first + count; s++) {
          const f = this.mesh.faceIds[this.bvh.slotTriangle[s]!]!;
          this.visitSlot(s, f, q.px, q.py, q.pz, q.bound);
          const d = this.faceDist[f]!;
          if (d < q.best && this.faceStamp[f] === this.stamp && (filter === null || this.compatible(f, filter[0]!, filter[1]!, filter[2]!))) {
            q.best = d;
            q.bound = Math.min(q.limit, q.widen * d + q.slack);
            q.bestFace = f;
          }
        }
        return false;
      },
    };
    return q;
  }

  /**
   * The tie-band test over the faces the nearest search evaluated: complete when the band is the
   * one that search was widened to (the winner is the nearest point).
   */
  private someOppositeEvaluated(px: number, py: number, pz: number, band: number, side: 1 | -1, filter: Float64Array | null): boolean {
    for (let i = 0; i < this.evaluatedCount; i++) {
      const f = this.evaluated[i]!;
      if (!(this.faceDist[f]! <= band)) continue;
      if (filter && !this.compatible(f, filter[0]!, filter[1]!, filter[2]!)) continue;
      if (this.sideOf(f, px, py, pz) !== side) return true;
    }
    return false;
  }

  /**
   * Whether a face's nearest point within `band` lies on the other side than `side` (and, with a
   * filter normal, faces it): the tie-band test.
   */
  private someOppositeWithin(px: number, py: number, pz: number, band: number, side: 1 | -1, filter: Float64Array | null): boolean {
    const q = this.bandQuery;
    q.px = px;
    q.py = py;
    q.pz = pz;
    q.band = band;
    q.side = side;
    q.filter = filter;
    const found = depthFirst(this.bvh, q);
    q.filter = null;
    return found;
  }

  /** The tie-band test as a BvhQuery: nodes within the band (by the lower bound) are opened; a leaf stops at the first opposite face. */
  private bandSearch() {
    const q = {
      bound: Infinity,
      band: 0,
      side: 1 as 1 | -1,
      px: 0,
      py: 0,
      pz: 0,
      filter: null as Float64Array | null,
      nodeScore: (node: number): number => {
        return lowerBound(nodeDistanceSq(this.bvh, node, q.px, q.py, q.pz), this.nodeError[node]!) <= q.band ? 0 : Infinity;
      },
      leaf: (first: number, count: number): boolean => {
        const { px, py, pz, band, filter } = q;
        for (let s = first; s < first + count; s++) {
          const f = this.mesh.faceIds[this.bvh.slotTriangle[s]!]!;
          // Just above band, so that a point exactly at the band is found.
          this.visitSlot(s, f, px, py, pz, band * (1 + 1e-12) + 1e-300);
          if (this.faceStamp[f] !== this.stamp) continue;
          if (!(this.faceDist[f]! <= band)) continue;
          if (filter && !this.compatible(f, filter[0]!, filter[1]!, filter[2]!)) continue;
          if (this.sideOf(f, px, py, pz) !== q.side) return true;
        }
        return false;
      },
    };
    return q;
  }

  /**
   * Which side of the reference p is on at face f's nearest point: +1 when (p - q) . n >= 0, with
   * n the normal of the feature q lies on; points within rounding of the surface are +1.
   */
  private sideOf(f: number, px: number, py: number, pz: number): 1 | -1 {
    if (this.faceSideStamp[f] === this.stamp) return this.faceSide[f]! as 1 | -1;
    const side = this.computeSide(f, px, py, pz);
    this.faceSide[f] = side;
    this.faceSideStamp[f] = this.stamp;
    return side;
  }

  private computeSide(f: number, px: number, py: number, pz: number): 1 | -1 {
    const qx = this.facePoint[3 * f]!, qy = this.facePoint[3 * f + 1]!, qz = this.facePoint[3 * f + 2]!;
    const kind = this.faceKind[f]!;
    let nx: number, ny: number, nz: number;
    if (kind === FootKind.face) {
      nx = this.faceNormal[3 * f]!;
      ny = this.faceNormal[3 * f + 1]!;
      nz = this.faceNormal[3 * f + 2]!;
    } else if (kind === FootKind.edge) {
      this.edgePseudoNormal(this.faceEntity[f]!, this.faceParam[2 * f]!, nScratch);
      nx = nScratch[0]!;
      ny = nScratch[1]!;
      nz = nScratch[2]!;
    } else {
      const v = this.faceEntity[f]!;
      nx = this.vertexNormals[3 * v]!;
      ny = this.vertexNormals[3 * v + 1]!;
      nz = this.vertexNormals[3 * v + 2]!;
    }
    const len = Math.hypot(nx, ny, nz);
    const s = (px - qx) * nx + (py - qy) * ny + (pz - qz) * nz;
    return s >= -SIDE_EPS * this.diagonal * len ? 1 : -1;
  }

  /** Sum of the outward normals of the faces along an edge at parameter t (not unit length). */
  private edgePseudoNormal(e: number, t: number, out: Float64Array): void {
    const edge = this.geometry.edges[e]!;
    out[0] = out[1] = out[2] = 0;
    for (let k = 0; k < edge.faces.length; k++) {
      const f = edge.faces[k]!;
      // A seam lists its face twice; count the face once.
      if (edge.faces.indexOf(f) !== k) continue;
      this.normalOnEdge(f, edge.pcurves[k]!, t, nScratch2);
      out[0] += nScratch2[0]!;
      out[1] += nScratch2[1]!;
      out[2] += nScratch2[2]!;
    }
  }

  /** Outward unit normal of face f at the edge point of parameter t (through the edge's pcurve on f). */
  private normalOnEdge(f: number, pcurve: Curve, t: number, out: Float64Array): void {
    evaluateCurve(pcurve, t, pcOut);
    const face = this.geometry.faces[f]!;
    const u = pcOut[0]!, v = pcOut[1]!;
    evaluateSurface(face.surface, u, v, sev, this.kernel);
    // Where the surface degenerates on the edge (a pole), the normal a little way into the face.
    const cu = face.trim ? (face.trim.uMin + face.trim.uMax) / 2 : u, cv = face.trim ? (face.trim.vMin + face.trim.vMax) / 2 : v;
    unitNormal(face.surface, sev, u, v, cu, cv, out, this.kernel);
    if (face.reversed) {
      out[0] = -out[0]!;
      out[1] = -out[1]!;
      out[2] = -out[2]!;
    }
  }

  /**
   * Brings face f's nearest point up to date for a search bounded by `bound`, through the
   * triangle in slot s: evaluates the face when this triangle could hold a point nearer than the
   * bound and the face is not known yet (or was cut off by a smaller bound); re-evaluates a spline
   * face from this triangle when it is nearer than the triangle the face was started from, keeping
   * the nearer result (Newton's method finds the minimum of the basin it starts in, and a face such
   * as a thread can hold several).
   */
  private visitSlot(s: number, f: number, px: number, py: number, pz: number, bound: number): void {
    const known = this.faceStamp[f] === this.stamp && (this.faceDist[f]! < this.faceLimit[f]! || this.faceLimit[f]! >= bound);
    // A known face found in closed form needs nothing more from its other triangles.
    if (known && !this.newtonFace[f]) return;
    const dt = Math.sqrt(closestPointOnTriangle(this.bvh.slotCorners, 9 * s, px, py, pz, triOut));
    if (!(dt - this.slotError[s]! < bound)) return;
    if (!known) {
      this.evaluateFace(f, s, px, py, pz, bound);
      this.faceStart[f] = dt;
      return;
    }
    if (!(dt < this.faceStart[f]! - 1e-12 * this.diagonal)) return;
    this.faceStart[f] = dt;
    this.saveFace(f);
    this.evaluateFace(f, s, px, py, pz, Math.max(bound, this.saved[0]!));
    if (!(this.faceDist[f]! < this.saved[0]!)) this.restoreFace(f);
  }

  private readonly saved = new Float64Array(14);

  private saveFace(f: number): void {
    const v = this.saved;
    v[0] = this.faceDist[f]!;
    v[1] = this.faceLimit[f]!;
    for (let k = 0; k < 3; k++) {
      v[2 + k] = this.facePoint[3 * f + k]!;
      v[5 + k] = this.faceNormal[3 * f + k]!;
    }
    v[8] = this.faceKind[f]!;
    v[9] = this.faceEntity[f]!;
    v[10] = this.faceParam[2 * f]!;
    v[11] = this.faceParam[2 * f + 1]!;
    v[12] = this.faceEdge[f]!;
    v[13] = this.normalReady[f]!;
  }

  private restoreFace(f: number): void {
    const v = this.saved;
    this.faceDist[f] = v[0]!;
    this.faceLimit[f] = v[1]!;
    for (let k = 0; k < 3; k++) {
      this.facePoint[3 * f + k] = v[2 + k]!;
      this.faceNormal[3 * f + k] = v[5 + k]!;
    }
    this.faceKind[f] = v[8]!;
    this.faceEntity[f] = v[9]!;
    this.faceParam[2 * f] = v[10]!;
    this.faceParam[2 * f + 1] = v[11]!;
    this.faceEdge[f] = v[12]!;
    this.normalReady[f] = v[13]!;
    this.faceSideStamp[f] = 0;
  }

  /**
   * Face f's nearest point to p, from the triangle in BVH slot s (its closest point is in triOut):
   * the foot on the face's surface when it lies inside the trims, else the nearest point of the
   * face's edges (those whose box is nearer than `limit`; a result at or beyond `limit` may miss
   * edges that are farther). Stores the result in the per-face query arrays.
   */
  private evaluateFace(f: number, s: number, px: number, py: number, pz: number, limit: number): void {
    const face = this.geometry.faces[f]!;
    if (this.faceStamp[f] !== this.stamp) this.evaluated[this.evaluatedCount++] = f;
    this.faceStamp[f] = this.stamp;
    this.faceSideStamp[f] = 0;
    this.faceLimit[f] = limit;
    // Start (u, v): the barycentric interpolation of the triangle's node parameters at its closest point.
    const t = this.bvh.slotTriangle[s]!;
    startUv(this.mesh, t, triOut[0]!, triOut[1]!, triOut[2]!, uvStart);
    let u0 = uvStart[0]!, v0 = uvStart[1]!;
    if (!(Number.isFinite(u0) && Number.isFinite(v0))) {
      // A triangulation without (u, v) nodes: start from the middle of the face's domain.
      u0 = face.trim ? (face.trim.uMin + face.trim.uMax) / 2 : 0;
      v0 = face.trim ? (face.trim.vMin + face.trim.vMax) / 2 : 0;
    }
    uv[0] = u0;
    uv[1] = v0;
    // `local`: the foot is only a local minimum of the surface, so the face's boundary can hold a nearer point.
    let inside: boolean, evaluated: boolean, local: boolean;
    if (projectElementary(face.surface, px, py, pz, u0, uv)) {
      evaluated = false;
      inside = this.insideFace(face, u0, v0);
      local = false;
      // The surface's nearest point lies outside the trims; its other local minimum (a cone's
      // mirrored line, a torus's far circle) can lie inside the face, nearer than its boundary.
      if (!inside && projectElementary(face.surface, px, py, pz, u0, uv, true)) inside = local = this.insideFace(face, u0, v0);
    } else {
      inside = projectNewton(face.surface, px, py, pz, face.box, uv, this.kernel) && this.insideFace(face, u0, v0);
      evaluated = true;
      local = true;
    }
    if (inside) {
      const u = uv[0]!, v = uv[1]!;
      // Newton's last evaluation is the foot's (a whole period away where insideFace moved it).
      if (evaluated) sev.set(lastProjection);
      else evaluateSurface(face.surface, u, v, sev, this.kernel);
      const dx = px - sev[0]!, dy = py - sev[1]!, dz = pz - sev[2]!;
      this.faceDist[f] = Math.sqrt(dx * dx + dy * dy + dz * dz);
      this.facePoint[3 * f] = sev[0]!;
      this.facePoint[3 * f + 1] = sev[1]!;
      this.facePoint[3 * f + 2] = sev[2]!;
      this.faceKind[f] = FootKind.face;
      this.faceEntity[f] = -1;
      this.faceParam[2 * f] = u;
      this.faceParam[2 * f + 1] = v;
      unitNormal(face.surface, sev, u, v, u0, v0, nScratch, this.kernel);
      this.normalReady[f] = 1;
      this.faceEdge[f] = -1;
      const sign = face.reversed ? -1 : 1;
      this.faceNormal[3 * f] = sign * nScratch[0]!;
      this.faceNormal[3 * f + 1] = sign * nScratch[1]!;
      this.faceNormal[3 * f + 2] = sign * nScratch[2]!;
      // A closed form's nearest point is the nearest of the whole surface; Newton's (or a closed
      // form's other minimum) is only a local one, and the face's boundary can hold a nearer point
      // (an open shell's edge, a saddle-shaped patch).
      if (local && this.boundaryCouldBeNearer(face, px, py, pz, this.faceDist[f]!)) {
        this.saveFace(f);
        this.nearestOnBoundary(f, face, px, py, pz, this.saved[0]!);
        if (!(this.faceDist[f]! < this.saved[0]!)) this.restoreFace(f);
      }
      return;
    }
    this.nearestOnBoundary(f, face, px, py, pz, limit);
  }

  private boundaryCouldBeNearer(face: ExactFace, px: number, py: number, pz: number, d: number): boolean {
    const edges = this.geometry.edges;
    for (let k = 0; k < face.edges.length; k++) {
      const e = face.edges[k]!;
      if (this.edgeStamp[e] === this.stamp ? this.edgeDist[e]! < d : boxDistance(edges[e]!.box, px, py, pz) < d) return true;
    }
    return false;
  }

  /**
   * Whether the foot in uv (moved by whole periods next to the start where the face is periodic)
   * is inside the face's trims. Leaves the accepted representative in uv.
   */
  private insideFace(face: ExactFace, u0: number, v0: number): boolean {
    const trim = face.trim;
    if (face.uPeriod > 0) uv[0] = nearestPeriod(uv[0]!, u0, face.uPeriod);
    if (face.vPeriod > 0) uv[1] = nearestPeriod(uv[1]!, v0, face.vPeriod);
    if (!trim) return true;
    if (insideTrim(trim, uv[0]!, uv[1]!)) return true;
    // The start can sit a period away from the foot across a seam: try the neighbouring periods.
    const pu = face.uPeriod, pv = face.vPeriod;
    for (let i = pu > 0 ? -1 : 0; i <= (pu > 0 ? 1 : 0); i++) {
      for (let j = pv > 0 ? -1 : 0; j <= (pv > 0 ? 1 : 0); j++) {
        if (i === 0 && j === 0) continue;
        if (insideTrim(trim, uv[0]! + i * pu, uv[1]! + j * pv)) {
          uv[0] = uv[0]! + i * pu;
          uv[1] = uv[1]! + j * pv;
          return true;
        }
      }
    }
    return false;
  }

  /** The nearest point of face f's edges (and so of its vertices) to p. */
  private nearestOnBoundary(f: number, face: ExactFace, px: number, py: number, pz: number, limit: number): void {
    let best = Infinity, bestEdge = -1;
    const edges = this.geometry.edges;
    for (let k = 0; k < face.edges.length; k++) {
      const e = face.edges[k]!;
      if (this.edgeStamp[e] !== this.stamp) {
        const edge = edges[e]!;
        const lb = boxDistance(edge.box, px, py, pz);
        if (!(lb < limit) || !(lb < best)) continue;
        this.projectEdge(e, px, py, pz);
      }
      const d = this.edgeDist[e]!;
      if (d < best) {
        best = d;
        bestEdge = e;
      }
    }
    this.faceDist[f] = best;
    if (bestEdge < 0) {
      this.faceEdge[f] = -1;
      this.normalReady[f] = 1;
      this.faceKind[f] = FootKind.none;
      this.faceEntity[f] = -1;
      this.faceNormal[3 * f] = this.faceNormal[3 * f + 1] = this.faceNormal[3 * f + 2] = 0;
      return;
    }
    const edge = edges[bestEdge]!;
    const t = this.edgeParam[bestEdge]!;
    this.facePoint[3 * f] = this.edgePoint[3 * bestEdge]!;
    this.facePoint[3 * f + 1] = this.edgePoint[3 * bestEdge + 1]!;
    this.facePoint[3 * f + 2] = this.edgePoint[3 * bestEdge + 2]!;
    this.faceParam[2 * f] = t;
    const atStart = t <= edge.t0 && edge.v0 >= 0, atEnd = t >= edge.t1 && edge.v1 >= 0;
    if (atStart || atEnd) {
      this.faceKind[f] = FootKind.vertex;
      this.faceEntity[f] = atStart ? edge.v0 : edge.v1;
    } else {
      this.faceKind[f] = FootKind.edge;
      this.faceEntity[f] = bestEdge;
    }
    // The face's normal at a boundary foot is computed when a sign rule asks for it (ensureNormal).
    this.faceEdge[f] = bestEdge;
    this.normalReady[f] = 0;
  }

  /** Face f's outward normal at its boundary foot, through the edge's pcurve on f, computed once. */
  private ensureNormal(f: number): void {
    if (this.normalReady[f]) return;
    this.normalReady[f] = 1;
    const e = this.faceEdge[f]!;
    if (e < 0) return;
    const edge = this.geometry.edges[e]!;
    this.normalOnEdge(f, edge.pcurves[edge.faces.indexOf(f)]!, this.faceParam[2 * f]!, nScratch);
    this.faceNormal[3 * f] = nScratch[0]!;
    this.faceNormal[3 * f + 1] = nScratch[1]!;
    this.faceNormal[3 * f + 2] = nScratch[2]!;
  }

  /** Projects p onto edge e (once per query), from the nearest vertex of its polyline. */
  private projectEdge(e: number, px: number, py: number, pz: number): void {
    const edge = this.geometry.edges[e]!;
    const P = edge.points, T = edge.params;
    let bestSeg = 0, bestD = Infinity, bestS = 0;
    for (let i = 0; i + 1 < T.length; i++) {
      const ax = P[3 * i]!, ay = P[3 * i + 1]!, az = P[3 * i + 2]!;
      const ex = P[3 * i + 3]! - ax, ey = P[3 * i + 4]! - ay, ez = P[3 * i + 5]! - az;
      const len2 = ex * ex + ey * ey + ez * ez;
      let s = len2 > 0 ? ((px - ax) * ex + (py - ay) * ey + (pz - az) * ez) / len2 : 0;
      s = s < 0 ? 0 : s > 1 ? 1 : s;
      const d = (ax + s * ex - px) ** 2 + (ay + s * ey - py) ** 2 + (az + s * ez - pz) ** 2;
      if (d < bestD) {
        bestD = d;
        bestSeg = i;
        bestS = s;
      }
    }
    const tStart = T.length > 1 ? T[bestSeg]! + bestS * (T[bestSeg + 1]! - T[bestSeg]!) : edge.t0;
    const t = projectOnCurve(edge.curve, px, py, pz, edge.t0, edge.t1, tStart);
    // At an end the foot is the vertex, whose point (BRep_Tool::Pnt) can differ from the curve's end within tolerance.
    const v = t <= edge.t0 ? edge.v0 : t >= edge.t1 ? edge.v1 : -1;
    let x: number, y: number, z: number;
    if (v >= 0) {
      const V = this.geometry.vertices;
      x = V[3 * v]!;
      y = V[3 * v + 1]!;
      z = V[3 * v + 2]!;
    } else {
      evaluateCurve(edge.curve, t, cev);
      x = cev[0]!;
      y = cev[1]!;
      z = cev[2]!;
    }
    this.edgeStamp[e] = this.stamp;
    this.edgeParam[e] = t;
    this.edgePoint[3 * e] = x;
    this.edgePoint[3 * e + 1] = y;
    this.edgePoint[3 * e + 2] = z;
    this.edgeDist[e] = Math.hypot(x - px, y - py, z - pz);
  }
}

/** Points within this share of the diagonal of the surface (along its normal) count as on it: side +1. */
const SIDE_EPS = 1e-12;

const triOut = new Float64Array(4);
const filterNormal = new Float64Array(3);
const uvStart = new Float64Array(2);
const uv = new Float64Array(2);
const sev = new Float64Array(18);
const cev = new Float64Array(9);
const pcOut = new Float64Array(6);
const nScratch = new Float64Array(3);
const nScratch2 = new Float64Array(3);
/** Lower bound of the distance to a node's exact surface: box distance minus its chord error. */
function lowerBound(boxDistSq: number, err: number): number {
  return Math.sqrt(boxDistSq) - err;
}

function boxDistance(b: Float64Array, px: number, py: number, pz: number): number {
  const dx = Math.max(b[0]! - px, 0, px - b[3]!);
  const dy = Math.max(b[1]! - py, 0, py - b[4]!);
  const dz = Math.max(b[2]! - pz, 0, pz - b[5]!);
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/** x moved by whole periods to the representative nearest to `near`. */
function nearestPeriod(x: number, near: number, period: number): number {
  return x + period * Math.round((near - x) / period);
}

/** (u, v) at point q of triangle t by barycentric interpolation of its nodes' parameters. */
function startUv(mesh: FaceTessellation, t: number, qx: number, qy: number, qz: number, out: Float64Array): void {
  const idx = mesh.indices, pos = mesh.positions, uvs = mesh.uvs;
  const a = idx[3 * t]!, b = idx[3 * t + 1]!, c = idx[3 * t + 2]!;
  const ax = pos[3 * a]!, ay = pos[3 * a + 1]!, az = pos[3 * a + 2]!;
  const e0x = pos[3 * b]! - ax, e0y = pos[3 * b + 1]! - ay, e0z = pos[3 * b + 2]! - az;
  const e1x = pos[3 * c]! - ax, e1y = pos[3 * c + 1]! - ay, e1z = pos[3 * c + 2]! - az;
  const e2x = qx - ax, e2y = qy - ay, e2z = qz - az;
  const d00 = e0x * e0x + e0y * e0y + e0z * e0z, d01 = e0x * e1x + e0y * e1y + e0z * e1z, d11 = e1x * e1x + e1y * e1y + e1z * e1z;
  const d20 = e2x * e0x + e2y * e0y + e2z * e0z, d21 = e2x * e1x + e2y * e1y + e2z * e1z;
  const den = d00 * d11 - d01 * d01;
  let beta = 1 / 3, gamma = 1 / 3;
  if (den > 0) {
    beta = (d11 * d20 - d01 * d21) / den;
    gamma = (d00 * d21 - d01 * d20) / den;
  }
  const alpha = 1 - beta - gamma;
  out[0] = alpha * uvs[2 * a]! + beta * uvs[2 * b]! + gamma * uvs[2 * c]!;
  out[1] = alpha * uvs[2 * a + 1]! + beta * uvs[2 * b + 1]! + gamma * uvs[2 * c + 1]!;
}

/**
 * The angle-weighted normal at each BREP vertex, read from the tessellation's welded
 * pseudo-normals at the vertex's node (every face's triangulation has a node there).
 */
function vertexPseudoNormals(geometry: ExactGeometry, bvh: TriangleBvh, pn: PseudoNormals): Float64Array {
  const V = geometry.vertices.length / 3;
  const out = new Float64Array(3 * V);
  const hit = createHit();
  const n = new Float64Array(3);
  for (let v = 0; v < V; v++) {
    closestPoint(bvh, geometry.vertices[3 * v]!, geometry.vertices[3 * v + 1]!, geometry.vertices[3 * v + 2]!, hit);
    if (hit.triangle < 0) continue;
    pn.featureNormal(hit.triangle, hit.feature, n);
    out.set(n, 3 * v);
  }
  return out;
}
