import { describe, expect, it } from 'vitest';
import { Engine } from '../Engine';
import { BrepscopeError } from '../errors';
import { box } from '../mesh/generators';
import type { TriMesh } from '../mesh/TriMesh';
import { writeBinaryStl } from '../scene/import/stl';
import type { ContactPair } from './measureDistance';

// Mesh-only work must never start the kernel (2-4 s and 0.5 GB): an engine whose kernel refuses
// and counts every request shows both that no tool asked for it and that the answers need none.
let kernelAsks = 0;
const engine = new Engine({
  files: { read: () => Promise.reject(new BrepscopeError('FILE_NOT_FOUND', 'no files here')), write: () => Promise.reject(new Error('no writes')) },
  kernel: () => {
    kernelAsks++;
    return Promise.reject(new BrepscopeError('KERNEL_UNAVAILABLE', 'this test has no kernel'));
  },
});

const triangle = (...corners: number[]): TriMesh => ({ positions: new Float64Array(corners), indices: new Uint32Array([0, 1, 2]) });
const load = (bodyId: string, mesh: TriMesh) => engine.load({ path: `${bodyId}.stl`, bytes: writeBinaryStl(mesh), bodyId });
const distance = (fromBodyId: string, toBodyId: string) =>
  engine.runJson('measure_distance', { fromBodyId, toBodyId, computeContacts: true }).then((r) => r.result) as Promise<{ distance: number; contacts: ContactPair[] }>;
const gap = (c: ContactPair): number => Math.hypot(c.pointOnTo[0] - c.pointOnFrom[0], c.pointOnTo[1] - c.pointOnFrom[1], c.pointOnTo[2] - c.pointOnFrom[2]);

describe('mesh-only calls never ask for the kernel', () => {
  it('measure_distance between two STLs: the facet shells\' gap, on the triangles', async () => {
    await load('a', box([0, 0, 0], [10, 10, 10], 3));
    await load('gap', box([17.5, 0, 0], [27.5, 10, 10], 2));
    await load('inner', box([4, 4, 4], [6, 6, 6]));
    await load('crossing', box([5, 5, 5], [15, 15, 15]));
    const apart = await distance('a', 'gap');
    expect(Math.abs(apart.distance - 7.5)).toBeLessThan(1e-12);
    expect(apart.contacts).toHaveLength(1);
    expect(apart.contacts[0]!.pointOnFrom[0]).toBeCloseTo(10, 12);
    expect(apart.contacts[0]!.pointOnTo[0]).toBeCloseTo(17.5, 12);
    expect(Math.abs(gap(apart.contacts[0]!) - 7.5)).toBeLessThan(1e-12);
    // Shells, not solids: a box inside another is as far as their nearest faces (BRepExtrema on facet shells agrees).
    expect(Math.abs((await distance('inner', 'a')).distance - 4)).toBeLessThan(1e-12);
    expect((await distance('a', 'crossing')).distance).toBe(0);
    expect(kernelAsks).toBe(0);
  });

  it('the nearest pair on two edges (no corner is nearest), and an edge through a face (no corner or edge touches)', async () => {
    // Edges along x at the origin and along y at z = 3: 3 apart at their midpoints; every corner is sqrt(10) or more away.
    await load('down', triangle(-1, 0, 0, 1, 0, 0, 0, 0, -5));
    await load('up', triangle(0, -1, 3, 0, 1, 3, 0, 0, 8));
    const skew = await distance('down', 'up');
    expect(Math.abs(skew.distance - 3)).toBeLessThan(1e-12);
    expect(skew.contacts[0]!.pointOnFrom).toEqual([0, 0, 0]);
    expect(skew.contacts[0]!.pointOnTo).toEqual([0, 0, 3]);
    // A vertical triangle whose edge pierces a flat one at (0.25, 0, 0): corners 1 away, edges about 2.
    await load('flat', triangle(-5, -5, 0, 5, -5, 0, 0, 5, 0));
    await load('pierce', triangle(0, 0, -1, 0.5, 0, 1, -0.5, 0, 1));
    const through = await distance('pierce', 'flat');
    expect(through.distance).toBe(0);
    expect(through.contacts[0]!.pointOnFrom[0]).toBeCloseTo(0.25, 12);
    expect(kernelAsks).toBe(0);
  });

  it('metrics, deviation, validation, alignment and display of STL bodies', async () => {
    await load('m1', box([0, 0, 0], [10, 20, 30], 2));
    await load('m2', box([0.5, 0, 0], [10.5, 20, 30], 2));
    const metrics = (await engine.runJson('compute_metrics', { bodyId: 'm1' })).result as { volume: number };
    expect(Math.abs(metrics.volume - 6000)).toBeLessThan(1e-9);
    const deviation = (await engine.runJson('measure_deviation', { fromBodyId: 'm2', toBodyId: 'm1' })).result as { fromToTo: { max: number }; symmetricHausdorff: number };
    // m2's face at x = 10.5 is everywhere 0.5 from m1's at x = 10, and no point of either is farther.
    expect(Math.abs(deviation.fromToTo.max - 0.5)).toBeLessThan(1e-12);
    expect(Math.abs(deviation.symmetricHausdorff - 0.5)).toBeLessThan(1e-12);
    await engine.runJson('validate_geometry', { bodyId: 'm1', checkSelfIntersection: true });
    await engine.runJson('align_bodies', { movingBodyId: 'm2', fixedBodyId: 'm1' });
    await engine.runJson('display_mesh', { bodyId: 'm1' });
    await engine.runJson('list_bodies', {});
    expect(kernelAsks).toBe(0);
  });
});
