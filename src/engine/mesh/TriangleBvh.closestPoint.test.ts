import { describe, expect, it } from 'vitest';
import { LINK_OFFSET, NODE_STRIDE } from './bvhLayout';
import { buildBvh } from './TriangleBvh';
import { closestPointOnTriangle, Feature } from './closestPointOnTriangle';
import {
  closestCompatiblePoint,
  closestPoint,
  createHit,
  createNearestTriangles,
  kNearestTriangles,
  someTriangleWithin,
} from './closestPoint';
import { box, cylinder, mergeMeshes, randomSoup, seededRandom, uvSphere } from './generators';
import type { TriMesh } from './TriMesh';
import { checkStructure, corners } from '../../test/bvhStructure';

const out = new Float64Array(4);


/** Independent reference: plane projection when it falls inside, else the nearest of the three edges. */
function referenceDistanceSq(c: Float64Array, p: readonly number[]): number {
  const sub = (i: number, j: number) => [c[j]! - c[i]!, c[j + 1]! - c[i + 1]!, c[j + 2]! - c[i + 2]!];
  const dot = (a: number[], b: readonly number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
  const cross = (a: number[], b: number[]) => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
  const seg = (i: number, j: number) => {
    const e = sub(i, j);
    const ap = [p[0]! - c[i]!, p[1]! - c[i + 1]!, p[2]! - c[i + 2]!];
    const l2 = dot(e, e);
    const t = l2 > 0 ? Math.min(1, Math.max(0, dot(ap, e) / l2)) : 0;
    const d = [ap[0]! - t * e[0]!, ap[1]! - t * e[1]!, ap[2]! - t * e[2]!];
    return dot(d, d);
  };
  const n = cross(sub(0, 3), sub(0, 6));
  const n2 = dot(n, n);
  let best = Math.min(seg(0, 3), seg(3, 6), seg(6, 0));
  if (n2 > 0) {
    const ap = [p[0]! - c[0]!, p[1]! - c[1]!, p[2]! - c[2]!];
    const h = dot(ap, n) / n2;
    const q = [p[0]! - h * n[0]!, p[1]! - h * n[1]!, p[2]! - h * n[2]!];
    // q is inside when it is on the inner side of all three edges.
    const inside = [0, 3, 6].every((i) => {
      const j = (i + 3) % 9;
      const e = sub(i, j);
      const w = [q[0]! - c[i]!, q[1]! - c[i + 1]!, q[2]! - c[i + 2]!];
      return dot(cross(e, w), n) >= 0;
    });
    if (inside) best = Math.min(best, h * h * n2);
  }
  return best;
}

function bruteForce(mesh: TriMesh, p: readonly number[]): { d2: number; t: number } {
  let d2 = Infinity, t = -1;
  for (let i = 0; i < mesh.indices.length / 3; i++) {
    const d = closestPointOnTriangle(corners(mesh, i), 0, p[0]!, p[1]!, p[2]!, out);
    if (d < d2) {
      d2 = d;
      t = i;
    }
  }
  return { d2, t };
}

function expectRelClose(a: number, b: number, rel = 1e-12): void {
  expect(Math.abs(a - b)).toBeLessThanOrEqual(rel * Math.max(Math.abs(a), Math.abs(b), 1e-300));
}

describe('closestPointOnTriangle', () => {
  it('matches an independent projection/edge computation on random and degenerate triangles', () => {
    const rnd = seededRandom(1);
    const features = new Set<number>();
    for (let i = 0; i < 20000; i++) {
      const c = new Float64Array(9);
      for (let k = 0; k < 9; k++) c[k] = 4 * rnd() - 2;
      if (i % 10 === 0) {
        // Exactly collinear: corners on a 1/1024 lattice, c the midpoint of ab.
        for (let k = 0; k < 6; k++) c[k] = Math.round(c[k]! * 1024) / 1024;
        for (let k = 0; k < 3; k++) c[6 + k] = (c[k]! + c[3 + k]!) / 2;
      }
      const p = [6 * rnd() - 3, 6 * rnd() - 3, 6 * rnd() - 3];
      const d = closestPointOnTriangle(c, 0, p[0]!, p[1]!, p[2]!, out);
      features.add(out[3]!);
      expect(Math.abs(d - referenceDistanceSq(c, p))).toBeLessThanOrEqual(1e-12 * Math.max(1, d));
      // The reported point realises the reported distance.
      expectRelClose(d, (p[0]! - out[0]!) ** 2 + (p[1]! - out[1]!) ** 2 + (p[2]! - out[2]!) ** 2);
    }
    expect(features.size).toBe(7);
  });

  it('names the feature whose Voronoi region holds the point', () => {
    const tri = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const at = (x: number, y: number, z: number) => (closestPointOnTriangle(tri, 0, x, y, z, out), out[3]);
    expect(at(0.2, 0.2, 1)).toBe(Feature.face);
    expect(at(-1, -1, 0)).toBe(Feature.vertexA);
    expect(at(2, -0.1, 0)).toBe(Feature.vertexB);
    expect(at(-0.1, 2, 0)).toBe(Feature.vertexC);
    expect(at(0.5, -1, 0)).toBe(Feature.edgeAB);
    expect(at(1, 1, 0.5)).toBe(Feature.edgeBC);
    expect(at(-1, 0.5, 0)).toBe(Feature.edgeCA);
  });
});

describe('buildBvh', () => {
  it('puts every triangle in exactly one leaf inside nested boxes', () => {
    const rnd = seededRandom(2);
    const soup = randomSoup(3000, 10, rnd);
    checkStructure(buildBvh(soup), soup, 4);
    checkStructure(buildBvh(soup, { maxLeafSize: 16 }), soup, 16);
    const sphere = uvSphere(3, 40, 20, [0.1, 1e3 / 3, -7.7]); // coordinates that float32 cannot hold
    checkStructure(buildBvh(sphere, { maxLeafSize: 8, bins: 8 }), sphere, 8);
    // All triangles identical: no plane separates them, the build must still terminate.
    const same: TriMesh = { positions: new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array(300).fill(0).map((_, i) => i % 3) };
    checkStructure(buildBvh(same), same, 4);
  });

  it('rejects malformed input', () => {
    expect(() => buildBvh({ positions: new Float64Array(9), indices: new Uint32Array([0, 1]) })).toThrow(/BVH/);
    expect(() => buildBvh({ positions: new Float64Array(9), indices: new Uint32Array([0, 1, 3]) })).toThrow(/out of range/);
    // Float32 positions take their own record loop; it checks indices the same way.
    expect(() => buildBvh({ positions: new Float32Array(9), indices: new Uint32Array([0, 1, 2, 2, 4, 0]) })).toThrow(/index 4 out of range/);
  });

  it('halves a part of two leaves at the median centre along its longest axis', () => {
    // 25 small triangles along x in shuffled order, a little spread in y: the longest axis is x.
    const n = 25, xs = Array.from({ length: n }, (_, i) => (i * 7) % n);
    const positions = new Float32Array(9 * n);
    xs.forEach((x, t) => positions.set([x, 0.1 * (t % 3), 0, x + 0.5, 0.1 * (t % 3), 0, x, 0.1 * (t % 3) + 0.5, 0], 9 * t));
    const mesh: TriMesh = { positions, indices: Uint32Array.from({ length: 3 * n }, (_, i) => i) };
    const bvh = buildBvh(mesh, { maxLeafSize: 16 });
    checkStructure(bvh, mesh, 16);
    expect(bvh.nodeCount).toBe(3);
    const leafXs = (node: number) => {
      const first = bvh.nodeLinks[NODE_STRIDE * node + LINK_OFFSET]!, count = bvh.nodeLinks[NODE_STRIDE * node + LINK_OFFSET + 1]!;
      return Array.from(bvh.slotTriangle.subarray(first, first + count), (t) => xs[t]!).sort((a, b) => a - b);
    };
    expect(leafXs(1)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(leafXs(2)).toEqual(Array.from({ length: 13 }, (_, i) => 12 + i));
  });

  it('answers nothing on an empty mesh', () => {
    const bvh = buildBvh({ positions: new Float64Array(0), indices: new Uint32Array(0) });
    expect(bvh.nodeCount).toBe(0);
    expect(closestPoint(bvh, 0, 0, 0).triangle).toBe(-1);
    expect(closestPoint(bvh, 0, 0, 0).distance).toBe(Infinity);
  });
});

describe('closestPoint', () => {
  const rnd = seededRandom(3);
  const meshes: [string, TriMesh][] = [
    ['random soup', randomSoup(2000, 10, rnd)],
    ['sphere', uvSphere(4, 48, 24, [5, 5, 5])],
    ['boxes', mergeMeshes(box([0, 0, 0], [3, 2, 1], 4), box([5, 5, 5], [9, 6, 7], 2))],
  ];
  for (const [name, mesh] of meshes) {
    it(`equals brute force on random points (${name})`, () => {
      const bvh = buildBvh(mesh);
      const hit = createHit();
      for (let i = 0; i < 300; i++) {
        const p = [16 * rnd() - 3, 16 * rnd() - 3, 16 * rnd() - 3];
        closestPoint(bvh, p[0]!, p[1]!, p[2]!, hit);
        const ref = bruteForce(mesh, p);
        expectRelClose(hit.distanceSq, ref.d2);
        expect(hit.distance).toBe(Math.sqrt(hit.distanceSq));
        // The hit's triangle and point are consistent with its distance.
        expectRelClose(closestPointOnTriangle(corners(mesh, hit.triangle), 0, p[0]!, p[1]!, p[2]!, out), ref.d2);
        expectRelClose((p[0]! - hit.x) ** 2 + (p[1]! - hit.y) ** 2 + (p[2]! - hit.z) ** 2, ref.d2);
      }
    });
  }

  it('respects maxDistance (strictly closer only)', () => {
    const bvh = buildBvh(box([0, 0, 0], [1, 1, 1]));
    expect(closestPoint(bvh, 0.5, 0.5, 3, createHit(), { maxDistance: 1.5 }).triangle).toBe(-1);
    expect(closestPoint(bvh, 0.5, 0.5, 3, createHit(), { maxDistance: 2 }).triangle).toBe(-1);
    expect(closestPoint(bvh, 0.5, 0.5, 3, createHit(), { maxDistance: 2.01 }).distance).toBe(2);
  });

  it('is at the analytic distance from a tessellated sphere', () => {
    const R = 2, seg = 64, rings = 32;
    const bvh = buildBvh(uvSphere(R, seg, rings));
    // Chords lie inside the sphere; the largest gap is under a quad's centre, bounded by the sagitta of its diagonal.
    const sag = R * (1 - Math.cos(Math.PI / seg + Math.PI / rings));
    const rnd = seededRandom(4);
    const hit = createHit();
    for (let i = 0; i < 500; i++) {
      const u = 2 * rnd() - 1, phi = 2 * Math.PI * rnd();
      const rho = R * (0.5 + rnd());
      const s = Math.sqrt(1 - u * u);
      closestPoint(bvh, rho * s * Math.cos(phi), rho * s * Math.sin(phi), rho * u, hit);
      if (rho >= R) {
        expect(hit.distance).toBeGreaterThanOrEqual(rho - R - 1e-12);
        expect(hit.distance).toBeLessThanOrEqual(rho - R + sag);
      } else {
        expect(hit.distance).toBeLessThanOrEqual(R - rho + 1e-12);
        expect(hit.distance).toBeGreaterThanOrEqual(R - rho - sag);
      }
      expect(Math.hypot(hit.x, hit.y, hit.z)).toBeLessThanOrEqual(R + 1e-12);
    }
  });

  it('is at the analytic distance from a tessellated cylinder', () => {
    const R = 3, n = 48;
    const bvh = buildBvh(cylinder({ radius: R, height: 10, segments: n, stacks: 5 }));
    const hit = createHit();
    for (const rho of [3.5, 7]) {
      for (let j = 0; j < n; j += 7) {
        // Towards a vertex column: the nearest point is on the column's vertical edge.
        let phi = (2 * Math.PI * j) / n;
        closestPoint(bvh, rho * Math.cos(phi), rho * Math.sin(phi), 3.3, hit);
        expect(hit.distance).toBeCloseTo(rho - R, 12);
        expect(hit.feature).not.toBe(Feature.face);
        // Towards a facet's middle: the nearest point is inside the facet, R cos(pi / n) from the axis.
        phi += Math.PI / n;
        closestPoint(bvh, rho * Math.cos(phi), rho * Math.sin(phi), 3.3, hit);
        expect(hit.distance).toBeCloseTo(rho - R * Math.cos(Math.PI / n), 12);
        expect(hit.z).toBeCloseTo(3.3, 12);
      }
    }
  });
});

describe('filtered and k-nearest queries', () => {
  const rnd = seededRandom(5);
  const mesh = mergeMeshes(uvSphere(3, 32, 16, [4, 4, 4]), randomSoup(500, 8, rnd));
  const bvh = buildBvh(mesh);

  it('closestCompatiblePoint equals brute force over triangles facing the normal', () => {
    const hit = createHit();
    for (let i = 0; i < 200; i++) {
      const p = [10 * rnd() - 1, 10 * rnd() - 1, 10 * rnd() - 1];
      const n = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
      let best = Infinity;
      for (let t = 0; t < mesh.indices.length / 3; t++) {
        const c = corners(mesh, t);
        const u = [c[3]! - c[0]!, c[4]! - c[1]!, c[5]! - c[2]!], v = [c[6]! - c[0]!, c[7]! - c[1]!, c[8]! - c[2]!];
        const dot = (u[1]! * v[2]! - u[2]! * v[1]!) * n[0]! + (u[2]! * v[0]! - u[0]! * v[2]!) * n[1]! + (u[0]! * v[1]! - u[1]! * v[0]!) * n[2]!;
        if (dot > 0) best = Math.min(best, closestPointOnTriangle(c, 0, p[0]!, p[1]!, p[2]!, out));
      }
      closestCompatiblePoint(bvh, p[0]!, p[1]!, p[2]!, n[0]!, n[1]!, n[2]!, hit);
      expectRelClose(hit.distanceSq, best);
    }
  });

  it('kNearestTriangles returns the k smallest distances in order', () => {
    const k = 7;
    const res = createNearestTriangles(k);
    for (let i = 0; i < 100; i++) {
      const p = [10 * rnd() - 1, 10 * rnd() - 1, 10 * rnd() - 1];
      const all: number[] = [];
      for (let t = 0; t < mesh.indices.length / 3; t++) all.push(closestPointOnTriangle(corners(mesh, t), 0, p[0]!, p[1]!, p[2]!, out));
      all.sort((a, b) => a - b);
      kNearestTriangles(bvh, p[0]!, p[1]!, p[2]!, res);
      expect(res.count).toBe(k);
      for (let j = 0; j < k; j++) {
        expectRelClose(res.distanceSq[j]!, all[j]!);
        const t = res.triangles[j]!;
        expectRelClose(closestPointOnTriangle(corners(mesh, t), 0, p[0]!, p[1]!, p[2]!, out), res.distanceSq[j]!);
      }
    }
  });

  it('someTriangleWithin with a normal visits exactly the facing triangles in the ball: the normal bounds never cull one, at any scale', () => {
    const hit = createHit();
    for (const scale of [1, 1e150, 1e-150]) {
      const scaled = { positions: mesh.positions.map((v) => v * scale), indices: mesh.indices };
      const tree = buildBvh(scaled);
      for (let i = 0; i < 60; i++) {
        const p = [(10 * rnd() - 1) * scale, (10 * rnd() - 1) * scale, (10 * rnd() - 1) * scale];
        const n: [number, number, number] = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
        const r = 3 * rnd() * scale;
        const expected = new Set<number>();
        for (let t = 0; t < scaled.indices.length / 3; t++) {
          const c = corners(scaled, t);
          const u = [c[3]! - c[0]!, c[4]! - c[1]!, c[5]! - c[2]!], v = [c[6]! - c[0]!, c[7]! - c[1]!, c[8]! - c[2]!];
          const dot = (u[1]! * v[2]! - u[2]! * v[1]!) * n[0] + (u[2]! * v[0]! - u[0]! * v[2]!) * n[1] + (u[0]! * v[1]! - u[1]! * v[0]!) * n[2];
          if (dot > 0 && closestPointOnTriangle(c, 0, p[0]!, p[1]!, p[2]!, out) <= r * r) expected.add(t);
        }
        const visited = new Set<number>();
        someTriangleWithin(tree, p[0]!, p[1]!, p[2]!, r, hit, (h) => (visited.add(h.triangle), false), n);
        expect([...visited].sort((x, y) => x - y), `scale ${scale}`).toEqual([...expected].sort((x, y) => x - y));
      }
    }
  });

  it('someTriangleWithin visits exactly the triangles in the ball', () => {
    const hit = createHit();
    for (let i = 0; i < 50; i++) {
      const p = [10 * rnd() - 1, 10 * rnd() - 1, 10 * rnd() - 1];
      const r = 2 * rnd();
      let expected = 0;
      for (let t = 0; t < mesh.indices.length / 3; t++) if (closestPointOnTriangle(corners(mesh, t), 0, p[0]!, p[1]!, p[2]!, out) <= r * r) expected++;
      const visited = new Set<number>();
      const stopped = someTriangleWithin(bvh, p[0]!, p[1]!, p[2]!, r, hit, (h) => (visited.add(h.triangle), false));
      expect(stopped).toBe(false);
      expect(visited.size).toBe(expected);
      if (expected > 0) expect(someTriangleWithin(bvh, p[0]!, p[1]!, p[2]!, r, hit, () => true)).toBe(true);
    }
  });
});
