import { describe, expect, it } from 'vitest';
import { nodeKernel } from '../../../node/nodeEngine';
import { testEngine } from '../../../test/testEngine';
import { fuzzSources, hostileCases, INTERNAL_CODES, runHostile, runMutant, type Outcome, type Trial } from '../../../test/fuzzCorpus';

/** Mutants tried: seeds 1..COUNT over the 13 good files (a failing seed reproduces with `mutant(sources, seed)`). */
const COUNT = 195;
/**
 * Per-file deadline. A kernel hang in-process cannot be interrupted, only measured: the pre-kernel
 * checks are what keep every mutant far inside it (most end in milliseconds).
 */
const DEADLINE_MS = 15_000;

describe('hostile input: a seeded corpus of mutated files through import_file, compute_metrics and validate_geometry', () => {
  it(`${COUNT} mutants: each a result or a coded bad-input error, none over ${DEADLINE_MS} ms`, async () => {
    const oc = await nodeKernel();
    const sources = fuzzSources(oc);
    const engine = testEngine();
    const trials: Trial[] = [];
    for (let seed = 1; seed <= COUNT; seed++) {
      const trial = await runMutant(engine, sources, seed, DEADLINE_MS);
      trials.push(trial);
      // A coded error, but the kernel of this test worker is no longer to be trusted: stop here, naming the seed.
      if (trial.code === 'FILE_ABORTED_KERNEL') break;
    }

    const tally: Record<Outcome, number> = { result: 0, 'coded error': 0, uncoded: 0, timeout: 0 };
    for (const t of trials) tally[t.outcome]++;
    const codes = new Map<string, number>();
    for (const t of trials) if (t.code) codes.set(t.code, (codes.get(t.code) ?? 0) + 1);
    const slowest = trials.reduce((a, b) => (b.ms > a.ms ? b : a));
    console.log(
      `fuzz tally: tried ${trials.length} / result ${tally.result} / coded error ${tally['coded error']} / timeout ${tally.timeout} / uncoded ${tally.uncoded}; ` +
        `codes ${JSON.stringify(Object.fromEntries(codes))}; slowest seed ${slowest.mutant.seed} (${slowest.mutant.source}, ${slowest.mutant.mutation}) ${slowest.ms.toFixed(0)} ms`,
    );
    const bad = trials.filter((t) => t.outcome === 'uncoded' || t.outcome === 'timeout' || t.code === 'FILE_ABORTED_KERNEL');
    expect(bad.map((t) => `seed ${t.mutant.seed} ${t.mutant.source} ${t.mutant.mutation}: ${t.outcome} ${t.code ?? ''} ${t.message ?? ''} ${t.ms.toFixed(0)} ms`)).toEqual([]);
    expect(tally.result + tally['coded error']).toBe(COUNT);
    // The corpus is hostile: most mutants must be refused, and every format is exercised.
    expect(tally['coded error']).toBeGreaterThan(COUNT / 2);
    expect(new Set(trials.map((t) => t.mutant.source)).size).toBe(sources.length);
    // Every error names the file it is about.
    for (const t of trials) if (t.message) expect(t.message, `seed ${t.mutant.seed}`).toContain(t.mutant.fileName.replace(/\.[^.]+$/, ''));
  });
});

describe('hostile input: the files of issue 34 (zips declaring too much, shapes the kernel cannot box, STEP cycles)', () => {
  it('each ends as expected: FILE_TOO_LARGE before inflating, a result for what native OCCT reads, PARSE_FAILED for a cycle that matters', async () => {
    const oc = await nodeKernel();
    const engine = testEngine();
    const outcomes: string[] = [];
    for (const c of hostileCases(oc)) {
      const r = await runHostile(engine, c);
      outcomes.push(`${c.what}: ${r.code}`);
      expect(INTERNAL_CODES.has(r.code), `${c.what}: ${r.message ?? ''}`).toBe(false);
      if (r.message) expect(r.message, c.what).toContain(c.fileName.replace(/\.[^.]+$/, ''));
    }
    console.log(`hostile cases (issue 34): ${outcomes.join('; ')}`);
    expect(outcomes).toEqual(hostileCases(oc).map((c) => `${c.what}: ${c.expected}`));
  });
});
