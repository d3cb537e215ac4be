import { describe, expect, it } from 'vitest';
import { buildBvh } from './TriangleBvh';
import { box, disc, flipWinding, mergeMeshes, randomSoup, seededRandom, uvSphere } from './generators';
import { buildFastWinding, windingNumber, windingNumberExact } from './windingNumber';
import type { TriMesh } from './TriMesh';

const cube = box([-1, -1, -1], [1, 1, 1], 2);

/** The cube without its +z face (the last face the generator emits: 8 triangles at 2 divisions). */
const openCube: TriMesh = { positions: cube.positions, indices: cube.indices.subarray(0, cube.indices.length - 24) };

/** The cube with its +z face turned inside out. */
const oneFaceFlipped: TriMesh = {
  positions: cube.positions,
  indices: new Uint32Array([...openCube.indices, ...flipWinding({ positions: cube.positions, indices: cube.indices.subarray(cube.indices.length - 24) }).indices]),
};

function both(mesh: TriMesh) {
  const fw = buildFastWinding(buildBvh(mesh));
  return (x: number, y: number, z: number) => {
    const exact = windingNumberExact(mesh, x, y, z);
    const fast = windingNumber(fw, x, y, z);
    expect(Math.abs(fast - exact)).toBeLessThan(1e-3);
    return exact;
  };
}

describe('windingNumberExact', () => {
  it('is 1 inside a closed cube, 0 outside, -1 inside a reversed one', () => {
    const w = both(cube);
    const r = both(flipWinding(cube));
    for (const p of [[0, 0, 0], [0.9, -0.9, 0.5], [-0.99, 0.99, 0.99]] as const) {
      expect(w(p[0], p[1], p[2])).toBeCloseTo(1, 12);
      expect(r(p[0], p[1], p[2])).toBeCloseTo(-1, 12);
    }
    for (const p of [[3, 0, 0], [1.01, 1.01, 0], [-5, 7, 2], [0, 0, 100]] as const) {
      expect(w(p[0], p[1], p[2])).toBeCloseTo(0, 12);
      expect(r(p[0], p[1], p[2])).toBeCloseTo(0, 12);
    }
  });

  it('is fractional for open and inconsistently wound meshes', () => {
    // From the centre each face subtends a sixth of the sphere.
    expect(both(openCube)(0, 0, 0)).toBeCloseTo(5 / 6, 12);
    expect(both(oneFaceFlipped)(0, 0, 0)).toBeCloseTo(4 / 6, 12);
    // Far below the opening, the open cube looks like a closed one seen from outside with a hole: near 0.
    expect(Math.abs(both(openCube)(0, 0, -50))).toBeLessThan(1e-3);
  });

  it('is half the solid angle fraction of a disc: jumps by one across it, zero in its plane outside it', () => {
    const R = 2;
    const w = both(disc(R, 512));
    for (const h of [1e-6, 0.1, 1, 10]) {
      // A 512-gon is within (1 - cos(pi / 512)) of the circle; the analytic value is for the circle.
      const analytic = 0.5 * (1 - h / Math.hypot(h, R));
      expect(w(0, 0, h)).toBeCloseTo(-analytic, 4);
      expect(w(0, 0, -h)).toBeCloseTo(analytic, 4);
    }
    expect(w(0.3, 0.2, 1e-9) - w(0.3, 0.2, -1e-9)).toBeCloseTo(-1, 6);
    expect(w(3, 0, 0)).toBe(0);
    expect(w(-5, 1, 0)).toBe(0);
  });
});

describe('windingNumber (fast)', () => {
  it('is within 1e-3 of the exact sum on a 100k-triangle sphere', () => {
    const R = 5;
    const mesh = uvSphere(R, 317, 159, [1, 2, 3]); // 100,172 triangles
    expect(mesh.indices.length / 3).toBeGreaterThan(100_000);
    const fw = buildFastWinding(buildBvh(mesh));
    const rnd = seededRandom(31);
    let worst = 0, insideWorst = 0;
    for (let i = 0; i < 150; i++) {
      let p: number[];
      if (i % 3 === 0) {
        // Close to the surface, inside and outside: the near field is exact, the far field approximate.
        const u = 2 * rnd() - 1, phi = 2 * Math.PI * rnd(), rho = R * (1 + 0.02 * (2 * rnd() - 1));
        const s = Math.sqrt(1 - u * u);
        p = [1 + rho * s * Math.cos(phi), 2 + rho * s * Math.sin(phi), 3 + rho * u];
      } else p = [1 + 4 * R * (rnd() - 0.5), 2 + 4 * R * (rnd() - 0.5), 3 + 4 * R * (rnd() - 0.5)];
      const exact = windingNumberExact(mesh, p[0]!, p[1]!, p[2]!);
      const fast = windingNumber(fw, p[0]!, p[1]!, p[2]!);
      worst = Math.max(worst, Math.abs(fast - exact));
      const r = Math.hypot(p[0]! - 1, p[1]! - 2, p[2]! - 3);
      if (r < R * 0.99) insideWorst = Math.max(insideWorst, Math.abs(exact - 1));
      if (r > R) expect(Math.abs(exact)).toBeLessThan(1e-9);
    }
    expect(worst).toBeLessThan(1e-3);
    expect(insideWorst).toBeLessThan(1e-9);
  });

  it('is within 1e-3 on a random soup, and order 3 and a larger beta beat order 2 and the default', () => {
    const rnd = seededRandom(32);
    const mesh = mergeMeshes(randomSoup(3000, 10, rnd), uvSphere(3, 40, 20, [5, 5, 5]));
    const fw = buildFastWinding(buildBvh(mesh));
    const err = [0, 0, 0, 0];
    for (let i = 0; i < 200; i++) {
      const p = [14 * rnd() - 2, 14 * rnd() - 2, 14 * rnd() - 2];
      const exact = windingNumberExact(mesh, p[0]!, p[1]!, p[2]!);
      err[0] = Math.max(err[0]!, Math.abs(windingNumber(fw, p[0]!, p[1]!, p[2]!, { order: 1 }) - exact));
      err[1] = Math.max(err[1]!, Math.abs(windingNumber(fw, p[0]!, p[1]!, p[2]!, { order: 2 }) - exact));
      err[2] = Math.max(err[2]!, Math.abs(windingNumber(fw, p[0]!, p[1]!, p[2]!) - exact));
      err[3] = Math.max(err[3]!, Math.abs(windingNumber(fw, p[0]!, p[1]!, p[2]!, { beta: 5 }) - exact));
    }
    expect(err[2]).toBeLessThan(1e-3);
    expect(err[2]).toBeLessThan(err[1]!);
    expect(err[0]).toBeGreaterThan(err[2]!);
    expect(err[3]).toBeLessThan(err[2]!);
  });

  it('is 0 on an empty mesh', () => {
    const fw = buildFastWinding(buildBvh({ positions: new Float64Array(0), indices: new Uint32Array(0) }));
    expect(windingNumber(fw, 0, 0, 0)).toBe(0);
  });
});
