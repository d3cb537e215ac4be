import { describe, expect, it } from 'vitest';
import { testEngine } from '../../test/testEngine';
import { addMeshBody } from '../../test/deviationFixtures';

/**
 * Bad-input sweep: a mesh whose every triangle is degenerate has no surface points, and fit_primitives
 * and evaluate_gdt said it "has no points in the region asked for" when no region was asked.
 */
describe('a body without surface points is named for what it is', () => {
  const engine = testEngine();
  // Ten triangles on one line (zero area), and a unit right triangle.
  const line = new Float64Array(90);
  for (let t = 0; t < 10; t++) line.set([0, 0, 0, t + 1, 0, 0, 2 * (t + 1), 0, 0], 9 * t);
  addMeshBody(engine.scene, 'line', { positions: line, indices: Uint32Array.from({ length: 30 }, (_, i) => i) });
  addMeshBody(engine.scene, 'tri', { positions: Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: Uint32Array.from([0, 1, 2]) });

  it('no region: EMPTY_MESH, a surface of zero area', async () => {
    await expect(engine.run('fit_primitives', { bodyId: 'line', kind: 'plane' })).rejects.toMatchObject({
      code: 'EMPTY_MESH',
      message: "body 'line' has a surface of zero area: there is no point to sample",
    });
  });

  it('a region that holds none of a good surface\'s points: EMPTY_MESH, naming the region', async () => {
    await expect(engine.run('fit_primitives', { bodyId: 'tri', kind: 'plane', region: { box: { min: [5, 5, 5], max: [6, 6, 6] } } })).rejects.toMatchObject({
      code: 'EMPTY_MESH',
      message: "body 'tri' has no points in the region asked for",
    });
  });
});
