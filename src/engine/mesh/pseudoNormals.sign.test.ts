import { describe, expect, it } from 'vitest';
import { buildBvh } from './TriangleBvh';
import { closestPoint, createHit } from './closestPoint';
import { Feature } from './closestPointOnTriangle';
import { box, cylinder, seededRandom, uvSphere } from './generators';
import { buildPseudoNormals, sideOf } from './pseudoNormals';
import { weldVertexIds } from './weld';
import type { TriMesh } from './TriMesh';

function signAt(mesh: TriMesh) {
  const bvh = buildBvh(mesh);
  const pn = buildPseudoNormals(mesh);
  const hit = createHit();
  return (x: number, y: number, z: number) => {
    closestPoint(bvh, x, y, z, hit);
    return { side: sideOf(pn, hit, x, y, z), feature: hit.feature, distance: hit.distance };
  };
}

describe('weldVertexIds', () => {
  it('merges bit-identical corners, including -0 and +0', () => {
    const { ids, count } = weldVertexIds(new Float64Array([0, 0, 0, 1, 2, 3, -0, 0, -0, 1, 2, 3, 1, 2, 3 + 1e-15]));
    expect(count).toBe(3);
    expect(Array.from(ids)).toEqual([0, 1, 0, 1, 2]);
  });

  it('welds a box whose faces repeat their boundary vertices', () => {
    const mesh = box([0, 0, 0], [1, 1, 1], 3);
    expect(mesh.positions.length / 3).toBe(6 * 16);
    expect(weldVertexIds(mesh.positions).count).toBe(8 + 12 * 2 + 6 * 4);
  });
});

describe('pseudo-normal sign on a cube', () => {
  // Faces do not share vertices (as in a BREP tessellation), and are split into 3 x 3 grids.
  for (const divisions of [1, 3]) {
    const at = signAt(box([-1, -1, -1], [1, 1, 1], divisions));

    it(`is positive outside and negative inside at corners, on the exact diagonal (divisions ${divisions})`, () => {
      for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) {
        for (const t of [1e-9, 0.01, 0.3, 5]) {
          const outside = at(sx * (1 + t), sy * (1 + t), sz * (1 + t));
          expect(outside.feature).toBeGreaterThanOrEqual(Feature.vertexA);
          expect(outside.distance).toBeCloseTo(Math.sqrt(3) * t, 12);
          expect(outside.side).toBe(1);
          if (t < 1) expect(at(sx * (1 - t), sy * (1 - t), sz * (1 - t)).side).toBe(-1);
        }
      }
    });

    it(`is right near edges and slightly off the diagonals (divisions ${divisions})`, () => {
      const rnd = seededRandom(11 + divisions);
      for (let i = 0; i < 2000; i++) {
        // A point near a random edge or corner: two or three coordinates close to +-1.
        const p = [2 * rnd() - 1, 2 * rnd() - 1, 2 * rnd() - 1];
        const axes = rnd() < 0.5 ? [0, 1] : [0, 1, 2];
        const shift = Math.floor(3 * rnd());
        for (const a of axes) {
          const k = (a + shift) % 3;
          p[k] = (rnd() < 0.5 ? -1 : 1) * (1 + 0.02 * (2 * rnd() - 1));
        }
        const inside = p.every((v) => Math.abs(v) < 1);
        const onSurface = p.every((v) => Math.abs(v) <= 1) && p.some((v) => Math.abs(v) === 1);
        if (onSurface) continue;
        expect(at(p[0]!, p[1]!, p[2]!).side).toBe(inside ? -1 : 1);
      }
    });
  }

  it('gives -1 throughout a reversed cube', () => {
    const mesh = box([-1, -1, -1], [1, 1, 1]);
    const reversed = signAt({ positions: mesh.positions, indices: mesh.indices.slice().reverse() });
    expect(reversed(2, 2, 2).side).toBe(-1);
    expect(reversed(0, 1.5, 1.5).side).toBe(-1);
    expect(reversed(0.9, 0.9, 0.9).side).toBe(1);
  });
});

describe('pseudo-normal sign where face normals fail', () => {
  // A sharp pyramid apex: from a point just outside, along the normal of one face, the nearest
  // feature is the apex, and the opposite face's normal points away from the point.
  const apex: TriMesh = {
    positions: new Float64Array([0, 0, 3, -1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0]),
    indices: new Uint32Array([0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 1, 1, 4, 3, 1, 3, 2]),
  };
  it('is positive above the apex where a neighbouring face normal says negative', () => {
    const at = signAt(apex);
    const p = [0.9, 0, 3.5];
    const r = at(p[0]!, p[1]!, p[2]!);
    expect(r.feature).toBeGreaterThanOrEqual(Feature.vertexA);
    expect(r.side).toBe(1);
    // The face x = -.. (normal (-3, 0, 1) / sqrt(10)) sees the same point as behind it.
    expect((p[0]! - 0) * -3 + (p[2]! - 3) * 1).toBeLessThan(0);
    expect(at(0, 0, 2.9).side).toBe(-1);
  });
});

describe('pseudo-normal sign on curved closed meshes', () => {
  it('matches inside/outside of a sphere and a capped cylinder', () => {
    const rnd = seededRandom(12);
    const sphere = signAt(uvSphere(2, 24, 12));
    const cyl = signAt(cylinder({ radius: 1.5, height: 3, segments: 20, stacks: 3, caps: true }));
    for (let i = 0; i < 1000; i++) {
      const p = [6 * rnd() - 3, 6 * rnd() - 3, 6 * rnd() - 3];
      const rho = Math.hypot(p[0]!, p[1]!, p[2]!);
      // Skip the shell between the polyhedron and the true sphere, whose side is a matter of facets.
      if (rho < 2 * Math.cos(Math.PI / 12) - 1e-6 || rho > 2) expect(sphere(p[0]!, p[1]!, p[2]!).side).toBe(rho < 2 ? -1 : 1);
      const q = [p[0]!, p[1]!, p[2]! + 1.5];
      const rq = Math.hypot(q[0]!, q[1]!);
      const inZ = q[2]! > 0 && q[2]! < 3;
      const inside = inZ && rq < 1.5 * Math.cos(Math.PI / 20);
      const outside = !inZ || rq > 1.5;
      if (inside || outside) expect(cyl(q[0]!, q[1]!, q[2]!).side).toBe(inside ? -1 : 1);
    }
  });
});
