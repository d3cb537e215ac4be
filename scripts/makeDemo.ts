/**
 * Builds the built-in demo scene with the Node kernel and writes it to public/demo:
 *   part.brep  a CAD part: a 80 x 50 x 24 block, all edges filleted, a bore, two bolt holes and a pocket
 *   scan.stl   a scan-like mesh of the same part: dense, smoothly warped (a few tenths of a unit),
 *              shifted 0.1 in x, with speckle noise and a patch the scanner "did not see"
 * Run: npx tsx scripts/makeDemo.ts   (deterministic: the same bytes every run)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChFi3d_FilletShape, TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { topAbs, withKernel, type OC } from '../src/engine/kernel';
import { writeBinaryStl } from '../src/engine/scene/import/stl';
import { tessellateShape } from '../src/engine/mesh/tessellate';
import type { TriMesh } from '../src/engine/mesh/TriMesh';
import { nodeKernel } from '../src/node/nodeEngine';

const OUT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public/demo');
const MAX_STL_BYTES = 2 * 1024 * 1024;

function makePart(oc: OC): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const block = own(own(new oc.BRepPrimAPI_MakeBox_3(own(new oc.gp_Pnt_3(-40, -25, 0)), 80, 50, 24))).Shape();
    own(block);
    // The glue types enum members as `{}`.
    const rational = oc.ChFi3d_FilletShape.ChFi3d_Rational as unknown as ChFi3d_FilletShape;
    const fillet = own(new oc.BRepFilletAPI_MakeFillet(block, rational));
    const edges = own(new oc.TopExp_Explorer_2(block, topAbs(oc, 'EDGE'), topAbs(oc, 'SHAPE')));
    for (; edges.More(); edges.Next()) fillet.Add_2(4, own(oc.TopoDS.Edge_1(edges.Current())));
    let part = fillet.Shape();

    const cylinder = (x: number, y: number, r: number, z0: number, h: number) => {
      const axes = own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(x, y, z0)), own(new oc.gp_Dir_4(0, 0, 1))));
      return own(own(new oc.BRepPrimAPI_MakeCylinder_3(axes, r, h)).Shape());
    };
    // Each intermediate result is freed with the scope; the last one is returned to the caller.
    const cut = (tool: TopoDS_Shape) => {
      const next = own(new oc.BRepAlgoAPI_Cut_3(own(part), tool, own(new oc.Message_ProgressRange_1()))).Shape();
      part = next;
    };

    cut(cylinder(0, 0, 10, -5, 40)); // the bore
    cut(cylinder(-28, 0, 4, -5, 40)); // bolt holes
    cut(cylinder(28, 0, 4, -5, 40));
    cut(cylinder(-28, 0, 7, 18, 10)); // counterbores
    cut(cylinder(28, 0, 7, 18, 10));
    cut(own(own(new oc.BRepPrimAPI_MakeBox_3(own(new oc.gp_Pnt_3(-12, 14, 16)), 24, 20, 10)).Shape())); // a pocket
    return part;
  });
}

function writeBrep(oc: OC, shape: TopoDS_Shape): Uint8Array {
  const file = '/demo-part.brep';
  oc.BRepTools.Clean(shape, true);
  const ok = withKernel(oc, (own) => oc.BRepTools.Write_3(shape, file, own(new oc.Message_ProgressRange_1())));
  if (!ok) throw new Error('makeDemo: BRepTools.Write failed');
  try {
    return oc.FS.readFile(file);
  } finally {
    oc.FS.unlink(file);
  }
}

/** Joins corners closer than 1e-4 (faces are tessellated separately, so seams repeat vertices). */
function weld(mesh: TriMesh): TriMesh {
  const keyOf = (i: number) => {
    const q = (v: number) => Math.round(v * 1e4);
    return `${q(mesh.positions[3 * i]!)},${q(mesh.positions[3 * i + 1]!)},${q(mesh.positions[3 * i + 2]!)}`;
  };
  const map = new Map<string, number>();
  const remap = new Uint32Array(mesh.positions.length / 3);
  const positions: number[] = [];
  for (let i = 0; i < remap.length; i++) {
    const key = keyOf(i);
    let j = map.get(key);
    if (j === undefined) {
      j = positions.length / 3;
      map.set(key, j);
      positions.push(mesh.positions[3 * i]!, mesh.positions[3 * i + 1]!, mesh.positions[3 * i + 2]!);
    }
    remap[i] = j;
  }
  const indices: number[] = [];
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const a = remap[mesh.indices[t]!]!, b = remap[mesh.indices[t + 1]!]!, c = remap[mesh.indices[t + 2]!]!;
    if (a !== b && b !== c && a !== c) indices.push(a, b, c);
  }
  return { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) };
}

/**
 * Splits every triangle into four at its edge midpoints, but only triangles with an edge longer
 * than `maxEdge` (and their neighbours across that edge, so no crack opens): scan-like density on
 * large flat faces without multiplying the already dense fillets.
 */
function subdivide(mesh: TriMesh, maxEdge: number): TriMesh {
  const positions = Array.from(mesh.positions);
  const len = (a: number, b: number) =>
    Math.hypot(positions[3 * a]! - positions[3 * b]!, positions[3 * a + 1]! - positions[3 * b + 1]!, positions[3 * a + 2]! - positions[3 * b + 2]!);
  const edgeKey = (a: number, b: number) => (a < b ? `${a}_${b}` : `${b}_${a}`);
  const midpoints = new Map<string, number>();
  const split = new Set<string>();
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const v = [mesh.indices[t]!, mesh.indices[t + 1]!, mesh.indices[t + 2]!];
    for (let e = 0; e < 3; e++) {
      const a = v[e]!, b = v[(e + 1) % 3]!;
      if (len(a, b) > maxEdge) split.add(edgeKey(a, b));
    }
  }
  const midpoint = (a: number, b: number): number | undefined => {
    const key = edgeKey(a, b);
    if (!split.has(key)) return undefined;
    let m = midpoints.get(key);
    if (m === undefined) {
      m = positions.length / 3;
      for (let k = 0; k < 3; k++) positions.push((positions[3 * a + k]! + positions[3 * b + k]!) / 2);
      midpoints.set(key, m);
    }
    return m;
  };
  const indices: number[] = [];
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const a = mesh.indices[t]!, b = mesh.indices[t + 1]!, c = mesh.indices[t + 2]!;
    const ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
    const n = (ab === undefined ? 0 : 1) + (bc === undefined ? 0 : 1) + (ca === undefined ? 0 : 1);
    if (n === 0) indices.push(a, b, c);
    else if (n === 3) indices.push(a, ab!, ca!, ab!, b, bc!, ca!, bc!, c, ab!, bc!, ca!);
    else {
      // Rotate so the split edges come first, then fan from the corner opposite the first split.
      const rot = ab !== undefined && ca === undefined ? [a, b, c, ab, bc] : bc !== undefined && ab === undefined ? [b, c, a, bc, ca] : [c, a, b, ca, ab];
      const [p, q, r, pq, qr] = rot as [number, number, number, number, number | undefined];
      if (qr === undefined) indices.push(p, pq, r, pq, q, r);
      else indices.push(p, pq, r, pq, q, qr, pq, qr, r);
    }
  }
  return { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) };
}

/** Deterministic hash noise in [-1, 1] from a vertex position (seams share positions, so no cracks). */
function hashNoise(x: number, y: number, z: number): number {
  const s = Math.sin(x * 127.1 + y * 311.7 + z * 74.7) * 43758.5453;
  return 2 * (s - Math.floor(s)) - 1;
}

/** The scanner's view: smooth warp, fine speckle, a slight misalignment, a patch not seen. */
function scanLike(mesh: TriMesh): TriMesh {
  const p = Float64Array.from(mesh.positions);
  for (let i = 0; i < p.length; i += 3) {
    const x = p[i]!, y = p[i + 1]!, z = p[i + 2]!;
    // A smooth warp of a few tenths (what a deviation map should show), fine speckle (scanner noise).
    const warp = 0.3 * Math.sin(x / 13) * Math.cos(y / 10) + 0.15 * Math.sin(z / 6 + x / 19);
    const speckle = 0.01 * hashNoise(x, y, z);
    // Plus a 0.1 shift along x: the alignment is not perfect either.
    p[i] = x + 0.1 + speckle;
    p[i + 1] = y + warp * 0.6 + speckle;
    p[i + 2] = z + warp + speckle;
  }
  // A patch the scanner did not see: part of the front face near one corner.
  const keep: number[] = [];
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const a = mesh.indices[t]!, b = mesh.indices[t + 1]!, c = mesh.indices[t + 2]!;
    const cx = (mesh.positions[3 * a]! + mesh.positions[3 * b]! + mesh.positions[3 * c]!) / 3;
    const cy = (mesh.positions[3 * a + 1]! + mesh.positions[3 * b + 1]! + mesh.positions[3 * c + 1]!) / 3;
    const cz = (mesh.positions[3 * a + 2]! + mesh.positions[3 * b + 2]! + mesh.positions[3 * c + 2]!) / 3;
    const hidden = cy < -24 && Math.hypot(cx - 22, cz - 9) < 7;
    if (!hidden) keep.push(a, b, c);
  }
  return { positions: p, indices: Uint32Array.from(keep) };
}

async function main(): Promise<void> {
  const oc = await nodeKernel();
  const part = makePart(oc);
  try {
    mkdirSync(OUT_DIR, { recursive: true });
    const brep = writeBrep(oc, part);
    writeFileSync(path.join(OUT_DIR, 'part.brep'), brep);

    let mesh = weld(tessellateShape(oc, part, 0.05));
    for (let i = 0; i < 6 && mesh.indices.length / 3 < 24_000; i++) mesh = subdivide(mesh, 3);
    const scan = scanLike(mesh);
    const stl = writeBinaryStl(scan, 'brepscope demo scan');
    if (stl.byteLength > MAX_STL_BYTES) throw new Error(`makeDemo: scan.stl is ${stl.byteLength} bytes, over ${MAX_STL_BYTES}`);
    writeFileSync(path.join(OUT_DIR, 'scan.stl'), stl);
    oc.BRepTools.Clean(part, true);

    console.log(`part.brep ${brep.byteLength} bytes; scan.stl ${stl.byteLength} bytes, ${scan.indices.length / 3} triangles`);
  } finally {
    part.delete();
  }
}

await main();
process.exit(0);
