import { describe, expect, it } from 'vitest';
import { apply } from '../math/rigid';
import { dot, type Vec3 } from '../math/vec3';
import { extentCorners, floatFeatures, type FeatureProbe } from './floatingZone';

describe('extentCorners', () => {
  it('keeps the corners of a planar point set (its convex hull), not the points inside or on its sides', () => {
    // A 5 x 3 grid on the plane x = 2 (normal x), and a point outside the grid's rectangle.
    const pts: number[] = [];
    for (let i = 0; i < 5; i++) for (let j = 0; j < 3; j++) pts.push(2, i, j);
    pts.push(2, 2, 5);
    const corners = extentCorners(Float64Array.from(pts), pts.length / 3, [1, 0, 0]);
    const key = (p: Vec3) => `${p[1]},${p[2]}`;
    expect(new Set(corners.map(key))).toEqual(new Set(['0,0', '4,0', '4,2', '0,2', '2,5']));
  });
});

describe('floatFeatures: centre planes', () => {
  it('brings two parallel centre planes offset by 0 and d to their least largest distance, d/2, with the slide along the normal free', () => {
    const d = 0.05;
    // Two centre planes y = 30 and y = 50 (normal y), each 100 long along x and 10 deep along z; the second read d off.
    const plane = (y: number, off: number): FeatureProbe => ({
      corners: [[0, y + off, 10], [100, y + off, 10], [100, y + off, 20], [0, y + off, 20]],
      origin: [0, y, 0],
      normal: [0, 1, 0],
    });
    const probes = [plane(30, 0), plane(50, d)];
    const motion = floatFeatures(probes, { translations: [[1, 0, 0], [0, 1, 0]], rotations: [[0, 0, 1]] })!;
    const worst = Math.max(...probes.flatMap((p) => ('corners' in p ? p.corners.map((c) => Math.abs(dot(apply(motion, ...c), p.normal) - dot(p.origin, p.normal))) : [])));
    expect(worst).toBeCloseTo(d / 2, 12);
  });

  it('undoes a turn about the normal of A and a slide of one centre plane exactly', () => {
    const t = 0.002;
    // The plane y = 30 turned by t about z through (50, 30) and moved 0.1 along y.
    const corners: Vec3[] = [[0, 30, 10], [100, 30, 10], [100, 30, 20], [0, 30, 20]].map(([x, y, z]) => [50 + Math.cos(t) * (x! - 50) - Math.sin(t) * (y! - 30), 30.1 + Math.sin(t) * (x! - 50) + Math.cos(t) * (y! - 30), z!]);
    const probe: FeatureProbe = { corners, origin: [0, 30, 0], normal: [0, 1, 0] };
    const motion = floatFeatures([probe], { translations: [[1, 0, 0], [0, 1, 0]], rotations: [[0, 0, 1]] })!;
    for (const c of corners) expect(apply(motion, ...c)[1]).toBeCloseTo(30, 9);
  });

  it('returns null when the datums leave nothing free', () => {
    expect(floatFeatures([{ corners: [[0, 1, 0]], origin: [0, 0, 0], normal: [0, 1, 0] }], { translations: [], rotations: [] })).toBeNull();
  });
});
