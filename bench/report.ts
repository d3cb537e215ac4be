import type { Figures } from './harness';

/** Where the stored run lives that `--compare` and `bench:compare` measure against. */
export const DEFAULT_BASELINE = 'bench/baseline.json';

/** What `npm run bench` writes: the machine, the time, each case's figures. */
export interface BenchRun {
  node: string;
  date: string;
  /** The machine's load average (1, 5, 15 min) at the start and the end of the run: figures of a loaded machine are slower. */
  loadAverage?: { start: number[]; end: number[] };
  /** Cases this file kept from an earlier run (its date) when a run did not reach them. */
  carriedOver?: { date: string; node: string; cases: string[] };
  /** Cases measured again after this run (`npm run bench -- <filter> --merge`), each entry a later run of some. */
  remeasured?: Remeasure[];
  results: Record<string, Figures>;
}

/** A later run of some of a baseline's cases, merged into it. */
export interface Remeasure {
  date: string;
  node: string;
  loadAverage?: { start: number[]; end: number[] };
  cases: string[];
}

/**
 * The baseline with the cases of `run` replacing its own: those cases are no longer carried over,
 * and the run is recorded as a re-measure of them (an earlier re-measure keeps only the cases it
 * still holds).
 */
export function mergeIntoBaseline(baseline: BenchRun, run: BenchRun): BenchRun {
  const cases = Object.keys(run.results);
  const fresh = new Set(cases);
  const kept = (list: string[]) => list.filter((c) => !fresh.has(c));
  const remeasured = (baseline.remeasured ?? []).map((r) => ({ ...r, cases: kept(r.cases) })).filter((r) => r.cases.length > 0);
  const merged: BenchRun = { ...baseline, results: { ...baseline.results, ...run.results } };
  if (baseline.carriedOver) merged.carriedOver = { ...baseline.carriedOver, cases: kept(baseline.carriedOver.cases) };
  merged.remeasured = [...remeasured, { date: run.date, node: run.node, ...(run.loadAverage ? { loadAverage: run.loadAverage } : {}), cases }];
  return merged;
}

/** Every numeric figure of a run as `case › group.figure` -> value. */
export function numericFigures(run: BenchRun): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (prefix: string, figures: Figures) => {
    for (const [key, value] of Object.entries(figures)) {
      const name = `${prefix}${key}`;
      if (typeof value === 'number' && Number.isFinite(value)) out.set(name, value);
      else if (value && typeof value === 'object' && !Array.isArray(value)) walk(`${name}.`, value as Figures);
    }
  };
  for (const [caseName, figures] of Object.entries(run.results)) walk(`${caseName} › `, figures);
  return out;
}

/** Which way is better for a figure, from its name: times and memory down, rates up; others are facts (counts, results). */
export function direction(name: string): 'lower' | 'higher' | 'fact' {
  const last = name.split('.').pop() ?? name;
  if (/PerSec$|Throughput$/i.test(last)) return 'higher';
  if (/Ms$|Mb$|MinMs$|Bytes$/.test(last) && !/^(target|deflection)/i.test(last)) return 'lower';
  return 'fact';
}

export interface FigureChange {
  name: string;
  baseline: number | undefined;
  current: number | undefined;
  /** (current - baseline) / |baseline|, when both exist and the baseline is not 0. */
  change: number | undefined;
  verdict: 'slower' | 'faster' | 'same' | 'changed' | 'new' | 'gone';
}

/**
 * Each figure of `current` beside `baseline`; a time or rate that moved more than `threshold` gets a
 * verdict. Only the cases `current` ran are compared (a filtered run is not a run of fewer figures).
 */
export function compareRuns(baseline: BenchRun, current: BenchRun, threshold = 0.1): FigureChange[] {
  const ran = Object.keys(current.results);
  const a = numericFigures({ ...baseline, results: Object.fromEntries(Object.entries(baseline.results).filter(([name]) => ran.includes(name))) });
  const b = numericFigures(current);
  const names = [...new Set([...b.keys(), ...a.keys()])];
  return names.map((name) => {
    const base = a.get(name);
    const now = b.get(name);
    if (base === undefined) return { name, baseline: base, current: now, change: undefined, verdict: 'new' };
    if (now === undefined) return { name, baseline: base, current: now, change: undefined, verdict: 'gone' };
    const change = base === 0 ? (now === 0 ? 0 : undefined) : (now - base) / Math.abs(base);
    const dir = direction(name);
    let verdict: FigureChange['verdict'] = 'same';
    if (dir === 'fact') verdict = now === base ? 'same' : 'changed';
    else if (change !== undefined && Math.abs(change) > threshold) verdict = (dir === 'lower') === change > 0 ? 'slower' : 'faster';
    return { name, baseline: base, current: now, change, verdict };
  });
}

const fmt = (x: number | undefined) => (x === undefined ? '–' : Number(x.toPrecision(6)).toString());
const pct = (x: number | undefined) => (x === undefined ? '' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`);

/** One line per figure: name, baseline, current, change, verdict (regressions marked). */
export function formatComparison(changes: readonly FigureChange[]): string {
  const width = Math.min(90, Math.max(...changes.map((c) => c.name.length), 10));
  const lines = changes.map((c) => {
    const mark = c.verdict === 'slower' ? '  << REGRESSION' : c.verdict === 'faster' ? '  (better)' : c.verdict === 'changed' ? '  (value changed)' : c.verdict === 'new' || c.verdict === 'gone' ? `  (${c.verdict})` : '';
    return `${c.name.padEnd(width)}  ${fmt(c.baseline).padStart(12)} -> ${fmt(c.current).padEnd(12)} ${pct(c.change).padStart(9)}${mark}`;
  });
  const slower = changes.filter((c) => c.verdict === 'slower').length;
  const faster = changes.filter((c) => c.verdict === 'faster').length;
  return [...lines, '', `${changes.length} figures: ${slower} slower, ${faster} faster beyond the threshold`].join('\n');
}

/** The run's numeric figures as a readable table (what `npm run bench` prints on stderr). */
export function formatFigures(run: BenchRun): string {
  const figures = numericFigures(run);
  const width = Math.min(90, Math.max(...[...figures.keys()].map((k) => k.length), 10));
  return [...figures].map(([name, value]) => `${name.padEnd(width)}  ${fmt(value)}`).join('\n');
}
