import { describe, expect, it } from 'vitest';
import { legendTicks, TICK_CHAR_PX } from './legendTicks';
import { signed } from './Stat';

/** Every label's extent on the bar (the ends anchored at the edges, the rest centred), in order. */
function extents(ticks: number[], m: number, width: number): [number, number][] {
  return ticks.map((t) => {
    const w = signed(t).length * TICK_CHAR_PX;
    const x = ((t + m) / (2 * m)) * width;
    return t === -m ? [0, w] : t === m ? [width - w, width] : [x - w / 2, x + w / 2];
  });
}

describe('the colour bar ticks', () => {
  it('leave the band edges out where their labels would run into the ends (the 1024x700 bar)', () => {
    // CrankArm's scan at ±0.1: m = 0.2094; the bar is 218 px wide in the folded overlay at 1024x700.
    expect(legendTicks(0.2094, 0.1, 218, signed)).toEqual([-0.2094, 0, 0.2094]);
    // The demo at ±0.19 (m = 0.411), on the same bar.
    expect(legendTicks(0.411, 0.19, 218, signed)).toEqual([-0.411, 0, 0.411]);
  });

  it('keep them where there is room, and no two labels kept overlap', () => {
    expect(legendTicks(0.2, 0.1, 218, signed)).toEqual([-0.2, -0.1, 0, 0.1, 0.2]);
    expect(legendTicks(0.2094, 0.1, 400, signed)).toEqual([-0.2094, -0.1, 0, 0.1, 0.2094]);
    for (const width of [150, 218, 240, 300, 400])
      for (const m of [0.2, 0.2094, 0.411, 1.234])
        for (const tol of [0.05, 0.1, 0.19, 0.5, 1]) {
          const e = extents(legendTicks(m, tol, width, signed), m, width);
          for (let i = 1; i < e.length; i++) if (e.length > 3) expect(e[i]![0], `${width} ${m} ${tol}`).toBeGreaterThan(e[i - 1]![1]);
        }
  });

  it('without a band or beyond the range: the ends and 0 only', () => {
    expect(legendTicks(0.3, 0, 300, signed)).toEqual([-0.3, 0, 0.3]);
    expect(legendTicks(0.2, 0.2, 300, signed)).toEqual([-0.2, 0, 0.2]);
    expect(legendTicks(0, 0.1, 300, signed)).toEqual([0]);
  });
});
