import { describe, expect, it } from 'vitest';
import { box, cylinder, flipWinding, grid, mergeMeshes, seededRandom } from './generators';
import { createSignedDeviation, prepareDeviationReference, robustReach, signedDeviation, REACH_FLOOR } from './signedDeviation';
import type { TriMesh } from './TriMesh';

const N = 64;
// A thin-walled open reference: outer skin r = 10 facing out, inner skin r = 8 facing in.
const thinWall = mergeMeshes(
  cylinder({ radius: 10, height: 20, segments: N, stacks: 4, z0: -10 }),
  cylinder({ radius: 8, height: 20, segments: N, stacks: 4, z0: -10, inward: true }),
);

function translate(mesh: TriMesh, dz: number): TriMesh {
  const positions = mesh.positions.slice();
  for (let i = 2; i < positions.length; i += 3) positions[i] = positions[i]! + dz;
  return { positions, indices: mesh.indices };
}

describe('signedDeviation on a thin-walled reference (the spec case)', () => {
  const ref = prepareDeviationReference(thinWall);
  // Samples toward facet middles, where the faceted skins are exactly R cos(pi / N) from the axis.
  const angles = [0.5, 7.5, 21.5, 40.5].map((j) => (2 * Math.PI * j) / N);
  const inner = 8 * Math.cos(Math.PI / N) - 5.5;
  const outer = 10 * Math.cos(Math.PI / N) - 5.5;

  it('robust: the inner wall is rejected, and the outer wall disagrees on the side: withheld, never -4.5', () => {
    // The sample sits 2.5 outside the inner skin (its nearest surface) and 4.5 inside the outer one
    // (its compatible surface): the two put it on opposite sides, so it has no sign; its magnitude
    // would be the nearest distance 2.5 (issue 33: never the compatible surface's 4.5).
    for (const phi of angles) {
      const c = Math.cos(phi), s = Math.sin(phi);
      const r = signedDeviation(ref, 5.5 * c, 5.5 * s, 1.3, c, s, 0, 'robust');
      expect(r.distance).toBeCloseTo(inner, 12); // unsigned figure: nearest wall, whatever it faces
      expect(r.ambiguous).toBe(true);
      expect(r.reason).toBe('notNearest');
      expect(Number.isNaN(r.signed)).toBe(true);
      expect(Math.hypot(r.winner.x, r.winner.y)).toBeCloseTo(10 * Math.cos(Math.PI / N), 12);
    }
    expect(inner).toBeCloseTo(2.49, 2);
    expect(outer).toBeCloseTo(4.49, 2);
  });

  it('nearest: the inner wall wins and the sample reads +2.5', () => {
    for (const phi of angles) {
      const c = Math.cos(phi), s = Math.sin(phi);
      const r = signedDeviation(ref, 5.5 * c, 5.5 * s, 1.3, c, s, 0, 'nearest');
      expect(r.distance).toBeCloseTo(inner, 12);
      expect(r.ambiguous).toBe(false);
      expect(r.signed).toBeCloseTo(inner, 12);
    }
  });

  it('robust: a sample inside the wall with an outward normal is shy of the outer skin', () => {
    const phi = (2 * Math.PI * 16.5) / N;
    const c = Math.cos(phi), s = Math.sin(phi);
    const r = signedDeviation(ref, 9.5 * c, 9.5 * s, 0, c, s, 0, 'robust');
    expect(r.ambiguous).toBe(false);
    expect(r.signed).toBeLessThan(0);
    expect(r.signed).toBeCloseTo(-(10 * Math.cos(Math.PI / N) - 9.5), 12);
  });
});

describe('signedDeviation ambiguity', () => {
  it('is ambiguous without a compatible surface, or with a zero normal', () => {
    const innerOnly = prepareDeviationReference(cylinder({ radius: 8, height: 20, segments: N, z0: -10, inward: true }));
    // Compatible triangles exist across the axis (at least 11 away), but reach is max(4 x 0.5, 2% of 30).
    const r = signedDeviation(innerOnly, 7.5, 0, 0, 1, 0, 0, 'robust');
    expect(r.ambiguous).toBe(true);
    expect(r.reason).toBe('noCompatibleSurface');
    expect(Number.isNaN(r.signed)).toBe(true);
    // Toward a vertex column from inside, the nearest point is inside the facets beside it.
    const d0 = (8 - 7.5) * Math.cos(Math.PI / N);
    expect(r.distance).toBeCloseTo(d0, 12);
    const z = signedDeviation(innerOnly, 7.5, 0, 0, 0, 0, 0, 'robust');
    expect(z.reason).toBe('zeroNormal');
    // nearest mode signs it anyway (it ignores the sample normal).
    expect(signedDeviation(innerOnly, 7.5, 0, 0, 0, 0, 0, 'nearest').signed).toBeCloseTo(d0, 12);
  });

  it('limits the robust search to reach = max(4 d0, 2% of the diagonal)', () => {
    // Lower plate faces down, upper plate (z = 1) faces up; samples above the lower plate face up.
    const ref = prepareDeviationReference(mergeMeshes(flipWinding(grid(10, 10)), translate(grid(10, 10), 1)));
    expect(ref.diagonal).toBeCloseTo(Math.hypot(10, 10, 1), 12);
    expect(robustReach(ref, 0.1)).toBeCloseTo(Math.max(0.4, REACH_FLOOR * ref.diagonal), 12);
    const near = signedDeviation(ref, 5.5, 5.5, 0.1, 0, 0, 1, 'robust'); // compatible plate 0.9 away, reach 0.4
    expect(near.reason).toBe('noCompatibleSurface');
    // 0.7 away, reach 1.2: the compatible plate is found; it and the nearest (downward) plate both
    // put the sample on their back side, so the sign is -, and the magnitude is the nearest distance 0.3.
    const mid = signedDeviation(ref, 5.5, 5.5, 0.3, 0, 0, 1, 'robust');
    expect(mid.ambiguous).toBe(false);
    expect(mid.signed).toBeCloseTo(-0.3, 12);
    expect(mid.distance).toBeCloseTo(0.3, 12);
    expect(mid.winner.z).toBeCloseTo(1, 12);
    // Exactly at reach still counts: d0 = 0.2, compatible plate 0.8 = 4 x 0.2 away.
    expect(signedDeviation(ref, 5.5, 5.5, 0.2, 0, 0, 1, 'robust').signed).toBeCloseTo(-0.2, 12);
  });

  it('flags a sample when an opposite-side surface lies within the tie band (1.15 d + 1e-9)', () => {
    // Two plates facing up, at z = 0 and z = 1.
    const ref = prepareDeviationReference(mergeMeshes(grid(10, 10), translate(grid(10, 10), 1)));
    const t = createSignedDeviation();
    expect(signedDeviation(ref, 5.5, 5.5, 0.3, 0, 0, 1, 'nearest', t).signed).toBeCloseTo(0.3, 12);
    // d = 0.47, band 0.5405 reaches the upper plate (0.53, below it: opposite side).
    expect(signedDeviation(ref, 5.5, 5.5, 0.47, 0, 0, 1, 'nearest', t).reason).toBe('tieBand');
    expect(signedDeviation(ref, 5.5, 5.5, 0.47, 0, 0, 1, 'robust', t).reason).toBe('tieBand');
    // d = 0.46, band 0.529 + 1e-9 falls short of 0.54.
    expect(signedDeviation(ref, 5.5, 5.5, 0.46, 0, 0, 1, 'robust', t).signed).toBeCloseTo(0.46, 12);
  });

  it('does not flag samples near the edges and corners of a closed box', () => {
    const ref = prepareDeviationReference(box([-1, -1, -1], [1, 1, 1], 2));
    const rnd = seededRandom(21);
    const t = createSignedDeviation();
    for (let i = 0; i < 500; i++) {
      // Points 0.05 off the surface along its normal cone, near a corner or an edge.
      const d = 0.05 * (rnd() < 0.5 ? -1 : 1);
      const p = [rnd() < 0.5 ? -1 : 1, rnd() < 0.5 ? -1 : 1, 2 * rnd() - 1].map((v, k) => (k < 2 ? v * (1 + d) : v));
      const n = [Math.sign(p[0]!), Math.sign(p[1]!), 0];
      for (const mode of ['nearest', 'robust'] as const) {
        signedDeviation(ref, p[0]!, p[1]!, p[2]!, n[0]!, n[1]!, n[2]!, mode, t);
        expect(t.ambiguous).toBe(false);
        expect(Math.sign(t.signed)).toBe(Math.sign(d));
      }
    }
  });
});

describe('issue 33: the magnitude is the nearest distance; closed references classify', () => {
  it('isClosed: a closed box yes; a box missing a triangle, or with one triangle flipped, no', () => {
    const closed = box([0, 0, 0], [1, 1, 1], 2);
    expect(prepareDeviationReference(closed).pseudoNormals.isClosed()).toBe(true);
    const open = { positions: closed.positions, indices: closed.indices.slice(3) };
    expect(prepareDeviationReference(open).pseudoNormals.isClosed()).toBe(false);
    const flipped = { positions: closed.positions, indices: closed.indices.slice() };
    [flipped.indices[1], flipped.indices[2]] = [flipped.indices[2]!, flipped.indices[1]!];
    expect(prepareDeviationReference(flipped).pseudoNormals.isClosed()).toBe(false);
  });

  it('inside a closed box near a corner: the nearest face is perpendicular to the sample normal, the facing one agrees: -d0', () => {
    const ref = prepareDeviationReference(box([-1, -1, -1], [1, 1, 1], 2));
    // 0.01 under the top face, 0.05 inside the +x face; the sample's own normal is +x.
    const r = signedDeviation(ref, 0.95, 0.3, 0.99, 1, 0, 0, 'robust');
    expect(r.distance).toBeCloseTo(0.01, 12);
    expect(r.ambiguous).toBe(false);
    expect(r.signed).toBeCloseTo(-0.01, 12);
    expect(r.winner.x).toBeCloseTo(1, 12);
    // Outside, the same geometry mirrored: +d0.
    const o = signedDeviation(ref, 1.05, 0.3, 1.01, 1, 0, 0, 'robust');
    expect(o.signed).toBeCloseTo(Math.hypot(0.05, 0.01), 12);
  });
});
