import { describe, expect, it } from 'vitest';
import { seededRandom } from '../mesh/generators';
import { hypot3 } from './hypot3';

describe('hypot3', () => {
  it('equals Math.hypot bit for bit, across scales, signs, zeros and non-finite values', () => {
    const rnd = seededRandom(7);
    const special = [0, -0, 1, -1, Infinity, -Infinity, NaN, Number.MIN_VALUE, Number.MAX_VALUE, 1e-300, 1e300, 2 ** -1074, 3e-320];
    const value = (): number => {
      const r = rnd();
      if (r < 0.05) return special[Math.floor(rnd() * special.length)]!;
      // Magnitudes from 1e-200 to 1e200, so that squares would under- and overflow.
      return (rnd() < 0.5 ? -1 : 1) * 10 ** (400 * rnd() - 200) * rnd();
    };
    let mismatches = 0;
    for (let i = 0; i < 200_000; i++) {
      const x = value(), y = i % 3 === 0 ? x * (1 + 1e-9) : value(), z = i % 5 === 0 ? 0 : value();
      if (!Object.is(hypot3(x, y, z), Math.hypot(x, y, z))) mismatches++;
    }
    expect(mismatches).toBe(0);
    expect(hypot3(NaN, Infinity, 0)).toBe(Infinity);
    expect(hypot3(NaN, 1, 0)).toBeNaN();
    expect(Object.is(hypot3(-0, 0, -0), 0)).toBe(true);
  });
});
