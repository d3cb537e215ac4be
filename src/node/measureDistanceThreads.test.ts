import { afterAll, describe, expect, it } from 'vitest';
import { meshBvh, THREADED_BVH_MIN_TRIANGLES } from '../engine/deviation/structures';
import { surfaceOf } from '../engine/deviation/surfaces';
import { uvSphere } from '../engine/mesh/generators';
import type { SubtreeThreads } from '../engine/mesh/parallelBvh';
import { buildBvh } from '../engine/mesh/TriangleBvh';
import type { TriMesh } from '../engine/mesh/TriMesh';
import { MeshBody } from '../engine/scene/Body';
import { expectSameTree } from '../test/sameTree';
import { testEngine } from '../test/testEngine';
import { createMeshWorkers } from './meshWorkers';
import { sharedMesh } from '../test/sharedMesh';

const workers = createMeshWorkers({ threads: 2 });
afterAll(() => workers.close());

/** The host's threads, counting the parts they are asked to build. */
function counted(threads: SubtreeThreads): SubtreeThreads & { builds: number } {
  const c = { count: threads.count, builds: 0, records: threads.records, round: threads.round, build: (i: number, w: Parameters<SubtreeThreads['build']>[1]) => (c.builds++, threads.build(i, w)) };
  return c;
}

// A small triangle across the z axis at height 15 over a UV sphere of radius 10: the nearest point of
// the sphere's facets is its north pole vertex (every facet lies inside the sphere), exactly 5 away.
const above: TriMesh = { positions: new Float64Array([-0.01, -0.01, 15, 0.01, -0.01, 15, 0, 0.01, 15]), indices: new Uint32Array([0, 1, 2]) };

async function distance(sphere: TriMesh, threads: SubtreeThreads): Promise<{ distance: number; sphereBody: MeshBody }> {
  const engine = testEngine({ meshWorkers: { ...workers, subtreeThreads: threads } });
  const sphereBody = new MeshBody({ bodyId: 'sphere', name: 'sphere', sourceFormat: 'stl', source: undefined }, sphere);
  engine.scene.add(sphereBody);
  engine.scene.add(new MeshBody({ bodyId: 'above', name: 'above', sourceFormat: 'stl', source: undefined }, above));
  const outcome = await engine.run('measure_distance', { fromBodyId: 'above', toBodyId: 'sphere' });
  return { distance: outcome.result.distance, sphereBody };
}

describe('measure_distance builds a big mesh\'s tree over the idle mesh threads', () => {
  it('from THREADED_BVH_MIN_TRIANGLES: the threads build parts of the serial tree', async () => {
    const sphere = sharedMesh(uvSphere(10, 1000, 1 + Math.ceil(THREADED_BVH_MIN_TRIANGLES / 2000)));
    expect(sphere.indices.length / 3).toBeGreaterThanOrEqual(THREADED_BVH_MIN_TRIANGLES);
    const threads = counted(workers.subtreeThreads!);
    const { distance: d, sphereBody } = await distance(sphere, threads);
    expect(threads.builds).toBe(2);
    expect(Math.abs(d - 5)).toBeLessThanOrEqual(1e-12);
    // The tree the tool built and kept is buildBvh's, byte for byte.
    expectSameTree(meshBvh(surfaceOf(sphereBody)), buildBvh(sphere));
  });

  it('below it: the calling thread alone', async () => {
    const sphere = sharedMesh(uvSphere(10, 400, 100));
    expect(sphere.indices.length / 3).toBeLessThan(THREADED_BVH_MIN_TRIANGLES);
    const threads = counted(workers.subtreeThreads!);
    const { distance: d } = await distance(sphere, threads);
    expect(threads.builds).toBe(0);
    expect(Math.abs(d - 5)).toBeLessThanOrEqual(1e-12);
  });
});
