import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { addShapeBody } from '../scene/addShapeBody';
import { writeBinaryStl } from '../scene/import/stl';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { FEATURE_BLOCK, makeFeatureBlock } from '../../test/featureBlock';
import type { TopologyEntry } from './queryTopology';

const close = (a: number, b: number, rel = 1e-9) => expect(Math.abs(a - b)).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));

let engine: Engine;
const query = (args: object) => engine.runJson('query_topology', args).then((r) => r.result) as Promise<TopologyEntry[]>;

beforeAll(async () => {
  const oc = await nodeKernel();
  engine = testEngine();
  addShapeBody(oc, engine.scene, 'part', makeFeatureBlock(oc));
});

describe('query_topology on a block with a through-hole and a blind pocket', () => {
  it('finds exactly the planar faces with their areas', async () => {
    const planes = await query({ bodyId: 'part', entity: 'face', filter: { surfaceType: 'plane' } });
    const holeArea = Math.PI * 16;
    const expected = [40 * 30 - holeArea, 40 * 30 - holeArea - 80, 800, 800, 600, 600, 80, 50, 50, 40, 40].sort((a, b) => a - b);
    const areas = planes.map((f) => f.area!).sort((a, b) => a - b);
    expect(areas).toHaveLength(expected.length);
    areas.forEach((a, i) => close(a, expected[i]!));
    for (const f of planes) expect(f.id).toMatch(/^face\[\d+\]$/);
  });

  it('finds the one cylindrical face of the hole, area 2 pi r h', async () => {
    const cylinders = await query({ bodyId: 'part', entity: 'face', filter: { surfaceType: 'cylinder' } });
    expect(cylinders).toHaveLength(1);
    close(cylinders[0]!.area!, 2 * Math.PI * 4 * 20);
    close(cylinders[0]!.centroid[0], 10);
    close(cylinders[0]!.centroid[1], 15);
    close(cylinders[0]!.centroid[2], 10);
  });

  it("finds the hole's two circular edges with radius, centre and axis", async () => {
    const circles = await query({ bodyId: 'part', entity: 'edge', filter: { curveType: 'CIRCULAR' } });
    expect(circles).toHaveLength(2);
    const zs = circles.map((c) => c.circleCenter![2]).sort((a, b) => a - b);
    close(zs[0]!, 0);
    close(zs[1]!, 20);
    for (const c of circles) {
      close(c.radius!, FEATURE_BLOCK.hole.radius);
      close(c.circleCenter![0], 10);
      close(c.circleCenter![1], 15);
      close(Math.abs(c.axis![2]), 1);
      close(c.length!, 2 * Math.PI * 4);
      close(c.endAngle! - c.startAngle!, 2 * Math.PI);
      expect(c.endpoints).toHaveLength(2);
    }
    // The origin's lower-case spelling filters the same edges.
    expect(await query({ bodyId: 'part', entity: 'edge', filter: { curveType: 'circle' } })).toEqual(circles);
  });

  it('gives LINE edges a unit direction along their endpoints', async () => {
    const lines = await query({ bodyId: 'part', entity: 'edge', filter: { curveType: 'LINE' } });
    expect(lines.length).toBeGreaterThanOrEqual(24);
    for (const l of lines) {
      const [a, b] = l.endpoints!;
      const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const len = Math.hypot(d[0]!, d[1]!, d[2]!);
      close(len, l.length!);
      d.forEach((x, i) => close(x / len, l.direction![i]!));
    }
  });

  it('applies area filters and limit; no match gives an empty array', async () => {
    const big = await query({ bodyId: 'part', entity: 'face', filter: { minArea: 700 } });
    expect(big.map((f) => Math.round(f.area!))).toEqual(expect.arrayContaining([800, 800, 1150, 1070]));
    expect(big).toHaveLength(4);
    expect(await query({ bodyId: 'part', entity: 'face', limit: 3 })).toHaveLength(3);
    expect(await query({ bodyId: 'part', entity: 'face', filter: { surfaceType: 'torus' } })).toEqual([]);
  });

  it('lists vertices with their points', async () => {
    const vertices = await query({ bodyId: 'part', entity: 'vertex' });
    expect(vertices.some((v) => v.centroid.every((x, i) => Math.abs(x - [40, 30, 20][i]!) < 1e-12))).toBe(true);
  });

  it('treats a mesh body as a facet shell', async () => {
    const stl = writeBinaryStl({ positions: Float64Array.from([0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2]), indices: Uint32Array.from([0, 2, 1, 0, 1, 3, 1, 2, 3, 0, 3, 2]) });
    await engine.run('import_file', { bytes: Buffer.from(stl).toString('base64'), fileName: 'tet.stl', bodyId: 'tet' });
    const faces = await query({ bodyId: 'tet', entity: 'face' });
    expect(faces.map((f) => f.surfaceType)).toEqual(['plane', 'plane', 'plane', 'plane']);
    close(faces[0]!.area!, 2);
    expect(await query({ bodyId: 'tet', entity: 'edge' })).toHaveLength(6);
    expect(await query({ bodyId: 'tet', entity: 'vertex' })).toHaveLength(4);
  });

  it('rejects bad arguments with INVALID_ARGUMENT and unknown bodies with BODY_NOT_FOUND', async () => {
    await expect(query({ bodyId: 'nope', entity: 'face' })).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
    await expect(query({ bodyId: 'part', entity: 'solid' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(query({ bodyId: 'part', entity: 'face', limit: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(query({ bodyId: 'part', entity: 'face', limit: 1.5 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(query({ bodyId: 'part', entity: 'vertex', filter: { curveType: 'LINE' } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(query({ bodyId: 'part', entity: 'face', filter: { minArea: 5, maxArea: 1 } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
