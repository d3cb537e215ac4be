import { describe, expect, it } from 'vitest';
import { warningText } from './warningWords';

const MISMATCH =
  "'c5_inch' is 1/25.4 the size of 'part' (box diagonals 35.61 and 907.2) and fits it poorly (RMS 2.247, 6% of its size): its coordinates are probably in inches, 'part' in millimetres.";

describe('engine warnings in the page', () => {
  it('UNIT_MISMATCH: the import_file and command-line advice gives way to the "File in" select', () => {
    const engine = `${MISMATCH} Import it again with its unit: "unit": "inch" (import_file), --unit c5_inch=inch (command line).`;
    expect(warningText({ code: 'UNIT_MISMATCH', message: engine })).toBe(`${MISMATCH} Here: choose the unit it was written in under Actual, "File in".`);
  });

  it('UNIT_MISMATCH without the advice (a body with a unit) still points at "File in"', () => {
    expect(warningText({ code: 'UNIT_MISMATCH', message: MISMATCH })).toBe(`${MISMATCH} Here: choose the unit it was written in under Actual, "File in".`);
  });

  it("a direction is named by its bodies, not by measure_deviation's result field", () => {
    expect(warningText({ code: 'THIN_WALLED_REFERENCE', message: 'part against scan (fromToTo): 1275 of 20000 samples (6.4%) lie nearer' })).toBe('part against scan: 1275 of 20000 samples (6.4%) lie nearer');
    expect(warningText({ code: 'MOSTLY_AMBIGUOUS', message: 'toToFrom (scan against part): 17103 of 20000 samples (86%) have no trustworthy sign' })).toBe('scan against part: 17103 of 20000 samples (86%) have no trustworthy sign');
  });

  it('other warnings are shown as the engine wrote them', () => {
    expect(warningText({ code: 'SYMMETRIC_PART', message: 'symmetric part (--unit x).' })).toBe('symmetric part (--unit x).');
  });
});
