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
