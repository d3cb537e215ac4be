import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine/Engine';
import { meshTopology } from '../engine/mesh/meshTopology';
import { writeBinaryStl } from '../engine/scene/import/stl';
import type { MetricsResult } from '../engine/tools/computeMetrics';
import type { BodyValidation } from '../engine/tools/validateGeometry';
import { testEngine } from '../test/testEngine';

/**
 * Issue 18, finding 4. A closed STL with 12 misoriented edges was reported as "the mesh is not
 * closed" (compute_metrics called any non-watertight mesh that); and collapsed triangles (two equal
 * corners) made the edge they lie on count as non-manifold, on top of the degenerate triangle.
 */

/** A regular octahedron, outward winding: 6 vertices, 8 triangles, 12 edges, volume 4/3. */
const OCTAHEDRON = {
  positions: [1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1],
  // Triangles 0, 2, 5, 7 form one colour of the octahedron's checkerboard: no two share an edge.
  triangles: [
    [0, 2, 4],
    [2, 1, 4],
    [1, 3, 4],
    [3, 0, 4],
    [2, 0, 5],
    [1, 2, 5],
    [3, 1, 5],
    [0, 3, 5],
  ],
};

let engine: Engine;
const load = async (bodyId: string, triangles: number[][], positions = OCTAHEDRON.positions) => {
  const stl = writeBinaryStl({ positions: Float64Array.from(positions), indices: Uint32Array.from(triangles.flat()) });
  await engine.run('import_file', { bytes: Buffer.from(stl).toString('base64'), fileName: `${bodyId}.stl`, bodyId });
};
const metrics = (bodyId: string) => engine.run('compute_metrics', { bodyId, metrics: ['volume', 'centerOfMass'] }).then((r) => r.result) as Promise<MetricsResult>;
const validate = (bodyId: string) => engine.run('validate_geometry', { bodyId }).then((r) => r.result) as Promise<BodyValidation>;

beforeAll(() => {
  engine = testEngine();
});

describe('STL wording and counts (issue 18.4)', () => {
  it('the closed octahedron: volume 4/3, no warning', async () => {
    await load('octahedron', OCTAHEDRON.triangles);
    const m = await metrics('octahedron');
    expect(Math.abs(m.volume! - 4 / 3)).toBeLessThan(1e-15);
    expect(m.warnings).toEqual([]);
  });

  it('closed with 4 triangles flipped (12 misoriented edges): says the winding is inconsistent, never "not closed"', async () => {
    const flipped = OCTAHEDRON.triangles.map((t, i) => ([0, 2, 5, 7].includes(i) ? [t[0]!, t[2]!, t[1]!] : t));
    await load('misoriented', flipped);
    const m = await metrics('misoriented');
    expect(m.volume).toBeNull();
    expect(m.warnings.length).toBeGreaterThan(0);
    expect([...new Set(m.warnings.map((w) => w.code))]).toEqual(['NOT_CLOSED']);
    for (const w of m.warnings) {
      expect(w.message).toContain("winding is inconsistent (12 edge(s)");
      expect(w.message).not.toContain('not closed');
    }
    const v = await validate('misoriented');
    expect(v.issues.map((i) => [i.kind, i.count])).toEqual([['inconsistentOrientation', 12]]);
    const { bodies: summary } = (await engine.run('list_bodies', {})).result as { bodies: { bodyId: string; edges: number; watertight: boolean }[] };
    expect(summary.find((b) => b.bodyId === 'misoriented')).toMatchObject({ edges: 12, watertight: false });
  });

  it('"not closed" stays for boundary edges: one triangle removed leaves 3', async () => {
    await load('open', OCTAHEDRON.triangles.slice(1));
    const m = await metrics('open');
    expect(m.volume).toBeNull();
    expect(m.warnings[0]).toEqual({ code: 'NOT_CLOSED', message: 'volume is null: the mesh is not closed (3 boundary edge(s)), so it encloses no volume' });
    const v = await validate('open');
    expect(v.issues.map((i) => [i.kind, i.count])).toEqual([['freeEdge', 3]]);
    expect(v.issues[0]!.message).toContain('not closed');
  });

  it('a collapsed triangle on an edge of the closed mesh is one degenerate triangle, not a non-manifold edge', async () => {
    // Corners 0, 0, 2: the segment 0-2, an edge the octahedron already has twice.
    const withCollapsed = [...OCTAHEDRON.triangles, [0, 0, 2]];
    const t = meshTopology({ positions: Float64Array.from(OCTAHEDRON.positions), indices: Uint32Array.from(withCollapsed.flat()) });
    expect(t).toMatchObject({ triangles: 9, edges: 12, boundaryEdges: 0, nonManifoldEdges: 0, inconsistentEdges: 0, degenerateTriangles: 1 });
    // Written as an STL: the two equal corners weld into one vertex, as in a real file.
    await load('collapsed', withCollapsed);
    const v = await validate('collapsed');
    expect(v.issues.map((i) => [i.kind, i.count])).toEqual([['degenerateTriangle', 1]]);
    expect(v.issues[0]!.entities).toEqual(['face[8]']);
    const m = await metrics('collapsed');
    expect(Math.abs(m.volume! - 4 / 3)).toBeLessThan(1e-15);
  });

  it("a collapsed triangle whose segment is no triangle's edge: an edge of the mesh (ids and counts agree), used by no triangle", async () => {
    // Corners 4, 4, 5: the segment between the two apexes, through the octahedron's inside.
    const withSegment = [...OCTAHEDRON.triangles, [4, 4, 5]];
    await load('segment', withSegment);
    const v = await validate('segment');
    expect(v.issues.map((i) => [i.kind, i.count])).toEqual([['degenerateTriangle', 1]]);
    const edges = (await engine.run('query_topology', { bodyId: 'segment', entity: 'edge' })).result as unknown[];
    const { bodies: summary } = (await engine.run('list_bodies', {})).result as { bodies: { bodyId: string; edges: number }[] };
    expect(edges).toHaveLength(13);
    expect(summary.find((b) => b.bodyId === 'segment')!.edges).toBe(13);
  });
});
