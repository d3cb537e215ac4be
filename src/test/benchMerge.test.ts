import { describe, expect, it } from 'vitest';
import { mergeIntoBaseline, type BenchRun } from '../../bench/report';

// The bench's own bookkeeping: a partial run merged into the stored baseline must not lose a case
// or hide which figures are from which day (docs/benchmarks.md says it per case).
describe('merging a partial bench run into the baseline', () => {
  const baseline: BenchRun = {
    node: 'v20',
    date: 'day 2',
    results: { a: { ms: 1 }, b: { ms: 2 }, c: { ms: 3 } },
    carriedOver: { date: 'day 1', node: 'v20', cases: ['b', 'c'] },
    remeasured: [{ date: 'day 3', node: 'v20', cases: ['a'] }],
  };

  it('replaces the cases run, keeps the others, and records when each was measured again', () => {
    const merged = mergeIntoBaseline(baseline, { node: 'v22', date: 'day 4', loadAverage: { start: [0.5], end: [1] }, results: { a: { ms: 10 }, c: { ms: 30 } } });
    expect(merged.results).toEqual({ a: { ms: 10 }, b: { ms: 2 }, c: { ms: 30 } });
    expect(merged.date).toBe('day 2');
    expect(merged.carriedOver).toEqual({ date: 'day 1', node: 'v20', cases: ['b'] });
    // The day-3 re-measure of `a` is superseded; its entry goes, having no case left.
    expect(merged.remeasured).toEqual([{ date: 'day 4', node: 'v22', loadAverage: { start: [0.5], end: [1] }, cases: ['a', 'c'] }]);
    expect(baseline.results.a).toEqual({ ms: 1 });
  });
});
