import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import type { ExactGeometry } from '../engine/exact/geometry';
import { withKernel, type OC, type Own } from '../engine/kernel';

/**
 * A flange for alignment tests: a disc (radius 50, 10 thick) with a hub on one side (radius 22, up
 * to z = 25, so that turning it over is not a symmetry), a bore of radius 12 on the z axis and six
 * bolt holes of radius 4 on a 35 circle (at 0, 60, ... degrees from +x). With `keyway`, a 6 wide slot
 * cut 4 deep into the bore toward +x breaks the six-fold symmetry; without it the part has exactly
 * six poses (turns by multiples of 60 degrees about z).
 */
export function makeFlange(oc: OC, keyway: boolean): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const cyl = (x: number, y: number, z0: number, r: number, h: number) =>
      own(own(new oc.BRepPrimAPI_MakeCylinder_3(own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(x, y, z0)), own(new oc.gp_Dir_4(0, 0, 1)))), r, h)).Shape());
    let shape = own(own(new oc.BRepAlgoAPI_Fuse_3(cyl(0, 0, 0, 50, 10), cyl(0, 0, 5, 22, 20), own(new oc.Message_ProgressRange_1()))).Shape());
    shape = cut(oc, own, shape, cyl(0, 0, -5, 12, 40));
    for (let k = 0; k < 6; k++) shape = cut(oc, own, shape, cyl(35 * Math.cos((k * Math.PI) / 3), 35 * Math.sin((k * Math.PI) / 3), -5, 4, 20));
    const slot = keyway ? own(own(new oc.BRepPrimAPI_MakeBox_3(own(new oc.gp_Pnt_3(8, -3, -5)), 8, 6, 40)).Shape()) : cyl(100, 100, 0, 1, 1);
    // The last cut's shape is not owned: it is the caller's. (Without a keyway, a cut by a cylinder far away leaves the part as it is.)
    return own(new oc.BRepAlgoAPI_Cut_3(shape, slot, own(new oc.Message_ProgressRange_1()))).Shape();
  });
}

function cut(oc: OC, own: Own, a: TopoDS_Shape, b: TopoDS_Shape): TopoDS_Shape {
  return own(own(new oc.BRepAlgoAPI_Cut_3(a, b, own(new oc.Message_ProgressRange_1()))).Shape());
}

/** The block as a 12-triangle mesh with its bottom (z = 0) tilted by `alpha` about y = 15. */
export function tiltedBlock(alpha: number) {
  const t = Math.tan(alpha);
  const zb = (y: number) => (y - 15) * t;
  const v: number[] = [];
  for (const z of [0, 1]) for (const y of [0, 30]) for (const x of [0, 40]) v.push(x, y, z ? 20 : zb(y));
  // Corners: index = x + 2 y + 4 z (0/1 each); outward-facing triangles.
  const quads = [
    [0, 2, 3, 1], // bottom
    [4, 5, 7, 6], // top
    [0, 1, 5, 4], // y = 0
    [2, 6, 7, 3], // y = 30
    [0, 4, 6, 2], // x = 0
    [1, 3, 7, 5], // x = 40
  ];
  const idx: number[] = [];
  for (const [a, b, c, d] of quads) idx.push(a!, b!, c!, a!, c!, d!);
  return { positions: Float64Array.from(v), indices: Uint32Array.from(idx) };
}


/** An axis-aligned part's planar faces as face[N], keyed by outward normal and position: '-z@0' is the face z = 0 facing -z. */
export function planarFaceIds(geometry: ExactGeometry): Record<string, string> {
  const ids: Record<string, string> = {};
  geometry.faces.forEach((f, i) => {
    if (f.surface.kind !== 'plane') return;
    const F = f.surface.frame;
    const n = [F[4]! * F[8]! - F[5]! * F[7]!, F[5]! * F[6]! - F[3]! * F[8]!, F[3]! * F[7]! - F[4]! * F[6]!].map((c) => (f.reversed ? -c : c));
    const o = [F[0]!, F[1]!, F[2]!];
    const axis = n.findIndex((c) => Math.abs(c) > 0.5);
    ids[`${n[axis]! > 0 ? '+' : '-'}${'xyz'[axis]}@${o[axis]}`] = `face[${i}]`;
  });
  return ids;
}

/**
 * A plain nut for alignment tests: a hexagonal prism (corners at radius 14 on +-x and every 60
 * degrees, 10 thick, z from -5 to 5) with a bore of radius 6 on the z axis. Twelve poses: the six
 * turns by 60 k degrees about z, and the same turned over (half turns about axes in z = 0).
 */
export function makeNut(oc: OC): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const polygon = own(new oc.BRepBuilderAPI_MakePolygon_1());
    for (let k = 0; k < 6; k++) polygon.Add_1(own(new oc.gp_Pnt_3(14 * Math.cos((k * Math.PI) / 3), 14 * Math.sin((k * Math.PI) / 3), -5)));
    polygon.Close();
    const face = own(own(new oc.BRepBuilderAPI_MakeFace_15(own(polygon.Wire()), true)).Face());
    const prism = own(own(new oc.BRepPrimAPI_MakePrism_1(face, own(new oc.gp_Vec_4(0, 0, 10)), false, true)).Shape());
    const bore = own(own(new oc.BRepPrimAPI_MakeCylinder_3(own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(0, 0, -10)), own(new oc.gp_Dir_4(0, 0, 1)))), 6, 20)).Shape());
    return own(new oc.BRepAlgoAPI_Cut_3(prism, bore, own(new oc.Message_ProgressRange_1()))).Shape();
  });
}
