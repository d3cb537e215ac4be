import { describe, expect, it } from 'vitest';
import { chooseLevels, MOVING_BUDGET_MS, REST_BUDGET_MS } from './detail';

const scan = { full: 2_000_000, levels: [500_000, 125_000, 30_000] };
const part = { full: 40_000, levels: [] };

describe('chooseLevels (level of detail per frame)', () => {
  it('draws the coarsest level of a big body and all of a small one before any frame was measured', () => {
    expect(chooseLevels([scan, part], undefined, 120, false)).toEqual([2, -1]);
  });

  it('draws every triangle when full detail is asked for, whatever the cost', () => {
    expect(chooseLevels([scan, part], 1, 120, true)).toEqual([-1, -1]);
  });

  it('draws the finest level (never the full mesh unasked) when the renderer is fast', () => {
    // 2 ms for the 30k level: 15 ns a triangle, so 120 ms holds 8M triangles.
    expect(chooseLevels([scan, part], 2 / 30_000, 120, false)).toEqual([0, -1]);
  });

  it('takes the finest level that fits the budget after the small bodies, shared by size', () => {
    // 1 µs a triangle: 120k triangles a frame; the part takes 40k, the scan gets 80k: its 30k level.
    expect(chooseLevels([scan, part], 0.001, 120, false)).toEqual([2, -1]);
    // 0.25 µs: 480k; the part 40k; two scans of 2M share 440k: 125k levels, not 500k.
    expect(chooseLevels([scan, scan, part], 0.00025, 120, false)).toEqual([1, 1, -1]);
  });

  it('on a software renderer: the 15k level while moving, the 31k level at rest when the 15k frame leaves room', () => {
    const big = { full: 2_000_000, levels: [500_000, 125_000, 31_250, 15_000] };
    // 60 ms for 15k triangles (SwiftShader, moderate load): 4 µs a triangle predicted, 125 ms for 31k.
    expect(chooseLevels([big], 60 / 15_000, MOVING_BUDGET_MS, false)).toEqual([3]);
    expect(chooseLevels([big], 60 / 15_000, REST_BUDGET_MS, false)).toEqual([2]);
    // 80 ms for 31k at rest: 15k while moving, 31k (not 125k) at rest.
    expect(chooseLevels([big], 80 / 31_250, MOVING_BUDGET_MS, false)).toEqual([3]);
    expect(chooseLevels([big], 80 / 31_250, REST_BUDGET_MS, false)).toEqual([2]);
    // A loaded machine, 90 ms for 15k: 31k would be predicted at 188 ms, so 15k at rest too.
    expect(chooseLevels([big], 90 / 15_000, REST_BUDGET_MS, false)).toEqual([3]);
  });

  it('keeps the coarsest level when even that does not fit', () => {
    expect(chooseLevels([scan], 0.01, 120, false)).toEqual([2]);
  });
});
