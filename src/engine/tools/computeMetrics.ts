import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { z } from 'zod';
import { topAbs, withKernel, type OC, type Own } from '../kernel';
import { symmetricEigen3 } from '../math/symmetricEigen';
import { boxDiagonal, cross, type Box3, type Vec3 } from '../math/vec3';
import { meshBox, meshMassProperties } from '../mesh/meshProperties';
import type { MeshTopology } from '../mesh/meshTopology';
import type { Body, PointsBody } from '../scene/Body';
import { BrepscopeError } from '../errors';
import { cloudBox } from '../deviation/cloud';
import { defineTool } from './defineTool';
import { bodyIdSchema } from './schemas';
import { warning, type ToolWarning } from '../warnings';
import { closedSolidsBesideSurfaces, isClosedShape, type SolidsBeside } from '../scene/solidsBeside';

export const METRICS = ['volume', 'surfaceArea', 'centerOfMass', 'boundingBox', 'boundingBoxOptimal', 'principalAxes'] as const;
export type Metric = (typeof METRICS)[number];
const DEFAULT_METRICS = METRICS.filter((m) => m !== 'boundingBoxOptimal');

const schema = z.strictObject({
  bodyId: bodyIdSchema.describe('Body to measure'),
  metrics: z
    .array(z.enum(METRICS))
    .optional()
    .describe('Subset of volume, surfaceArea, centerOfMass, boundingBox, boundingBoxOptimal, principalAxes. Default (or empty): all except boundingBoxOptimal'),
});

export interface MetricsResult {
  volume?: number | null;
  surfaceArea?: number;
  centerOfMass?: Vec3;
  boundingBox?: Box3;
  boundingBoxOptimal?: Box3;
  principalAxes?: [Vec3, Vec3, Vec3];
  warnings: ToolWarning[];
}

/** What both body kinds provide before the result is assembled. */
interface RawProperties {
  closed: boolean;
  /** Why the body encloses no volume (when not closed): the sentence the warnings give. */
  openReason: string;
  /** Set when volume, centre and inertia are its closed solids' alone (open surfaces beside them): the warning's sentence. */
  solidsOnly?: string;
  volume: number;
  area: number;
  /** Centre and inertia of the solid when closed, of the surface otherwise. */
  centre: Vec3;
  inertia: number[];
  /** Null when the shape has nothing to bound (OCCT's Bnd_Box is void: no geometry at all). */
  box: () => Box3 | null;
  optimalBox: () => Box3 | null;
  /** A box inside the tight one (of points on the shape), or null when there is none to hand. */
  innerBox: () => Box3 | null;
}

export const computeMetrics = defineTool({
  name: 'compute_metrics',
  description:
    'Exact physical properties of a body (unit density): volume, surface area, centre of mass, axis-aligned bounding box (boundingBox encloses B-spline control hulls, with a warning when it stands off the tight box by more than 1% of the diagonal; boundingBoxOptimal is tight and must be asked for) and principal axes of inertia (ascending moment).',
  category: 'scene',
  schema,
  async run(args, ctx) {
    const body = ctx.scene.get(args.bodyId);
    if (body.kind === 'points') return cloudMetrics(body, args.metrics ?? []);
    const wanted = new Set<Metric>(args.metrics?.length ? args.metrics : DEFAULT_METRICS);
    if (body.kind === 'mesh') return assemble(meshProperties(body), wanted, 'mesh');
    const oc = await ctx.kernel();
    return withKernel(oc, (own) => assemble(brepProperties(oc, own, body.shape), wanted, 'shape'));
  },
});

/** What a point cloud answers: its points' box and centroid; a cloud has no volume, area or inertia of a solid. */
const CLOUD_METRICS: readonly Metric[] = ['boundingBox', 'centerOfMass', 'boundingBoxOptimal'];

/**
 * compute_metrics of a point cloud: boundingBox (and boundingBoxOptimal, the same box: a box of
 * points is tight) and centerOfMass (the mean of the points, each weighing the same). Asked for
 * volume, surfaceArea or principalAxes it refuses with POINT_CLOUD_UNSUPPORTED rather than give a
 * number; asked for nothing in particular it gives what it can, with a warning saying what it left out.
 */
function cloudMetrics(body: PointsBody, asked: readonly Metric[]): MetricsResult {
  const refused = asked.filter((m) => !CLOUD_METRICS.includes(m));
  if (refused.length) {
    throw new BrepscopeError(
      'POINT_CLOUD_UNSUPPORTED',
      `compute_metrics: body '${body.bodyId}' is a point cloud (${body.cloud.count} points): ${refused.join(', ')} need${refused.length === 1 ? 's' : ''} a surface or a solid, which a cloud does not have; a cloud gives boundingBox and centerOfMass (of its points)`,
      { bodyId: body.bodyId, metrics: refused },
    );
  }
  const wanted = new Set<Metric>(asked.length ? asked : ['boundingBox', 'centerOfMass']);
  const { positions, count } = body.cloud;
  const result: MetricsResult = { warnings: [] };
  if (!asked.length) result.warnings.push(warning('POINT_CLOUD_METRICS', 'a point cloud has no volume, surface area or inertia: only boundingBox and centerOfMass (of the points) are given'));
  if (wanted.has('centerOfMass')) {
    let x = 0, y = 0, z = 0;
    for (let i = 0; i < positions.length; i += 3) {
      x += positions[i]!;
      y += positions[i + 1]!;
      z += positions[i + 2]!;
    }
    result.centerOfMass = [x / count, y / count, z / count];
  }
  const box = (): Box3 => {
    const b = cloudBox(body);
    return { min: [...b.min], max: [...b.max] };
  };
  if (wanted.has('boundingBox')) result.boundingBox = box();
  if (wanted.has('boundingBoxOptimal')) result.boundingBoxOptimal = box();
  return result;
}

function assemble(raw: RawProperties, wanted: Set<Metric>, noun: string): MetricsResult {
  refuseOverflow(raw, wanted, noun);
  const result: MetricsResult = { warnings: [] };
  const openNote = raw.openReason;
  if (raw.solidsOnly && (wanted.has('volume') || wanted.has('centerOfMass') || wanted.has('principalAxes'))) result.warnings.push(warning('OPEN_SURFACES_BESIDE_SOLIDS', raw.solidsOnly));
  if (wanted.has('volume')) {
    if (raw.closed) {
      result.volume = raw.volume;
      if (raw.volume < 0) result.warnings.push(warning('INSIDE_OUT', `volume is negative: the ${noun} is oriented inside out`));
    } else {
      result.volume = null;
      result.warnings.push(warning('NOT_CLOSED', `volume is null: ${openNote}, so it encloses no volume`));
    }
  }
  if (wanted.has('surfaceArea')) result.surfaceArea = raw.area;
  if (wanted.has('centerOfMass')) {
    result.centerOfMass = raw.centre;
    if (!raw.closed) result.warnings.push(warning('NOT_CLOSED', `centerOfMass is the centroid of the surface area: ${openNote}`));
  }
  const voidBox = (key: string): ToolWarning => warning('VOID_BOUNDING_BOX', `${key} is left out: the ${noun} has no geometry to bound (its box is void)`);
  const loose = wanted.has('boundingBox') ? raw.box() : null;
  if (wanted.has('boundingBox') && !loose) result.warnings.push(voidBox('boundingBox'));
  if (loose) {
    result.boundingBox = loose;
    // The tight box costs a second or two on a B-spline-rich part (AddOptimal); a box of points on the
    // shape's edges lies inside it, so when even that one is within 1% the tight one is too.
    const inner = raw.innerBox();
    const tight = inner && !looseBoxExcess(loose, inner) ? null : raw.optimalBox();
    const excess = tight && looseBoxExcess(loose, tight);
    if (excess) {
      result.warnings.push(
        warning('LOOSE_BOUNDING_BOX', `boundingBox encloses B-spline control points and extends up to ${excess.distance.toPrecision(4)} (${(100 * excess.fraction).toFixed(1)}% of the diagonal) beyond the tight box: ask for boundingBoxOptimal for the true extents`),
      );
    }
  }
  if (wanted.has('boundingBoxOptimal')) {
    const tight = raw.optimalBox();
    if (tight) result.boundingBoxOptimal = tight;
    else result.warnings.push(voidBox('boundingBoxOptimal'));
  }
  if (wanted.has('principalAxes')) {
    result.principalAxes = principalAxes(raw.inertia);
    if (!raw.closed) result.warnings.push(warning('NOT_CLOSED', `principalAxes are those of the surface (uniform shell): ${openNote}`));
  }
  return result;
}

/**
 * Volume grows as the cube of the coordinates, the inertia as their fifth power: past about 1e61
 * (inertia), 1e102 (volume) or 1e154 (area) they leave double precision, and JSON turned the
 * Infinity or NaN into a silent null. A metric asked for that cannot be represented is an error.
 */
function refuseOverflow(raw: RawProperties, wanted: Set<Metric>, noun: string): void {
  const finite = (values: readonly number[]): boolean => values.every((v) => Number.isFinite(v));
  const lost: Metric[] = [];
  if (wanted.has('volume') && raw.closed && !finite([raw.volume])) lost.push('volume');
  if (wanted.has('surfaceArea') && !finite([raw.area])) lost.push('surfaceArea');
  if (wanted.has('centerOfMass') && !finite(raw.centre)) lost.push('centerOfMass');
  if (wanted.has('principalAxes') && !finite(raw.inertia)) lost.push('principalAxes');
  if (!lost.length) return;
  const box = raw.box();
  const reach = box ? Math.max(...box.min.map(Math.abs), ...box.max.map(Math.abs)) : NaN;
  throw new BrepscopeError(
    'INVALID_GEOMETRY',
    `compute_metrics: ${lost.join(', ')} of the ${noun} cannot be represented in double precision: its coordinates reach ${reach.toPrecision(3)} (ask for boundingBox alone, or scale the ${noun})`,
  );
}

/** The spec's box is warned about when one of its faces stands off the tight box's by more than this share of the tight diagonal. */
export const LOOSE_BOX_WARNING = 0.01;

/** How far the loose box's faces stand off the tight box's (the largest of the six), when above LOOSE_BOX_WARNING of the diagonal. */
function looseBoxExcess(loose: Box3, tight: Box3): { distance: number; fraction: number } | null {
  let distance = 0;
  for (let k = 0; k < 3; k++) distance = Math.max(distance, tight.min[k]! - loose.min[k]!, loose.max[k]! - tight.max[k]!);
  const diagonal = boxDiagonal(tight);
  const fraction = diagonal > 0 ? distance / diagonal : 0;
  return fraction > LOOSE_BOX_WARNING ? { distance, fraction } : null;
}

/** Eigenvectors of the inertia tensor, ascending moment, signs fixed so results are reproducible. */
export function principalAxes(inertia: number[]): [Vec3, Vec3, Vec3] {
  const { vectors } = symmetricEigen3(inertia);
  const a = canonicalSign(vectors[0]);
  const b = canonicalSign(vectors[1]);
  return [a, b, cross(a, b)];
}

/** Flips a vector so that its largest-magnitude component is positive. */
function canonicalSign(v: Vec3): Vec3 {
  let k = 0;
  for (let i = 1; i < 3; i++) if (Math.abs(v[i]!) > Math.abs(v[k]!) + 1e-12) k = i;
  return v[k]! < 0 ? [-v[0] || 0, -v[1] || 0, -v[2] || 0] : v;
}

function meshProperties(body: Extract<Body, { kind: 'mesh' }>): RawProperties {
  const props = meshMassProperties(body.mesh);
  const closed = body.topology.watertight;
  const box = meshBox(body.mesh);
  return {
    closed,
    openReason: meshOpenReason(body.topology),
    volume: props.volume,
    area: props.area,
    centre: closed ? props.volumeCentroid : props.areaCentroid,
    inertia: closed ? props.volumeInertia : props.areaInertia,
    box: () => box,
    optimalBox: () => box,
    innerBox: () => box,
  };
}

/** What keeps a mesh from enclosing a volume, worst first: each defect named for what it is. */
function meshOpenReason(t: MeshTopology): string {
  const reasons: string[] = [];
  if (t.boundaryEdges > 0) reasons.push(`the mesh is not closed (${t.boundaryEdges} boundary edge(s))`);
  if (t.nonManifoldEdges > 0) reasons.push(`the mesh is not manifold (${t.nonManifoldEdges} edge(s) shared by more than two triangles)`);
  if (t.inconsistentEdges > 0) reasons.push(`the mesh's winding is inconsistent (${t.inconsistentEdges} edge(s) run the same way in both their triangles)`);
  if (t.triangles === 0) reasons.push('the mesh has no triangles');
  else if (t.degenerateTriangles === t.triangles) reasons.push(`every triangle of the mesh is degenerate (${t.triangles} of zero area)`);
  return reasons.join(' and ') || 'the mesh is not closed';
}

/**
 * Relative error target of OCCT's adaptive integration. The default fixed-order Gauss rule
 * (VolumeProperties_1) is off by 5e-5 of the volume on bottle.brep and 4e-4 on a NURBS sphere;
 * the adaptive rule converges to about 1e-9 for 1.3 to 2.5 times the time.
 */
export const INTEGRATION_EPS = 1e-9;

function once<T>(compute: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: compute() }).v;
}

function brepProperties(oc: OC, own: Own, shape: TopoDS_Shape): RawProperties {
  const wholeClosed = isClosedShape(oc, own, shape);
  const found = wholeClosed ? null : closedSolidsBesideSurfaces(oc, own, shape);
  const beside = found && { solids: found.solids, sentence: solidsOnlySentence(found.beside) };
  const closed = wholeClosed || beside !== null;
  const surface = own(new oc.GProp_GProps_1());
  oc.BRepGProp.SurfaceProperties_2(shape, surface, INTEGRATION_EPS, false);
  let mass = surface;
  if (closed) {
    mass = own(new oc.GProp_GProps_1());
    oc.BRepGProp.VolumeProperties_2(beside?.solids ?? shape, mass, INTEGRATION_EPS, false, false);
  }
  const centre = own(mass.CentreOfMass());
  const matrix = own(mass.MatrixOfInertia());
  const inertia: number[] = [];
  for (let r = 1; r <= 3; r++) for (let c = 1; c <= 3; c++) inertia.push(matrix.Value(r, c));
  return {
    closed,
    openReason: 'the shape is not closed',
    ...(beside ? { solidsOnly: beside.sentence } : {}),
    volume: closed ? mass.Mass() : 0,
    area: surface.Mass(),
    centre: [centre.X(), centre.Y(), centre.Z()],
    inertia,
    box: () => shapeBox(oc, shape, false),
    optimalBox: once(() => shapeBox(oc, shape, true)),
    innerBox: () => edgePointBox(oc, shape),
  };
}

/**
 * Axis-aligned box from the exact geometry (never the triangulation). Add encloses B-spline control
 * hulls; AddOptimal projects onto the geometry. The tolerance gap OCCT adds is removed, so a box
 * reports its true extents. Null when there is nothing to bound.
 */
function shapeBox(oc: OC, shape: TopoDS_Shape, optimal: boolean): Box3 | null {
  return withKernel(oc, (own) => {
    const box = own(new oc.Bnd_Box_1());
    if (optimal) oc.BRepBndLib.AddOptimal(shape, box, false, false);
    else oc.BRepBndLib.Add(shape, box, false);
    // A shape without geometry (an empty solid, a face whose surface did not transfer): CornerMin would throw.
    if (box.IsVoid()) return null;
    box.SetGap(0);
    const min = own(box.CornerMin());
    const max = own(box.CornerMax());
    return { min: [min.X(), min.Y(), min.Z()], max: [max.X(), max.Y(), max.Z()] };
  });
}

/** The box of points sampled on the shape's edges (and its vertices): inside the tight box. Null for a shape without them. */
function edgePointBox(oc: OC, shape: TopoDS_Shape): Box3 | null {
  return withKernel(oc, (own) => {
    const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
    const P = own(new oc.gp_Pnt_1());
    const take = () => {
      const p = [P.X(), P.Y(), P.Z()];
      for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k]!, p[k]!);
        max[k] = Math.max(max[k]!, p[k]!);
      }
    };
    for (const explorer = own(new oc.TopExp_Explorer_2(shape, topAbs(oc, 'EDGE'), topAbs(oc, 'SHAPE'))); explorer.More(); explorer.Next()) {
      const edge = own(oc.TopoDS.Edge_1(own(explorer.Current())));
      if (oc.BRep_Tool.Degenerated(edge)) continue;
      const curve = own(new oc.BRepAdaptor_Curve_2(edge));
      const t0 = curve.FirstParameter(), t1 = curve.LastParameter();
      if (!Number.isFinite(t0) || !Number.isFinite(t1)) continue;
      for (let k = 0; k <= 16; k++) {
        curve.D0(t0 + ((t1 - t0) * k) / 16, P);
        take();
      }
    }
    return min[0] <= max[0] ? { min, max } : null;
  });
}

function solidsOnlySentence(beside: SolidsBeside): string {
  return `volume, centerOfMass and principalAxes are those of the ${beside.solids} closed solid(s): ${beside.outside} face(s) outside any solid form open surfaces, which enclose nothing (surfaceArea includes them)`;
}
