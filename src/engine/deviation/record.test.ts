import { describe, expect, it } from 'vitest';
import { mostlyAmbiguousWarning, type DirectedRecord } from './record';

const record = (samples: number, signedSamples: number): DirectedRecord =>
  ({ samples, signedSamples, ambiguousSamples: samples - signedSamples, ambiguousFraction: (samples - signedSamples) / samples }) as DirectedRecord;

describe('mostlyAmbiguousWarning', () => {
  it('warns when most samples have no sign but some do: the signed figures rest on the few left', () => {
    // FTC 10 against its scan with the triangles wound the other way round: 17103 of 20000 ambiguous,
    // and a signedMean of -0.017 from the rest where the true one is +0.0034.
    const w = mostlyAmbiguousWarning(record(20000, 2897), 'fromToTo (scan against part)');
    expect(w?.code).toBe('SIGNS_MOSTLY_AMBIGUOUS');
    expect(w!.message).toContain('17103 of 20000 samples (86%)');
    expect(w!.message).toContain('probably inside out');
  });

  it('is silent at half or less, and when nothing is signed (NO_SIGNED_SAMPLES is the word for that)', () => {
    expect(mostlyAmbiguousWarning(record(20000, 10000), 'x')).toBeNull();
    expect(mostlyAmbiguousWarning(record(20000, 19990), 'x')).toBeNull();
    expect(mostlyAmbiguousWarning(record(20000, 0), 'x')).toBeNull();
  });
});
