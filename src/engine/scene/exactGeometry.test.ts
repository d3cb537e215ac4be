import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactTestShapes } from '../../test/exactParts';
import { evaluateCurve } from '../exact/curves';
import { evaluateSurface } from '../exact/surfaces';
import { insideTrim, nearestOnTrim } from '../exact/trim';
import { withKernel, type OC } from '../kernel';
import { seededRandom } from '../mesh/generators';
import { nodeKernel } from '../../node/nodeEngine';
import { extractExactGeometry } from './exactGeometry';
import { mapEntities } from './topology';

let oc: OC;
let shapes: Record<string, TopoDS_Shape> = {};

beforeAll(async () => {
  oc = await nodeKernel();
  shapes = exactTestShapes(oc);
});

afterAll(() => {
  for (const s of Object.values(shapes)) s.delete();
});

describe('extractExactGeometry', () => {
  it('evaluates every face surface, edge curve and pcurve of five real parts and three located freeform faces as the kernel does (value and first two derivatives)', () => {
    const rand = seededRandom(11);
    let pcurveWorst = 0, checks = 0;
    const surfaceWorst = [0, 0];
    const curveWorst = [0, 0, 0];
    for (const shape of Object.values(shapes)) {
      const { geometry, kernelSurfaces } = extractExactGeometry(oc, shape);
      try {
        withKernel(oc, (own) => {
          const faces = mapEntities(oc, own, shape, 'face');
          const edges = mapEntities(oc, own, shape, 'edge');
          expect(geometry.faces).toHaveLength(faces.Extent());
          expect(geometry.edges).toHaveLength(edges.Extent());
          const js = new Float64Array(18);
          const P = own(new oc.gp_Pnt_1());
          const V = Array.from({ length: 5 }, () => own(new oc.gp_Vec_1()));
          for (let f = 0; f < faces.Extent(); f++) {
            const face = own(oc.TopoDS.Face_1(own(faces.FindKey(f + 1))));
            const ad = own(new oc.BRepAdaptor_Surface_2(face, true));
            const scale = Math.max(1, geometry.diagonal);
            for (let k = 0; k < 20; k++) {
              const u = ad.FirstUParameter() + rand() * (ad.LastUParameter() - ad.FirstUParameter());
              const v = ad.FirstVParameter() + rand() * (ad.LastVParameter() - ad.FirstVParameter());
              evaluateSurface(geometry.faces[f]!.surface, u, v, js, kernelSurfaces ?? undefined);
              ad.D2(u, v, P, V[0]!, V[1]!, V[2]!, V[3]!, V[4]!);
              const ref = [P, V[0]!, V[1]!, V[2]!, V[4]!, V[3]!];
              for (let i = 0; i < 6; i++) {
                const d = Math.hypot(js[3 * i]! - ref[i]!.X(), js[3 * i + 1]! - ref[i]!.Y(), js[3 * i + 2]! - ref[i]!.Z());
                const size = Math.hypot(ref[i]!.X(), ref[i]!.Y(), ref[i]!.Z());
                surfaceWorst[i === 0 ? 0 : 1] = Math.max(surfaceWorst[i === 0 ? 0 : 1]!, d / (scale + size));
              }
              checks++;
            }
            // Pcurves, through each edge's list of faces. An edge on a closed surface has two pcurves
            // (one per orientation; two faces on one cone can each use one): each of ours must be one of them.
            for (const e of geometry.faces[f]!.edges) {
              const exact = geometry.edges[e]!;
              const edge = own(oc.TopoDS.Edge_1(own(edges.FindKey(e + 1))));
              const kernelPcurves = [edge, own(oc.TopoDS.Edge_1(own(edge.Reversed())))].map((x) => own(new oc.BRepAdaptor_Curve2d_2(x, face)));
              const out = new Float64Array(6);
              for (let s = 0; s < exact.faces.length; s++) {
                if (exact.faces[s] !== f) continue;
                for (let k = 0; k < 5; k++) {
                  const t = exact.t0 + rand() * (exact.t1 - exact.t0);
                  evaluateCurve(exact.pcurves[s]!, t, out);
                  const d = Math.min(
                    ...kernelPcurves.map((pc) => {
                      const ref = own(pc.Value(t));
                      return Math.hypot(out[0]! - ref.X(), out[1]! - ref.Y());
                    }),
                  );
                  pcurveWorst = Math.max(pcurveWorst, d);
                }
              }
            }
          }
          const C = new Float64Array(9);
          const d1 = own(new oc.gp_Vec_1()), d2 = own(new oc.gp_Vec_1());
          for (let e = 0; e < edges.Extent(); e++) {
            const edge = own(oc.TopoDS.Edge_1(own(edges.FindKey(e + 1))));
            if (oc.BRep_Tool.Degenerated(edge)) continue;
            const ad = own(new oc.BRepAdaptor_Curve_2(edge));
            const exact = geometry.edges[e]!;
            expect(exact.t0).toBe(ad.FirstParameter());
            expect(exact.t1).toBe(ad.LastParameter());
            for (let k = 0; k < 10; k++) {
              const t = exact.t0 + rand() * (exact.t1 - exact.t0);
              evaluateCurve(exact.curve, t, C);
              ad.D2(t, P, d1, d2);
              const ref = [P, d1, d2];
              for (let i = 0; i < (exact.curve.kind === 'polyline' ? 1 : 3); i++) {
                const d = Math.hypot(C[3 * i]! - ref[i]!.X(), C[3 * i + 1]! - ref[i]!.Y(), C[3 * i + 2]! - ref[i]!.Z());
                const rel = d / (geometry.diagonal + Math.hypot(ref[i]!.X(), ref[i]!.Y(), ref[i]!.Z()));
                curveWorst[i] = Math.max(curveWorst[i]!, rel);
              }
            }
          }
        });
      } finally {
        kernelSurfaces?.delete();
      }
    }
    expect(checks).toBeGreaterThan(4000);
    // The freeform faces: a revolution and an extrusion in JS form, the offset surface through the kernel.
    const kinds = extractExactGeometry(oc, shapes.freeform!);
    expect(kinds.geometry.faces.map((f) => f.surface.kind).sort()).toEqual(['extrusion', 'kernel', 'revolution']);
    kinds.kernelSurfaces?.delete();
    expect(surfaceWorst[0]).toBeLessThan(1e-11);
    // Derivatives come from each span's power form (nurbs.ts); for degrees 8 to 12 (CrankArm, the
    // bottle's thread) that costs a few digits against OCCT's own evaluation, no more.
    expect(surfaceWorst[1]).toBeLessThan(1e-9);
    expect(curveWorst[0]).toBeLessThan(1e-11);
    expect(curveWorst[1]).toBeLessThan(1e-9);
    // Second derivatives of hammer.iges's splines reach 1e5 times the diagonal; relative roundoff there is 1e-9.
    expect(curveWorst[2]).toBeLessThan(1e-7);
    expect(pcurveWorst).toBeLessThan(1e-8);
  });

  it('trims: inside and outside a face as BRepTopAdaptor_FClass2d says, at random (u, v) over each face\u2019s parameter box', () => {
    const rand = seededRandom(23);
    let checked = 0, agreed = 0;
    for (const shape of Object.values(shapes)) {
      const { geometry, kernelSurfaces } = extractExactGeometry(oc, shape);
      kernelSurfaces?.delete();
      withKernel(oc, (own) => {
        const faces = mapEntities(oc, own, shape, 'face');
        const near = new Float64Array(2);
        for (let f = 0; f < faces.Extent(); f++) {
          const trim = geometry.faces[f]!.trim;
          if (!trim) continue;
          const face = own(oc.TopoDS.Face_1(own(faces.FindKey(f + 1))));
          const classifier = own(new oc.BRepTopAdaptor_FClass2d(face, 1e-9));
          const periodic = geometry.faces[f]!.uPeriod > 0 || geometry.faces[f]!.vPeriod > 0;
          const du = trim.uMax - trim.uMin, dv = trim.vMax - trim.vMin;
          for (let k = 0; k < 40; k++) {
            // Beyond a periodic face's box the kernel would move the point by a period; stay inside it there.
            const m = periodic ? 0 : 0.1;
            const u = trim.uMin - m * du + (1 + 2 * m) * du * rand(), v = trim.vMin - m * dv + (1 + 2 * m) * dv * rand();
            // Points on the boundary itself are either; leave out a band of a millionth of the box.
            if (nearestOnTrim(trim, u, v, near) < 1e-6 * Math.hypot(du, dv)) continue;
            const kernelInside = classifier.Perform(own(new oc.gp_Pnt2d_3(u, v)), false) === oc.TopAbs_State.TopAbs_IN;
            checked++;
            if (insideTrim(trim, u, v) === kernelInside) agreed++;
          }
        }
      });
    }
    expect(checked).toBeGreaterThan(8000);
    expect(agreed).toBe(checked);
  });
});
