import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { cylinder, seededRandom } from '../mesh/generators';
import { PointsBody } from '../scene/Body';
import type { TriMesh } from '../mesh/TriMesh';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addMeshBody } from '../../test/deviationFixtures';
import { makeBox, makeDrilledBlock } from '../../test/kernelShapes';
import type { PrimitiveResult } from '../gdt/fitPrimitives';

/** fit_primitives through the engine: closed-form parameters on generated scans and kernel parts. */
let oc: OC;
let engine: Engine;
type FitResult = { fit: PrimitiveResult | null; candidates?: PrimitiveResult[]; threshold: number; warnings: string[] };
const fit = (args: object) => engine.runJson('fit_primitives', args).then((r) => r.result as unknown as FitResult);
const codeOf = (p: Promise<unknown>) => p.then(() => 'resolved', (e: { code?: string }) => e.code);

/** A cylinder mesh of radius 7 about the axis through (2, 3, 0) tilted 0.3 rad about x, with a flat plate of junk beside it. */
function tiltedCylinderScan(): TriMesh {
  const c = cylinder({ radius: 7, height: 30, segments: 180, stacks: 30 });
  const ca = Math.cos(0.3), sa = Math.sin(0.3);
  const p = c.positions;
  for (let i = 0; i < p.length; i += 3) {
    const y = p[i + 1]!, z = p[i + 2]!;
    p[i] = p[i]! + 2;
    p[i + 1] = y * ca - z * sa + 3;
    p[i + 2] = y * sa + z * ca;
  }
  return c;
}

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  addMeshBody(engine.scene, 'cyl', tiltedCylinderScan());
  addShapeBody(oc, engine.scene, 'block', makeDrilledBlock(oc, 4, 20, 15));
  addShapeBody(oc, engine.scene, 'box', makeBox(oc, 10, 20, 30));
  // A plate (z = 0.05 x - 0.02 y + 1) as a point cloud, every fifth point lifted off it: the outliers RANSAC must drop.
  const rnd = seededRandom(9);
  const positions: number[] = [];
  for (let i = 0; i <= 40; i++) for (let j = 0; j <= 40; j++) {
    const x = i * 0.5, y = j * 0.5;
    positions.push(x, y, 0.05 * x - 0.02 * y + 1 + ((i * 41 + j) % 5 === 0 ? 0.5 + rnd() : 0));
  }
  engine.scene.add(new PointsBody({ bodyId: 'plate', name: 'plate', sourceFormat: 'xyz', source: undefined }, { positions: Float64Array.from(positions), count: positions.length / 3 }));
});

describe('fit_primitives', () => {
  it('a tilted cylinder scan: radius, axis, and auto picks the cylinder', async () => {
    const r = await fit({ bodyId: 'cyl', kind: 'cylinder' });
    expect(r.fit!.kind).toBe('cylinder');
    // Mesh samples: vertices lie on the cylinder, triangle centres sag by R (1 - cos(pi/180)) ~ 1.07e-3 at most.
    expect(r.fit!.parameters.radius as number).toBeGreaterThan(7 - 1.1e-3);
    expect(r.fit!.parameters.radius as number).toBeLessThan(7);
    const axis = r.fit!.parameters.axis as number[];
    expect(Math.abs(axis[1]! * -Math.sin(0.3) + axis[2]! * Math.cos(0.3))).toBeCloseTo(1, 6);
    const auto = await fit({ bodyId: 'cyl' });
    expect(auto.fit!.kind).toBe('cylinder');
    // A cone fitted to a cylinder degenerates (half-angle 0): it is either dropped or no better.
    for (const c of auto.candidates!) expect(c.kind === 'cylinder' || c.kind === 'cone' || c.rms > 10 * auto.fit!.rms).toBe(true);
  });

  it('the drilled block: the hole face gives diameter 8 on the axis x = 20, y = 15; a box face gives its plane with flatness ~ 0', async () => {
    const topo = await engine.runJson('query_topology', { bodyId: 'block', entity: 'face' });
    const faces = topo.result as unknown as { id: string; surfaceType: string }[];
    const hole = faces.find((f) => /cylind/i.test(f.surfaceType))!;
    const r = await fit({ bodyId: 'block', kind: 'cylinder', region: { faces: [hole.id] } });
    expect(r.fit!.parameters.diameter as number).toBeCloseTo(8, 9);
    const o = r.fit!.parameters.origin as number[];
    expect(o[0]).toBeCloseTo(20, 9);
    expect(o[1]).toBeCloseTo(15, 9);
    expect(r.fit!.form!.value).toBeLessThan(1e-9);
    const plane = await fit({ bodyId: 'box', kind: 'auto', region: { faces: ['face[0]'] } });
    expect(plane.fit!.kind).toBe('plane');
    expect(plane.fit!.form!.characteristic).toBe('flatness');
    expect(plane.fit!.form!.value).toBeLessThan(1e-12);
  });

  it('a plate with lifted outliers: RANSAC keeps the plane, repeatably', async () => {
    const a = await fit({ bodyId: 'plate', kind: 'plane', seed: 3, threshold: 0.01 });
    const b = await fit({ bodyId: 'plate', kind: 'plane', seed: 3, threshold: 0.01 });
    expect(a).toEqual(b);
    const n = a.fit!.parameters.normal as number[];
    const truth = [0.05, -0.02, -1].map((v) => v / Math.hypot(0.05, 0.02, 1));
    expect(Math.abs(n[0]! * truth[0]! + n[1]! * truth[1]! + n[2]! * truth[2]!)).toBeCloseTo(1, 10);
    expect(a.fit!.max).toBeLessThan(1e-12);
    // 41 x 41 points, every fifth lifted: 1681 - 337 on the plane.
    expect(a.fit!.inliers).toBe(1681 - 337);
  });

  it('refuses faces on a mesh and unknown faces with stable codes', async () => {
    expect(await codeOf(fit({ bodyId: 'cyl', region: { faces: ['face[0]'] } }))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(fit({ bodyId: 'box', region: { faces: ['face[99]'] } }))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(fit({ bodyId: 'nope' }))).toBe('BODY_NOT_FOUND');
    expect(await codeOf(fit({ bodyId: 'cyl', region: { box: { min: [100, 100, 100], max: [101, 101, 101] } } }))).toBe('EMPTY_MESH');
  });
});
