import { describe, expect, it } from 'vitest';
import type { HistogramResult } from '../engine';
import { negateHistogram, negateLabels, negateValues, nominalOf, rolePairs, verdictOf } from './roles';
import type { BodyEntry } from './stores';

const histogram = (): HistogramResult => ({
  mean: 0.08,
  std: 0.02,
  median: 0.09,
  p95: 0.12,
  signedMin: -0.01,
  signedMax: 0.15,
  maxAbs: 0.15,
  withinTolerance: 0.97,
  buckets: [
    { lo: -0.01, hi: 0.03, count: 5 },
    { lo: 0.03, hi: 0.07, count: 20 },
    { lo: 0.07, hi: 0.11, count: 60 },
    { lo: 0.11, hi: 0.15, count: 15 },
  ],
  samples: 100,
  signedSamples: 100,
  ambiguousSamples: 0,
  ambiguousFraction: 0,
  noDataSamples: 3,
  maxDistance: 2,
  signMode: 'robust',
  surface: 'exact',
  deflection: 0.1,
  warnings: [],
});

describe('inspection roles: the nominal measured, shown as actual minus nominal', () => {
  it('negates a histogram: signed figures and extremes swap sign, buckets mirror in ascending order, unsigned figures stay', () => {
    const h = histogram();
    const n = negateHistogram(h);
    expect([n.mean, n.median, n.signedMin, n.signedMax]).toEqual([-0.08, -0.09, -0.15, 0.01]);
    expect(n.buckets).toEqual([
      { lo: -0.15, hi: -0.11, count: 15 },
      { lo: -0.11, hi: -0.07, count: 60 },
      { lo: -0.07, hi: -0.03, count: 20 },
      { lo: -0.03, hi: 0.01, count: 5 },
    ]);
    expect([n.p95, n.maxAbs, n.withinTolerance, n.samples, n.noDataSamples, n.std]).toEqual([0.12, 0.15, 0.97, 100, 3, 0.02]);
    // Twice is the identity (no -0 sneaking in for the zero-free figures).
    expect(negateHistogram(n)).toEqual(h);
  });

  it('negates per-vertex values in place (NaN, ambiguous, stays NaN) and labels (null, no sign, stays null)', () => {
    const v = negateValues(new Float32Array([0.25, -0.5, Number.NaN, 0]));
    expect(Array.from(v.subarray(0, 2))).toEqual([-0.25, 0.5]);
    expect(Number.isNaN(v[2])).toBe(true);
    const labels = negateLabels([{ signed: 0.2 }, { signed: null }] as never);
    expect(labels.map((l) => l.signed)).toEqual([-0.2, null]);
  });

  it('the verdict rule: PASS at or above the required share, FAIL below, none without a figure', () => {
    expect(verdictOf(0.99, 0.99)).toBe('PASS');
    expect(verdictOf(0.9964, 0.99)).toBe('PASS');
    expect(verdictOf(0.9899, 0.99)).toBe('FAIL');
    expect(verdictOf(undefined, 0.99)).toBeNull();
  });
});

describe('which body is the nominal', () => {
  const body = (bodyId: string, kind: 'brep' | 'mesh' | 'points') => ({ bodyId, summary: { kind } }) as unknown as BodyEntry;

  it('the CAD, else the first mesh when there is something to compare with it; a lone scan waits for its nominal', () => {
    expect(nominalOf([body('scan', 'mesh'), body('part', 'brep')], null)).toBe('part');
    expect(nominalOf([body('ref', 'mesh'), body('scan', 'mesh')], null)).toBe('ref');
    expect(nominalOf([body('cloud', 'points'), body('ref', 'mesh')], null)).toBe('ref');
    // Left alone when the CAD is removed (or dropped first): not promoted to the nominal.
    expect(nominalOf([body('scan', 'mesh')], null)).toBeNull();
    expect(rolePairs([body('scan', 'mesh')], null)).toEqual([]);
    expect(nominalOf([body('cloud', 'points')], null)).toBeNull();
    expect(nominalOf([body('part', 'brep')], null)).toBe('part');
  });

  it("the user's mark wins while the body is there and has a surface", () => {
    expect(nominalOf([body('part', 'brep'), body('scan', 'mesh')], 'scan')).toBe('scan');
    expect(nominalOf([body('part', 'brep'), body('cloud', 'points')], 'cloud')).toBe('part');
    expect(nominalOf([body('part', 'brep')], 'gone')).toBe('part');
  });
});
