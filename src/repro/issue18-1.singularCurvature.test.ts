import { beforeAll, describe, expect, it } from 'vitest';
import { graphMl, type GraphMlFace } from '../engine/graph/graphMl';
import type { OC } from '../engine/kernel';
import { nodeKernel } from '../node/nodeEngine';
import { makeApexCone, makeCollapsedCornerPatch, makeNurbsSphere, paraboloidCurvatures } from '../test/singularSurfaces';

/**
 * Issue 18, finding 1. graph-ml on a NURBS sphere (revolved, collapsed pole rows) gave 32 of 256
 * samples mean curvatures up to 2.4e15, Gaussian curvatures down to -3.7e30 and random normals: at a
 * pole dS/du is rounding noise, still roughly perpendicular to dS/dv, so the old sine test passed it.
 * Small spheres' pole normals pointed inward (H = -0.5 for r = 2); a collapsed B-spline corner gave
 * H near 3.7e10 on a sample marked inside. Every figure is now the surface's own value (its limit at
 * a singular point) or null, never a number the surface does not have.
 */

let oc: OC;
beforeAll(async () => {
  oc = await nodeKernel();
});

const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(1e-300, Math.abs(b));
const samples = (f: GraphMlFace) => f.positions.map((p, i) => ({ p, n: f.normals[i]!, K: f.gaussianCurvatures[i]!, H: f.meanCurvatures[i]!, inside: f.inside[i]! }));

describe('graph-ml at singular points (issue 18.1)', () => {
  for (const r of [5, 2, 0.01]) {
    it(`a NURBS sphere of radius ${r}: H = 1/r, K = 1/r^2 and the unit outward normal p/r at all 256 samples, poles included`, () => {
      const sphere = makeNurbsSphere(oc, r);
      try {
        const ml = graphMl(oc, sphere);
        expect(ml.faces).toHaveLength(1);
        const all = samples(ml.faces[0]!);
        expect(all).toHaveLength(256);
        // The grid's two pole rows: 32 samples, the ones the audit found broken.
        expect(all.filter((s) => Math.abs(Math.abs(s.p[2]) - r) < 1e-9 * r)).toHaveLength(32);
        for (const s of all) {
          expect(rel(s.H, 1 / r)).toBeLessThan(1e-7);
          expect(rel(s.K, 1 / r ** 2)).toBeLessThan(1e-7);
          const outward = s.p.map((c) => c / r);
          expect(Math.hypot(s.n[0] - outward[0]!, s.n[1] - outward[1]!, s.n[2] - outward[2]!)).toBeLessThan(1e-8);
        }
      } finally {
        sphere.delete();
      }
    });
  }

  it("a cone's apex: the normal of the sample's own generator (the limit along it), K = 0, H null (it grows as 1/distance)", () => {
    // Apex at the origin, base radius 5 at height 10: half-angle a with tan a = 1/2.
    const cone = makeApexCone(oc, 5, 10);
    try {
      const ml = graphMl(oc, cone, { uvSamples: 9 });
      const lateral = ml.faces.find((f) => f.positions.some((p) => Math.hypot(...p) < 1e-12))!;
      const n = lateral.vSamples;
      const cosA = 10 / Math.hypot(5, 10), sinA = 5 / Math.hypot(5, 10);
      let apexSamples = 0;
      lateral.positions.forEach((p, i) => {
        const iu = Math.floor(i / n);
        // The generator this sample lies on: its direction from the farthest sample of its u-row.
        const far = lateral.positions[iu * n + (Math.hypot(...lateral.positions[iu * n]!) < 1e-12 ? n - 1 : 0)]!;
        const theta = Math.atan2(far[1], far[0]);
        const expected = [cosA * Math.cos(theta), cosA * Math.sin(theta), -sinA];
        const normal = lateral.normals[i]!;
        expect(Math.hypot(normal[0] - expected[0]!, normal[1] - expected[1]!, normal[2] - expected[2]!)).toBeLessThan(1e-9);
        const K = lateral.gaussianCurvatures[i];
        const H = lateral.meanCurvatures[i];
        expect(K).not.toBeNull();
        expect(Math.abs(K!)).toBeLessThan(1e-12);
        const rho = Math.hypot(p[0], p[1]);
        if (rho < 1e-12) {
          apexSamples++;
          expect(H).toBeNull();
        } else {
          // Convex: one principal curvature cos(a) / rho, the other 0.
          expect(rel(H!, cosA / (2 * rho))).toBeLessThan(1e-9);
        }
      });
      expect(apexSamples).toBe(9);
    } finally {
      cone.delete();
    }
  });

  it('a B-spline patch with one collapsed corner (z = x^2 + y^2): closed-form K, H and normals at every sample, the corner included', () => {
    const patch = makeCollapsedCornerPatch(oc);
    try {
      const ml = graphMl(oc, patch);
      const all = samples(ml.faces[0]!);
      const corner = all.filter((s) => Math.hypot(...s.p) === 0);
      expect(corner).toHaveLength(1);
      expect(corner[0]!.inside).toBe(true);
      for (const s of all) {
        const exact = paraboloidCurvatures(s.p);
        expect(rel(s.K, exact.K)).toBeLessThan(1e-7);
        expect(rel(s.H, exact.H)).toBeLessThan(1e-7);
        expect(Math.hypot(s.n[0] - exact.normal[0], s.n[1] - exact.normal[1], s.n[2] - exact.normal[2])).toBeLessThan(1e-8);
      }
      expect(corner[0]!.H).toBeCloseTo(-2, 7);
      expect(corner[0]!.K).toBeCloseTo(4, 6);
    } finally {
      patch.delete();
    }
  });
});
