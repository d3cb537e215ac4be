import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type OC } from '../engine/kernel';
import { cylinder, flipWinding, mergeMeshes } from '../engine/mesh/generators';
import type { TriMesh } from '../engine/mesh/TriMesh';
import { weldVertexIds } from '../engine/mesh/weld';
import { MeshBody } from '../engine/scene/Body';
import type { Scene } from '../engine/scene/Scene';
import { addShapeBody } from '../engine/scene/addShapeBody';
import { makeSphere } from './kernelShapes';

/**
 * Adds a mesh as an STL body, welded by exact coordinates as STL import does, but with float64
 * coordinates kept exactly (no file round trip).
 */
export function addMeshBody(scene: Scene, bodyId: string, input: TriMesh): MeshBody {
  const { ids, count } = weldVertexIds(input.positions);
  const positions = new Float64Array(3 * count);
  for (let v = 0; v < ids.length; v++) positions.set(input.positions.subarray(3 * v, 3 * v + 3), 3 * ids[v]!);
  const mesh: TriMesh = { positions, indices: input.indices.map((i) => ids[i]!) };
  const body = new MeshBody({ bodyId, name: bodyId, sourceFormat: 'stl', source: undefined }, mesh);
  scene.add(body);
  return body;
}

/** The exact offset of a shape by d (BRepOffsetAPI_MakeOffsetShape, arc joins: rounded edges). */
export function offsetShape(oc: OC, shape: TopoDS_Shape, d: number): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const maker = own(new oc.BRepOffsetAPI_MakeOffsetShape());
    maker.PerformByJoin(
      shape,
      d,
      1e-7,
      oc.BRepOffset_Mode.BRepOffset_Skin as never,
      false,
      false,
      oc.GeomAbs_JoinType.GeomAbs_Arc as never,
      false,
      own(new oc.Message_ProgressRange_1()),
    );
    if (!maker.IsDone()) throw new Error('offset failed');
    return maker.Shape();
  });
}

export const THIN_HEIGHT = 40;

/**
 * The spec's thin-walled case: an open reference skin of two concentric open cylinders (r = 10
 * facing out, r = 8 facing in) and an open candidate skin r = 5.5 facing out, one axis, one height.
 */
export function thinWallReference(segments = 256): TriMesh {
  return mergeMeshes(
    cylinder({ radius: 10, height: THIN_HEIGHT, segments, stacks: 8 }),
    cylinder({ radius: 8, height: THIN_HEIGHT, segments, stacks: 8, inward: true }),
  );
}

export function thinWallCandidate(segments = 128): TriMesh {
  return cylinder({ radius: 5.5, height: THIN_HEIGHT, segments, stacks: 8 });
}

/** A closed r = 10 h = 40 cylinder mesh wound inside out. */
export function invertedCylinder(segments = 128): TriMesh {
  return flipWinding(cylinder({ radius: 10, height: 40, segments, stacks: 4, caps: true }));
}

/** Exact BREP spheres for known deviations: 'ref' r = 10, 'proud' r = 10.1 (+0.1 everywhere), 'shy' r = 9.9 (-0.1). */
export function addOffsetSpheres(oc: OC, scene: Scene): void {
  addShapeBody(oc, scene, 'ref', makeSphere(oc, 10));
  addShapeBody(oc, scene, 'proud', makeSphere(oc, 10.1));
  addShapeBody(oc, scene, 'shy', makeSphere(oc, 9.9));
}
