import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { meshMassProperties } from '../mesh/meshProperties';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { makeBox, makeCylinder } from '../../test/kernelShapes';
import { addShapeBody } from './addShapeBody';
import type { BrepBody } from './Body';
import { writeBinaryStl } from './import/stl';
import { DISPLAY_DEFLECTION_RATIO, displayMesh, getTessellation, shapeDiagonal } from './tessellation';

let oc: OC;
let engine: Engine;
let box: BrepBody;
let cyl: BrepBody;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  box = addShapeBody(oc, engine.scene, 'box', makeBox(oc, 10, 20, 30));
  cyl = addShapeBody(oc, engine.scene, 'cyl', makeCylinder(oc, 5, 20));
});

/** Every index points at a vertex; the arrays have whole vertices and whole triangles. */
function expectWellFormed(positions: Float32Array, indices: Uint32Array): void {
  expect(positions.length % 3).toBe(0);
  expect(indices.length % 3).toBe(0);
  expect(indices.length).toBeGreaterThan(0);
  const vertices = positions.length / 3;
  let max = 0;
  for (const i of indices) max = Math.max(max, i);
  expect(max).toBeLessThan(vertices);
}

describe('displayMesh of BREP bodies', () => {
  it('box: 12 triangles on 6 faces, float32 corners, cached at 0.2 % of the diagonal', () => {
    const mesh = displayMesh(oc, box);
    expect(mesh.positions).toBeInstanceOf(Float32Array);
    expect(mesh.indices).toBeInstanceOf(Uint32Array);
    expectWellFormed(mesh.positions, mesh.indices);
    expect(mesh.indices.length / 3).toBe(12);
    expect(mesh.faceIds).toHaveLength(12);
    expect(new Set(mesh.faceIds)).toEqual(new Set([0, 1, 2, 3, 4, 5]));

    const diagonal = Math.sqrt(10 ** 2 + 20 ** 2 + 30 ** 2);
    expect(shapeDiagonal(oc, box)).toBeCloseTo(diagonal, 9);
    const keys = [...box.tessellations.keys()];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toBeCloseTo(diagonal * DISPLAY_DEFLECTION_RATIO, 12);

    const xs = mesh.positions.filter((_, i) => i % 3 === 0);
    expect(Math.min(...xs)).toBe(0);
    expect(Math.max(...xs)).toBe(10);
  });

  it('cylinder: the display mesh is closed and outward-wound (volume and area near the exact ones)', () => {
    const mesh = displayMesh(oc, cyl);
    expectWellFormed(mesh.positions, mesh.indices);
    const props = meshMassProperties({ positions: Float64Array.from(mesh.positions), indices: mesh.indices });
    const exactVolume = Math.PI * 25 * 20;
    // Inscribed polygons lose a little; 0.2 % of the diagonal (~0.054) on r = 5 loses well under 2 %.
    expect(props.volume).toBeGreaterThan(exactVolume * 0.98);
    expect(props.volume).toBeLessThanOrEqual(exactVolume * 1.0001);
    expect(props.area).toBeGreaterThan(2 * Math.PI * 5 * 25 * 0.98);
    expect(new Set(mesh.faceIds).size).toBe(3);
  });

  it('caches per deflection and hands out copies, so a transferred buffer never empties the cache', () => {
    const a = getTessellation(oc, cyl, 0.5);
    const b = getTessellation(oc, cyl, 0.5);
    expect(b).toBe(a);
    const finer = getTessellation(oc, cyl, 0.05);
    expect(finer).not.toBe(a);
    expect(finer.indices.length).toBeGreaterThan(a.indices.length);
    // The finer mesh did not replace the coarser one in the cache.
    expect(getTessellation(oc, cyl, 0.5).indices.length).toBe(a.indices.length);

    const first = displayMesh(oc, box);
    first.indices.fill(0);
    first.positions.fill(NaN);
    const second = displayMesh(oc, box);
    expect(second.indices.some((i) => i !== 0)).toBe(true);
    expect(Number.isNaN(second.positions[0])).toBe(false);
  });

  it('refuses a BREP body without a kernel, and a bad deflection', () => {
    expect(() => displayMesh(undefined, box)).toThrow(/needs the kernel/);
    expect(() => getTessellation(oc, box, 0)).toThrow(/deflection/);
    expect(() => getTessellation(oc, box, Number.NaN)).toThrow(/deflection/);
  });
});

describe('displayMesh of mesh bodies', () => {
  it('an STL body: its own triangles as float32, no kernel needed, fresh buffers', async () => {
    const stl = writeBinaryStl({
      positions: Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
      indices: Uint32Array.from([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]),
    });
    await engine.run('import_file', { bytes: Buffer.from(stl).toString('base64'), fileName: 'tet.stl', bodyId: 'tet' });
    const body = engine.scene.get('tet');
    if (body.kind !== 'mesh') throw new Error('expected a mesh body');
    const mesh = displayMesh(undefined, body);
    expect(mesh.faceIds).toBeUndefined();
    expect(Array.from(mesh.positions)).toEqual(Array.from(body.mesh.positions));
    expect(Array.from(mesh.indices)).toEqual(Array.from(body.mesh.indices));
    expect(mesh.indices.buffer).not.toBe(body.mesh.indices.buffer);
    expectWellFormed(mesh.positions, mesh.indices);
  });
});
