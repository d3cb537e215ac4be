import { describe, expect, it } from 'vitest';
import type { HeatState } from './stores';
import { maxDeviation } from '../engine';
import { worstOf } from './worstPoint';

const sample = { max: 0.3208, worstPoint: [1, 2, 3] } as NonNullable<HeatState['deviation']>['fromToTo'];
const deviation = { fromToTo: sample } as NonNullable<HeatState['deviation']>;

describe('the worst point is the farther of the worst sample and the worst coloured vertex', () => {
  it("a scan's vertex beyond every sample (its noise is averaged inside the triangles): the vertex, on the card and the button", () => {
    const heat = { deviation, worstVertex: { distance: 0.3347, point: [4, 5, 6] as [number, number, number] } };
    expect(worstOf(heat)).toEqual({ point: [4, 5, 6], distance: 0.3347 });
    expect(maxDeviation(0.3208, heat.worstVertex)).toBe(0.3347);
  });

  it('a sample beyond every vertex (a coarse mesh): the sample', () => {
    const heat = { deviation, worstVertex: { distance: 0.3, point: [4, 5, 6] as [number, number, number] } };
    expect(worstOf(heat)).toEqual({ point: [1, 2, 3], distance: 0.3208 });
    expect(maxDeviation(0.3208, heat.worstVertex)).toBe(0.3208);
  });

  it('no heat-map vertex covered, or no deviation yet', () => {
    expect(worstOf({ deviation, worstVertex: null })).toEqual({ point: [1, 2, 3], distance: 0.3208 });
    expect(worstOf({ worstVertex: { distance: 0.1, point: [0, 0, 1] } })).toEqual({ point: [0, 0, 1], distance: 0.1 });
    expect(worstOf({})).toBeNull();
    expect(maxDeviation(0.2, undefined)).toBe(0.2);
  });
});
