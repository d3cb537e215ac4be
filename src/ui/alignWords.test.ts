import { describe, expect, it } from 'vitest';
import { alignLength, rmsChange } from './alignWords';
import { MODEL_UNITS } from './units';

const MM = { length: 'mm', short: 'mm' };

describe("the Align step's RMS reads as the alignment card's", () => {
  it('prints four significant digits and the unit, as the card', () => {
    // A scan moved by 1.77 mm and aligned back: RMS 0.76 mm before, 4.636e-7 mm after.
    expect(rmsChange(0.7600123, 4.636e-7, MM)).toBe('RMS 0.76 mm → 4.6360e-7 mm');
    expect(alignLength(0.002461314469784139, MM)).toBe('0.002461 mm');
  });

  it('leaves the unit out for model units, as the card does', () => {
    expect(rmsChange(12.34567, 0.0123456, MODEL_UNITS)).toBe('RMS 12.35 → 0.01235');
  });
});
