import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { tessellateShape } from '../mesh/tessellate';
import { addShapeBody } from '../scene/addShapeBody';
import { writeBinaryStl } from '../scene/import/stl';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { makeBox, makeCylinder } from '../../test/kernelShapes';
import type { VertexFitEntry } from './measureVertexFit';

const R = 10;
const H = 40;
const DEFLECTION = 0.05;
/** STL coordinates are float32: about 1e-6 relative rounding at these magnitudes. */
const FLOAT32 = 1e-5;

/** Exact distance from a point to the surface of the solid cylinder r = R, z in [0, H]. */
function cylinderDistance([x, y, z]: number[]): number {
  const rho = Math.hypot(x!, y!);
  const dz = Math.max(0, z! - H, -z!);
  const dr = Math.max(0, rho - R);
  if (dz > 0 || dr > 0) return Math.hypot(dz, dr);
  return Math.min(R - rho, z!, H - z!);
}

interface Fit {
  vertexCount: number;
  sampledCount: number;
  stride: number;
  mean: number;
  rms: number;
  max: number;
  p95: number;
  worst: VertexFitEntry[];
  vertices?: VertexFitEntry[];
  warnings: { code: string; message: string }[];
}

let oc: OC;
let engine: Engine;
const fit = (args: object) => engine.runJson('measure_vertex_fit', args).then((r) => r.result) as Promise<Fit>;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  addShapeBody(oc, engine.scene, 'cyl', makeCylinder(oc, R, H));
  const body = engine.scene.get('cyl');
  if (body.kind !== 'brep') throw new Error('expected a BREP body');
  const mesh = tessellateShape(oc, body.shape, DEFLECTION);
  const scaled = { ...mesh, positions: mesh.positions.map((v) => v * 1.01) };
  for (const [id, m] of [['cylMesh', mesh], ['cylScaled', scaled]] as const) {
    await engine.run('import_file', { bytes: Buffer.from(writeBinaryStl(m)).toString('base64'), fileName: `${id}.stl`, bodyId: id });
  }
});

describe('measure_vertex_fit', () => {
  it('an STL of the cylinder lies on it: max within the chordal bound (and float32 rounding)', async () => {
    const r = await fit({ fromBodyId: 'cylMesh', toBodyId: 'cyl', maxVertices: 100000 });
    expect(r.stride).toBe(1);
    expect(r.sampledCount).toBe(r.vertexCount);
    expect(r.max).toBeLessThanOrEqual(DEFLECTION);
    expect(r.max).toBeLessThan(FLOAT32);
    expect(r.worst).toHaveLength(20);
  });

  it('the mesh scaled by 1.01 gives the analytic distance at every vertex', async () => {
    const r = await fit({ fromBodyId: 'cylScaled', toBodyId: 'cyl', maxVertices: 100000, includeAllVertices: true, worstN: 5 });
    expect(r.vertices).toHaveLength(r.vertexCount);
    let sum = 0;
    for (const v of r.vertices!) {
      expect(Math.abs(v.distance - cylinderDistance(v.point))).toBeLessThan(FLOAT32);
      sum += v.distance;
    }
    expect(Math.abs(r.mean - sum / r.vertices!.length)).toBeLessThan(1e-12);
    // The top rim scales to radius 10.1 at height 40.4: the worst, sqrt(0.1^2 + 0.4^2), nearest the rim edge.
    expect(Math.abs(r.max - Math.hypot(0.1, 0.4))).toBeLessThan(FLOAT32);
    expect(r.worst[0]!.distance).toBe(r.max);
    expect(r.worst[0]!.nearestKind).toBe('edge');
    expect(r.worst.map((w) => w.distance)).toEqual([...r.worst.map((w) => w.distance)].sort((a, b) => b - a));
  });

  it('stride-subsamples to maxVertices and says so', async () => {
    const r = await fit({ fromBodyId: 'cylScaled', toBodyId: 'cyl', maxVertices: 50 });
    expect(r.stride).toBe(Math.ceil(r.vertexCount / 50));
    expect(r.sampledCount).toBe(Math.ceil(r.vertexCount / r.stride));
    expect(r.warnings.map((w) => w.code)).toContain('SUBSAMPLED');
    expect(r.vertices).toBeUndefined();
  });

  it('BREP vertices: a small box 2 above the interior of a larger one lands on its top face', async () => {
    addShapeBody(oc, engine.scene, 'low', makeBox(oc, 10, 10, 10));
    addShapeBody(oc, engine.scene, 'high', makeBox(oc, 4, 4, 4, [3, 3, 12]));
    const r = await fit({ fromBodyId: 'high', toBodyId: 'low', includeAllVertices: true });
    expect(r.vertexCount).toBe(8);
    for (const v of r.vertices!) {
      expect(Math.abs(v.distance - (v.point[2] - 10))).toBeLessThan(1e-9);
      expect(v.nearestKind).toBe('face');
    }
    expect(r.max).toBe(6);
    expect(r.p95).toBe(6);
  });

  it('refuses the same body twice, bad numbers and unknown bodies', async () => {
    await expect(fit({ fromBodyId: 'cyl', toBodyId: 'cyl' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(fit({ fromBodyId: 'cylMesh', toBodyId: 'cyl', maxVertices: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(fit({ fromBodyId: 'cylMesh', toBodyId: 'cyl', worstN: -1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(fit({ fromBodyId: 'cylMesh', toBodyId: 'cyl', worstN: 2.5 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(fit({ fromBodyId: 'ghost', toBodyId: 'cyl' })).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
  });
});
