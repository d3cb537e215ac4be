import { describe, expect, it } from 'vitest';
import { engineLimits, positiveSeconds } from './limits';

describe('--deadline and BREPSCOPE_DEADLINE: a number of seconds', () => {
  it('reads decimals and exponents (1e3 was refused as not a number > 0)', () => {
    expect(positiveSeconds('600')).toBe(600);
    expect(positiveSeconds('0.5')).toBe(0.5);
    expect(positiveSeconds('1e3')).toBe(1000);
    expect(positiveSeconds('2.5E-1')).toBe(0.25);
    expect(engineLimits({}, { BREPSCOPE_DEADLINE: '1e3' })).toEqual({ deadlineMs: 1_000_000 });
  });

  it('refuses what is not a finite number of seconds above 0', () => {
    for (const bad of ['0', '0e5', '-1', '-1e3', 'abc', '1e', 'e3', 'Infinity', '1e400', '0x10', '', ' ']) {
      expect(() => positiveSeconds(bad), bad).toThrow(/seconds > 0/);
    }
    expect(() => engineLimits({}, { BREPSCOPE_DEADLINE: 'soon' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
