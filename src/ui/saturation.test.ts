import { describe, expect, it } from 'vitest';
import { saturationNote } from './saturation';

describe('the legend says why the colours saturate where they do', () => {
  it('names the 99th percentile when it sets the span', () => {
    expect(saturationNote(0.4116, 0.1, 'mm')).toBe('mm · colours saturate beyond ±0.412 (99th percentile of |d| at the coloured vertices)');
  });

  it('names twice the tolerance when that is wider than the percentile (a part well within tolerance)', () => {
    // The review of a turned ring: p99 of |d| 0.00834 mm, tolerance ±0.1 → span 0.2; before, the hint
    // called 0.2 the 99th percentile.
    expect(saturationNote(0.00834, 0.1, 'mm')).toBe('mm · colours saturate beyond ±0.2 (twice the tolerance; 99th percentile of |d| at the coloured vertices 0.00834)');
  });

  it('at exactly twice the tolerance both rules agree and the percentile is named', () => {
    expect(saturationNote(0.2, 0.1, 'in')).toBe('in · colours saturate beyond ±0.2 (99th percentile of |d| at the coloured vertices)');
  });

  it("on the nominal, after the actual: the actual's range, named as such", () => {
    expect(saturationNote(0.2979, 0.1, 'mm', 'scan')).toBe("mm · colours saturate beyond ±0.298 (99th percentile of |d| at scan's vertices, the scale of its view)");
    expect(saturationNote(0.0293, 0.1, 'mm', 'scan')).toBe("mm · colours saturate beyond ±0.2 (twice the tolerance; 99th percentile of |d| at scan's vertices, the scale of its view 0.0293)");
  });
});
