import type { TriMesh } from '../engine/mesh/TriMesh';

/**
 * A closed mesh of a 40 x 30 x 20 block (z from 0 to 20) drilled through at (xc, yc) with radius
 * r, as makeDrilledBlock models it, with the bore a prism of `segments` sides whose corners lie on
 * the circle, on `rings` levels from z 0 to 20 (a scanner's mesh has corners inside a feature; a
 * CAD tessellation's only on its rims: rings 2). `radial(j, k)` moves the corner at angle index j
 * on ring k out from the axis (noise); the block's faces are planar and exact.
 */
export function polygonalHoleMesh(r: number, segments: number, rings: number, radial: (j: number, k: number) => number = () => 0, xc = 20, yc = 15): TriMesh {
  const positions: number[] = [], indices: number[] = [];
  const add = (x: number, y: number, z: number) => (positions.push(x, y, z), positions.length / 3 - 1);
  const tri = (a: number, b: number, c: number, n: readonly number[]) => {
    const p = (i: number, k: number) => positions[3 * i + k]!;
    const u = [0, 1, 2].map((k) => p(b, k) - p(a, k)), v = [0, 1, 2].map((k) => p(c, k) - p(a, k));
    const w = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    if (w[0]! * n[0]! + w[1]! * n[1]! + w[2]! * n[2]! >= 0) indices.push(a, b, c);
    else indices.push(a, c, b);
  };
  const angle = (j: number) => (2 * Math.PI * j) / segments;
  // The bore: rings x segments corners, the wall's normal toward the axis (out of the solid).
  const bore = Array.from({ length: rings }, (_, k) =>
    Array.from({ length: segments }, (_, j) => {
      const rr = r + radial(j, k);
      return add(xc + rr * Math.cos(angle(j)), yc + rr * Math.sin(angle(j)), (20 * k) / (rings - 1));
    }),
  );
  for (let k = 0; k + 1 < rings; k++) {
    for (let j = 0; j < segments; j++) {
      const j1 = (j + 1) % segments, mid = angle(j + 0.5);
      const n = [-Math.cos(mid), -Math.sin(mid), 0];
      tri(bore[k]![j]!, bore[k]![j1]!, bore[k + 1]![j1]!, n);
      tri(bore[k]![j]!, bore[k + 1]![j1]!, bore[k + 1]![j]!, n);
    }
  }
  // The block's outline, seen from the bore's axis: each corner angle's ray onto the rectangle,
  // and the rectangle's own corners, in angular order (both loops are star-shaped about the axis).
  const onBox = (t: number) => {
    const c = Math.cos(t), s = Math.sin(t);
    const k = Math.min(c > 1e-12 ? (40 - xc) / c : c < -1e-12 ? -xc / c : Infinity, s > 1e-12 ? (30 - yc) / s : s < -1e-12 ? -yc / s : Infinity);
    return [xc + k * c, yc + k * s];
  };
  const norm = (t: number) => ((t % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
  const outline = [
    ...Array.from({ length: segments }, (_, j) => ({ t: angle(j), xy: onBox(angle(j)) })),
    ...[[40, 30], [0, 30], [0, 0], [40, 0]].map((xy) => ({ t: norm(Math.atan2(xy[1]! - yc, xy[0]! - xc)), xy })),
  ].sort((a, b) => a.t - b.t);
  for (const [z, k, nz] of [[0, 0, -1], [20, rings - 1, 1]] as const) {
    const outer = outline.map((o) => ({ t: o.t, v: add(o.xy[0]!, o.xy[1]!, z) }));
    const inner = bore[k]!.map((v, j) => ({ t: angle(j), v }));
    // Zip the two loops by angle: each step closes a triangle on the loop whose next corner comes first.
    let i = 0, o = 0;
    while (i < inner.length || o < outer.length) {
      const ni = inner[(i + 1) % inner.length]!, no = outer[(o + 1) % outer.length]!;
      const ti = i + 1 < inner.length ? ni.t : 2 * Math.PI + ni.t, to = o + 1 < outer.length ? no.t : 2 * Math.PI + no.t;
      if (o >= outer.length || (i < inner.length && ti <= to)) {
        tri(inner[i]!.v, ni.v, outer[o % outer.length]!.v, [0, 0, nz]);
        i++;
      } else {
        tri(inner[i % inner.length]!.v, outer[o]!.v, no.v, [0, 0, nz]);
        o++;
      }
    }
    if (k === 0) {
      // The block's four sides, between the bottom outline and the top one.
      for (let q = 0; q < outer.length; q++) {
        const a = outline[q]!.xy, b = outline[(q + 1) % outline.length]!.xy;
        const mx = (a[0]! + b[0]!) / 2, my = (a[1]! + b[1]!) / 2;
        const n = [mx < 1e-9 ? -1 : mx > 40 - 1e-9 ? 1 : 0, my < 1e-9 ? -1 : my > 30 - 1e-9 ? 1 : 0, 0];
        const a0 = add(a[0]!, a[1]!, 0), b0 = add(b[0]!, b[1]!, 0), a1 = add(a[0]!, a[1]!, 20), b1 = add(b[0]!, b[1]!, 20);
        tri(a0, b0, b1, n);
        tri(a0, b1, a1, n);
      }
    }
  }
  return { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) };
}
