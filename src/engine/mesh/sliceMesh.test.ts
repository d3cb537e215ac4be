import { describe, expect, it } from 'vitest';
import type { Vec3 } from '../math/vec3';
import { box, cylinder } from './generators';
import { areaCentroid, describeSection, polylineLength, signedArea } from './profile2d';
import { bestFitResidual, radialEnvelope, resample, SegmentGrid, segmentsOf } from './profileCompare';
import { chainPolylines, chainSegments, type Polyline2 } from './sliceChain';
import { meshExtent, planeFrame, sliceMesh } from './sliceMesh';
import type { TriMesh } from './TriMesh';
import { halfCylinderSkin } from '../../test/sectionMeshes';

const Z: Vec3 = [0, 0, 1];

/** Every triangle with its own three vertices, as an STL without shared vertices. */
function unwelded(mesh: TriMesh): TriMesh {
  const positions = new Float64Array(mesh.indices.length * 3);
  mesh.indices.forEach((v, i) => positions.set(mesh.positions.subarray(3 * v, 3 * v + 3), 3 * i));
  return { positions, indices: Uint32Array.from(mesh.indices, (_, i) => i) };
}

function sectionAt(mesh: TriMesh, level: number) {
  const [segments] = sliceMesh(mesh, planeFrame(Z), [level]);
  return chainSegments(segments!, 1e-9);
}

describe('planeFrame', () => {
  it('axis z gives u = x, v = y; any axis gives an orthonormal right-handed frame', () => {
    const f = planeFrame(Z);
    expect(f.u).toEqual([1, 0, 0]);
    expect(f.v).toEqual([0, 1, 0]);
    const a = [0.3, -0.5, 0.81];
    const l = Math.hypot(...a);
    const g = planeFrame([a[0]! / l, a[1]! / l, a[2]! / l]);
    const d = (p: Vec3, q: Vec3) => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
    expect(Math.abs(d(g.u, g.axis))).toBeLessThan(1e-15);
    expect(Math.abs(d(g.v, g.axis))).toBeLessThan(1e-15);
    expect(Math.abs(d(g.u, g.v))).toBeLessThan(1e-15);
    const uxv: Vec3 = [g.u[1] * g.v[2] - g.u[2] * g.v[1], g.u[2] * g.v[0] - g.u[0] * g.v[2], g.u[0] * g.v[1] - g.u[1] * g.v[0]];
    for (let k = 0; k < 3; k++) expect(uxv[k]).toBeCloseTo(g.axis[k]!, 14);
  });
});

describe('sliceMesh + chainSegments', () => {
  const cube = box([0, 0, 0], [10, 10, 10], 4);

  it('a box cut between vertex rows: one loop, area 100, perimeter 40', () => {
    const c = sectionAt(cube, 3.3);
    expect(c.paths).toHaveLength(0);
    expect(c.loops).toHaveLength(1);
    expect(Math.abs(signedArea(c.loops[0]!))).toBeCloseTo(100, 10);
    expect(polylineLength(c.loops[0]!)).toBeCloseTo(40, 10);
  });

  it('a plane through a row of vertices (z = 5 on a 4 x 4 grid) still gives one clean loop', () => {
    const c = sectionAt(cube, 5);
    expect(c.paths).toHaveLength(0);
    expect(c.loops).toHaveLength(1);
    expect(Math.abs(signedArea(c.loops[0]!))).toBeCloseTo(100, 10);
    expect(polylineLength(c.loops[0]!)).toBeCloseTo(40, 10);
  });

  it('a plane exactly on a face: the plane sits just below its level, so the top rim is cut and the bottom face is not', () => {
    const top = sectionAt(cube, 10);
    expect(top.loops).toHaveLength(1);
    expect(Math.abs(signedArea(top.loops[0]!))).toBeCloseTo(100, 10);
    const bottom = sectionAt(cube, 0);
    expect(bottom.loops).toHaveLength(0);
    expect(bottom.paths).toHaveLength(0);
  });

  it('an unwelded mesh (an STL) chains into the same loop: shared edges give bit-identical crossings', () => {
    const c = chainSegments(sliceMesh(unwelded(cube), planeFrame(Z), [5])[0]!, 0);
    expect(c.loops).toHaveLength(1);
    expect(polylineLength(c.loops[0]!)).toBeCloseTo(40, 10);
  });

  it('several levels in one pass match one level at a time', () => {
    const mesh = cylinder({ radius: 5, height: 20, segments: 64, stacks: 7, caps: true });
    const levels = [0.5, 20 / 7, 10, 19.5];
    const all = sliceMesh(mesh, planeFrame(Z), levels);
    levels.forEach((level, k) => expect(Array.from(all[k]!)).toEqual(Array.from(sliceMesh(mesh, planeFrame(Z), [level])[0]!)));
  });

  it('a tube cut across gives two loops; depth marks the inner one as a hole and the outer one is the main profile', () => {
    const outer = cylinder({ radius: 10, height: 10, segments: 90 });
    const inner = cylinder({ radius: 9, height: 10, segments: 90, inward: true });
    const both: TriMesh = { positions: new Float64Array([...outer.positions, ...inner.positions]), indices: new Uint32Array([...outer.indices, ...Array.from(inner.indices, (i) => i + outer.positions.length / 3)]) };
    const p = describeSection(sectionAt(both, 4.2));
    expect(p.curves.loops).toHaveLength(2);
    expect([...p.depth].sort()).toEqual([0, 1]);
    expect(p.open).toBe(false);
    const expectedOuter = 0.5 * 90 * 100 * Math.sin((2 * Math.PI) / 90);
    expect(Math.abs(signedArea(p.main!))).toBeCloseTo(expectedOuter, 9);
  });

  it('an open half skin gives one open arc with its ends on the cut edges', () => {
    const c = sectionAt(halfCylinderSkin(10, 20, 32, 3), 7);
    expect(c.loops).toHaveLength(0);
    expect(c.paths).toHaveLength(1);
    const p = c.paths[0]!.points;
    const ends = [
      [p[0]!, p[1]!],
      [p[p.length - 2]!, p[p.length - 1]!],
    ].sort((a, b) => a[1]! - b[1]!);
    expect(ends[0]![0]).toBeCloseTo(0, 12);
    expect(ends[0]![1]).toBeCloseTo(-10, 12);
    expect(ends[1]![1]).toBeCloseTo(10, 12);
    const profile = describeSection(c);
    expect(profile.open).toBe(true);
    expect(profile.main).toBe(c.paths[0]);
  });

  it('chainPolylines: a closed edge is a loop by itself; ends weld within a wide tolerance while the points inside a piece stay', () => {
    const circle = Float64Array.from({ length: 2 * 65 }, (_, i) => (i % 2 ? Math.sin : Math.cos)((2 * Math.PI * (i >> 1)) / 64));
    const single = chainPolylines([circle], 1e-9);
    expect(single.loops).toHaveLength(1);
    expect(single.loops[0]!.points.length).toBe(2 * 64);
    // Two half-circle edges with a 0.005 gap at each joint and points 0.003 apart inside.
    const half = (from: number, gap: number) =>
      Float64Array.from({ length: 2 * 1001 }, (_, i) => (i % 2 ? Math.sin : Math.cos)(from + (Math.PI * (i >> 1)) / 1000) * (1 + ((i >> 1) === 0 ? gap : 0)));
    const joined = chainPolylines([half(0, 0.005), half(Math.PI, 0.005)], 0.01);
    expect(joined.paths).toHaveLength(0);
    expect(joined.loops).toHaveLength(1);
    expect(joined.loops[0]!.points.length).toBe(2 * 2000);
    // Each joint takes one piece's end, so the loop may jog by up to the gap there.
    expect(Math.abs(polylineLength(joined.loops[0]!) - 2 * Math.PI)).toBeLessThan(4 * 0.005);
    expect(chainPolylines([half(0, 0.005), half(Math.PI, 0.005)], 1e-6).paths).toHaveLength(2);
  });

  it('meshExtent projects the used vertices on the axis', () => {
    const mesh = box([1, 2, 3], [4, 6, 9]);
    expect(meshExtent(mesh, Z)).toEqual([3, 9]);
    const s = Math.SQRT1_2;
    const [lo, hi] = meshExtent(mesh, [s, s, 0]);
    expect(lo).toBeCloseTo(3 * s, 12);
    expect(hi).toBeCloseTo(10 * s, 12);
  });
});

function square(half: number, cx = 0, cy = 0): Polyline2 {
  return { points: Float64Array.from([cx - half, cy - half, cx + half, cy - half, cx + half, cy + half, cx - half, cy + half]), closed: true };
}

describe('profile comparison primitives', () => {
  it('radialEnvelope of a square is exact between vertices: r = h / max(|cos|, |sin|), normal cosine max(|cos|, |sin|)', () => {
    const bins = 360;
    const env = radialEnvelope(segmentsOf([square(2)]), 0, 0, bins);
    for (let k = 0; k < bins; k++) {
      const t = ((k + 0.5) * 2 * Math.PI) / bins;
      const c = Math.max(Math.abs(Math.cos(t)), Math.abs(Math.sin(t)));
      expect(env.radius[k]).toBeCloseTo(2 / c, 10);
      expect(env.cosine[k]).toBeCloseTo(c, 10);
      // The outward normal of the side the ray meets: +-x where |cos| wins, +-y where |sin| does.
      const onX = Math.abs(Math.cos(t)) > Math.abs(Math.sin(t));
      expect([env.normalX[k], env.normalY[k]]).toEqual(onX ? [Math.sign(Math.cos(t)), expect.closeTo(0, 12)] : [expect.closeTo(0, 12), Math.sign(Math.sin(t))]);
    }
  });

  it('radialEnvelope keeps the outer boundary and leaves directions without a curve empty', () => {
    const arc: Polyline2 = { points: Float64Array.from([0, -3, 3, 0, 0, 3]), closed: false };
    const env = radialEnvelope(segmentsOf([square(1), arc]), 0, 0, 8);
    // Bins 0, 1 and 6, 7 face +x (the arc), the others see only the unit square.
    for (const k of [0, 1, 6, 7]) expect(env.radius[k]).toBeCloseTo(3 / (Math.cos(Math.PI / 8) + Math.sin(Math.PI / 8)), 10);
    for (const k of [2, 3, 4, 5]) expect(env.radius[k]).toBeCloseTo(1 / Math.cos(Math.PI / 8), 10);
  });

  it('resample spreads points evenly by arc length, whatever the vertex spacing', () => {
    const line: Polyline2 = { points: Float64Array.from([0, 0, 1, 0, 1.5, 0, 10, 0]), closed: false };
    expect(Array.from(resample([line], 11)).filter((_, i) => i % 2 === 0)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((x) => expect.closeTo(x, 12)));
    // Closed: n points at (i + 1/2) perimeter / n from the first vertex.
    const pts = resample([square(1)], 80);
    expect(pts.length).toBe(160);
    expect(pts[0]).toBeCloseTo(-0.95, 12);
    expect(pts[1]).toBeCloseTo(-1, 12);
    expect(pts[2 * 20]).toBeCloseTo(1, 12);
    expect(pts[2 * 20 + 1]).toBeCloseTo(-0.95, 12);
  });

  it('SegmentGrid.nearest equals brute force, inside and outside the grid', () => {
    const lines = [square(3), square(1, 0.5, 0.2), { points: Float64Array.from([-10, 7, -4, 8, 2, 12]), closed: false }];
    const segs = segmentsOf(lines);
    const grid = new SegmentGrid(segs);
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 40 - 20;
    for (let q = 0; q < 500; q++) {
      const px = rnd(), py = rnd();
      let best = Infinity;
      for (let s = 0; s < segs.length; s += 4) {
        const ax = segs[s]!, ay = segs[s + 1]!, ex = segs[s + 2]! - ax, ey = segs[s + 3]! - ay;
        const t = Math.min(1, Math.max(0, ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey)));
        best = Math.min(best, Math.hypot(px - ax - t * ex, py - ay - t * ey));
      }
      expect(grid.nearest(px, py).distance).toBeCloseTo(best, 12);
    }
  });

  it('bestFitResidual removes a rotation and translation (pose invariance) and keeps a size difference', () => {
    const rect: Polyline2 = { points: Float64Array.from([0, 0, 20, 0, 20, 8, 6, 8, 6, 12, 0, 12]), closed: true };
    const a = 0.15, c = Math.cos(a), s = Math.sin(a);
    const moved = Float64Array.from(rect.points);
    for (let i = 0; i < moved.length; i += 2) {
      const x = rect.points[i]!, y = rect.points[i + 1]!;
      moved[i] = c * x - s * y + 3.5;
      moved[i + 1] = s * x + c * y - 1.25;
    }
    const movedLoop = { points: moved, closed: true };
    const grid = new SegmentGrid(segmentsOf([rect]));
    const [mx, my] = areaCentroid(movedLoop);
    const [rx, ry] = areaCentroid(rect);
    const fit = bestFitResidual(resample([movedLoop], 512), grid, rx - mx, ry - my);
    expect(fit.rms).toBeLessThan(1e-6);
    // A circle of radius 10.2 fitted by one of radius 10: the rigid fit cannot remove the 0.2.
    const circle = (r: number): Polyline2 => ({ points: Float64Array.from({ length: 2048 }, (_, i) => (i % 2 ? Math.sin : Math.cos)((Math.PI * 2 * (i >> 1)) / 1024) * r), closed: true });
    const fit2 = bestFitResidual(resample([circle(10)], 512), new SegmentGrid(segmentsOf([circle(10.2)])));
    expect(fit2.rms).toBeCloseTo(0.2, 3);
  });
});
