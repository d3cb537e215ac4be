import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { makeBox, makeCylinder } from '../../test/kernelShapes';
import { addShapeBody } from './addShapeBody';
import type { BrepBody } from './Body';
import { displayEdges } from './displayEdges';
import { writeBinaryStl } from './import/stl';
import { DISPLAY_DEFLECTION_RATIO, shapeDiagonal } from './tessellation';

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

type Vec3 = [number, number, number];
interface EdgeEntry {
  id: string;
  curveType: string;
  length: number;
  endpoints: [Vec3, Vec3];
  circleCenter?: Vec3;
  radius?: number;
  axis?: Vec3;
}

async function edgeEntries(bodyId: string): Promise<EdgeEntry[]> {
  return (await engine.run('query_topology', { bodyId, entity: 'edge' })).result as EdgeEntry[];
}

/** Segments grouped by edge id: [ax, ay, az, bx, by, bz] per segment. */
function segmentsByEdge(positions: Float32Array, edgeIds: Uint32Array): Map<number, number[][]> {
  const out = new Map<number, number[][]>();
  for (let s = 0; s < edgeIds.length; s++) {
    const id = edgeIds[s]!;
    const list = out.get(id) ?? [];
    list.push(Array.from(positions.subarray(6 * s, 6 * s + 6)));
    out.set(id, list);
  }
  return out;
}

const dist = (a: ArrayLike<number>, b: ArrayLike<number>) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

describe('displayEdges', () => {
  it('box: 12 edges, each one straight segment between its query_topology endpoints, of its length', async () => {
    const { positions, edgeIds } = displayEdges(oc, box);
    expect(positions).toBeInstanceOf(Float32Array);
    expect(positions.length).toBe(edgeIds.length * 6);
    expect(edgeIds.length).toBe(12);
    expect([...edgeIds].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    const entries = await edgeEntries('box');
    expect(entries).toHaveLength(12);
    const lengths: number[] = [];
    for (let s = 0; s < 12; s++) {
      const a = positions.subarray(6 * s, 6 * s + 3);
      const b = positions.subarray(6 * s + 3, 6 * s + 6);
      const entry = entries[edgeIds[s]!]!;
      expect(entry.id).toBe(`edge[${edgeIds[s]}]`);
      expect(entry.curveType).toBe('LINE');
      expect(dist(a, b)).toBeCloseTo(entry.length, 5);
      // Same endpoints, in either order.
      const [p, q] = entry.endpoints;
      expect(Math.min(dist(a, p) + dist(b, q), dist(a, q) + dist(b, p))).toBeLessThan(1e-5);
      lengths.push(dist(a, b));
    }
    expect(lengths.map((l) => Math.round(l)).sort((x, y) => x - y)).toEqual([10, 10, 10, 10, 20, 20, 20, 20, 30, 30, 30, 30]);
  });

  it('cylinder: circular edges are polylines on their circle within the display deflection; ids match query_topology', async () => {
    const { positions, edgeIds } = displayEdges(oc, cyl);
    const deflection = shapeDiagonal(oc, cyl) * DISPLAY_DEFLECTION_RATIO;
    const entries = await edgeEntries('cyl');
    const byEdge = segmentsByEdge(positions, edgeIds);
    // A cylinder has 3 edges: two circles and the seam line; every one is drawn.
    expect(entries).toHaveLength(3);
    expect([...byEdge.keys()].sort()).toEqual([0, 1, 2]);
    const circles = entries.filter((e) => e.curveType === 'CIRCULAR');
    expect(circles).toHaveLength(2);
    expect(circles.map((c) => c.circleCenter![2]).sort((a, b) => a - b)).toEqual([0, 20]);
    for (const circle of circles) {
      const index = Number(/\d+/.exec(circle.id)![0]);
      const segments = byEdge.get(index)!;
      // Round on screen: many segments, each chord within the deflection of the arc.
      expect(segments.length).toBeGreaterThan(16);
      const [cx, cy, cz] = circle.circleCenter!;
      let polyline = 0;
      for (const s of segments) {
        for (const k of [0, 3]) {
          expect(Math.abs(Math.hypot(s[k]! - cx, s[k + 1]! - cy) - 5)).toBeLessThan(1e-5);
          expect(Math.abs(s[k + 2]! - cz)).toBeLessThan(1e-5);
        }
        // Sagitta of the chord: how far its middle is inside the circle.
        const mx = (s[0]! + s[3]!) / 2 - cx, my = (s[1]! + s[4]!) / 2 - cy;
        expect(5 - Math.hypot(mx, my)).toBeLessThanOrEqual(deflection * 1.0001);
        polyline += dist(s.slice(0, 3), s.slice(3, 6));
      }
      // A closed polyline: consecutive segments share ends, and it goes once around.
      for (let i = 1; i < segments.length; i++) expect(dist(segments[i - 1]!.slice(3, 6), segments[i]!.slice(0, 3))).toBeLessThan(1e-6);
      expect(dist(segments[0]!.slice(0, 3), segments.at(-1)!.slice(3, 6))).toBeLessThan(1e-5);
      expect(polyline).toBeLessThanOrEqual(circle.length);
      expect(polyline).toBeGreaterThan(circle.length * 0.995);
    }
    const seam = entries.find((e) => e.curveType === 'LINE')!;
    const seamSegments = byEdge.get(Number(/\d+/.exec(seam.id)![0]))!;
    expect(seamSegments).toHaveLength(1);
    expect(dist(seamSegments[0]!.slice(0, 3), seamSegments[0]!.slice(3, 6))).toBeCloseTo(20, 5);
  });

  it('a mesh body has no edge lines; a BREP body needs the kernel', async () => {
    const stl = writeBinaryStl({
      positions: Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
      indices: Uint32Array.from([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]),
    });
    await engine.run('import_file', { bytes: Buffer.from(stl).toString('base64'), fileName: 'tet.stl', bodyId: 'tet' });
    const edges = displayEdges(undefined, engine.scene.get('tet'));
    expect(edges.positions).toHaveLength(0);
    expect(edges.edgeIds).toHaveLength(0);
    expect(() => displayEdges(undefined, box)).toThrow(/needs the kernel/);
  });
});
