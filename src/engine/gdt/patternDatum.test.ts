import { describe, expect, it } from 'vitest';
import type { Vec3 } from '../math/vec3';
import { patternDatum, type Axis } from './patternDatum';

const z: Vec3 = [0, 0, 1];
const HOLES: [number, number][] = [[10, 10], [50, 10], [50, 30], [10, 30]];
const axes = (pts: [number, number][]): Axis[] => pts.map(([x, y]) => ({ direction: z, point: [x, y, 0] }));
const moved = (theta: number, t: [number, number], c: [number, number]) =>
  HOLES.map(([x, y]): [number, number] => [c[0] + t[0] + Math.cos(theta) * (x - c[0]) - Math.sin(theta) * (y - c[1]), c[1] + t[1] + Math.sin(theta) * (x - c[0]) + Math.cos(theta) * (y - c[1])]);

describe('patternDatum', () => {
  it('four holes moved rigidly: the centre and the clocking follow them exactly', () => {
    const p = patternDatum(axes(HOLES), axes(moved(0.01, [0.2, -0.1], [30, 20])));
    if (typeof p === 'string') throw new Error(p);
    expect(p.nominal.point).toEqual([30, 20, 0].map((v) => expect.closeTo(v, 12)));
    expect(p.actual.point).toEqual([30.2, 19.9, 0].map((v) => expect.closeTo(v, 12)));
    // The clock axis: the farthest hole (the first of the four at equal reach), turned by 0.01.
    const [cx, cy] = moved(0.01, [0.2, -0.1], [30, 20])[0]!;
    expect(p.clock.actual.point).toEqual([cx, cy, 0].map((v) => expect.closeTo(v, 12)));
  });

  it('one hole of four off by d: the centre moves d / 4, the clocking turns by the least-squares angle', () => {
    const d = 0.08;
    const scanned = HOLES.map(([x, y], i): [number, number] => (i === 1 ? [x, y + d] : [x, y]));
    const p = patternDatum(axes(HOLES), axes(scanned));
    if (typeof p === 'string') throw new Error(p);
    expect(p.actual.point).toEqual([30, 20 + d / 4, 0].map((v) => expect.closeTo(v, 12)));
    // Offsets (+-20, +-10) from the centre; the scan's from (30, 20 + d / 4). theta = atan2(sum cross, sum dot).
    let sc = 0, ss = 0;
    HOLES.forEach(([x, y], i) => {
      const [xa, ya] = [scanned[i]![0] - 30, scanned[i]![1] - 20 - d / 4];
      sc += (x - 30) * xa + (y - 20) * ya;
      ss += (x - 30) * ya - (y - 20) * xa;
    });
    const theta = Math.atan2(ss, sc);
    expect(theta).toBeGreaterThan(1e-4);
    const reach = Math.hypot(20, 10);
    const a0 = Math.atan2(-10, -20) + theta;
    expect(p.clock.actual.point).toEqual([30 + reach * Math.cos(a0), 20 + d / 4 + reach * Math.sin(a0), 0].map((v) => expect.closeTo(v, 12)));
  });

  it('refuses axes that are not parallel, and features on one axis', () => {
    expect(patternDatum([{ direction: z, point: [0, 0, 0] }, { direction: [0, 0.1, 1], point: [10, 0, 0] }], axes([[0, 0], [10, 0]]))).toMatch(/not parallel/);
    expect(patternDatum([{ direction: z, point: [0, 0, 0] }, { direction: z, point: [0, 0, 5] }], axes([[0, 0], [0, 0]]))).toMatch(/on one axis/);
  });
});
