import { describe, expect, it } from 'vitest';
import { buildFrame, type DatumFeature } from './datumFrame';

const plane = (normal: [number, number, number], point: [number, number, number]): DatumFeature => ({ kind: 'plane', normal, point });
const axis = (direction: [number, number, number], point: [number, number, number]): DatumFeature => ({ kind: 'axis', direction, point });

describe('buildFrame', () => {
  it('A plane | B plane | C hole: the hole fixes the origin across B, so every translation is located', () => {
    const f = buildFrame([plane([0, 0, 1], [3, 4, 2]), plane([1, 0, 0], [-6, 1, 9]), axis([0, 0, 1], [5, 7, 0])]);
    expect(f.origin[0]).toBeCloseTo(-6, 12);
    expect(f.origin[1]).toBeCloseTo(7, 12);
    expect(f.origin[2]).toBeCloseTo(2, 12);
    expect(f.located).toHaveLength(3);
    expect(f.clocked).toBe(true);
  });

  it('A plane | B plane | C hole along B: the hole locates across its axis what A and B left (y)', () => {
    // C's axis runs along x: it could fix y and z, and z is A's already.
    const f = buildFrame([plane([0, 0, 1], [0, 0, 1]), plane([1, 0, 0], [2, 0, 0]), axis([1, 0, 0], [0, -4, 8])]);
    expect(f.origin).toEqual([2, -4, 1].map((v) => expect.closeTo(v, 12)));
    expect(f.located).toHaveLength(3);
  });

  it('A hole | B hole | C hole on parallel axes: C adds nothing, the translation along them stays free', () => {
    const f = buildFrame([axis([0, 0, 1], [0, 0, 0]), axis([0, 0, 1], [10, 0, 0]), axis([0, 0, 1], [0, 10, 0])]);
    expect(f.located).toHaveLength(2);
    expect(f.axes[0]).toEqual([1, 0, 0].map((v) => expect.closeTo(v, 12)));
  });
});

describe('an actual frame whose rotations the datums leave free', () => {
  const dot = (a: readonly number[], b: readonly number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;

  it('keeps its free axes where the nominal has them, however the scan tilts the datum', () => {
    // NIST CTC 5's datum C: a plane across x. The scan's, fitted through noise, is turned 0.36 mrad.
    const nominal = buildFrame([{ kind: 'plane', normal: [1, 0, 0], point: [263.525, 0, 0] }]);
    for (const normal of [[1, -5.7e-5, -3.6e-4], [1, 2e-6, 1e-6], [1, -3e-4, 2e-4]] as [number, number, number][]) {
      const actual = buildFrame([{ kind: 'plane', normal, point: [263.52, -20, 17] }], nominal);
      expect(actual.clocked).toBe(false);
      expect(dot(actual.axes[0], nominal.axes[0])).toBeGreaterThan(1 - 1e-6);
      expect(dot(actual.axes[1], nominal.axes[1])).toBeGreaterThan(1 - 1e-6);
      // From the world's axes the free x followed the tilt: a quarter turn off for the first.
      const world = buildFrame([{ kind: 'plane', normal, point: [263.52, -20, 17] }]);
      if (normal[2] === -3.6e-4) expect(Math.abs(dot(world.axes[0], nominal.axes[0]))).toBeLessThan(0.2);
    }
  });
});
