import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { alignCases } from './align';
import { batchCases } from './batch';
import { cloudScaleCases } from './cloudScale';
import { crossSectionCases } from './crossSection';
import { deviationCases } from './deviation';
import { deviationProcessCases } from './deviationProcess';
import { exactDeviationCases } from './exactDeviation';
import { foundationCases } from './foundation';
import { graphCases } from './graph';
import { kernelGlueCases } from './kernelGlue';
import type { BenchCase, Figures } from './harness';
import { meshQueryCases } from './meshQueries';
import { bvhBuildCases } from './bvhBuild';
import { renderCases } from './render';
import { compareRuns, DEFAULT_BASELINE, formatComparison, formatFigures, mergeIntoBaseline, type BenchRun } from './report';
import { scanImportCases } from './scanImport';
import { sceneToolCases } from './sceneTools';

/**
 * `npm run bench [-- <name-filter>] [--out <file.json>] [--compare [<baseline.json>]] [--merge [<baseline.json>]]`
 *
 * Runs every case (or those whose name contains the filter), prints each numeric figure on stderr
 * and the whole run as JSON on stdout (or into --out). With --compare, each figure is set beside the
 * stored baseline (bench/baseline.json by default) and the change printed; a time or rate more than
 * 10 % worse is marked as a regression. `npm run bench:compare -- <run.json> [<baseline.json>]`
 * compares two stored runs without running anything. With --merge, the cases run replace theirs in
 * the baseline, which records when they were measured again (a change meant to move some figures).
 */
const CASES: BenchCase[] = [...foundationCases, ...kernelGlueCases, ...meshQueryCases, ...bvhBuildCases, ...sceneToolCases, ...crossSectionCases, ...deviationCases, ...exactDeviationCases, ...deviationProcessCases, ...graphCases, ...renderCases, ...scanImportCases, ...cloudScaleCases, ...alignCases, ...batchCases];

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const value = argv[i + 1];
  return value && !value.startsWith('--') ? value : '';
};
const out = option('--out');
const compareWith = option('--compare');
const mergeInto = option('--merge');
const filter = argv.find((a, i) => !a.startsWith('--') && !['--out', '--compare', '--merge'].includes(argv[i - 1] ?? ''));

const results: Record<string, Figures> = {};
const load = () => loadavg().map((x) => Math.round(x * 100) / 100);
const loadAtStart = load();
const runSoFar = (): BenchRun => ({ node: process.version, date: new Date().toISOString(), loadAverage: { start: loadAtStart, end: load() }, results });
for (const c of CASES) {
  if (filter && !c.name.includes(filter)) continue;
  process.stderr.write(`bench: ${c.name}...\n`);
  results[c.name] = await c.run();
  // Written after every case: a run stopped part way keeps what it measured.
  if (out) writeFileSync(out, JSON.stringify(runSoFar(), null, 2) + '\n');
}
const run = runSoFar();
const json = JSON.stringify(run, null, 2) + '\n';
process.stderr.write(`\n${formatFigures(run)}\n`);
if (out) writeFileSync(out, json);
else process.stdout.write(json);
if (compareWith !== undefined) {
  const baseline = JSON.parse(readFileSync(compareWith || DEFAULT_BASELINE, 'utf8')) as BenchRun;
  process.stderr.write(`\nagainst ${compareWith || DEFAULT_BASELINE} (${baseline.date}, node ${baseline.node}):\n${formatComparison(compareRuns(baseline, run))}\n`);
}
if (mergeInto !== undefined) {
  const file = mergeInto || DEFAULT_BASELINE;
  const baseline = JSON.parse(readFileSync(file, 'utf8')) as BenchRun;
  writeFileSync(file, JSON.stringify(mergeIntoBaseline(baseline, run), null, 2) + '\n');
  process.stderr.write(`\n${Object.keys(run.results).length} case(s) merged into ${file}: run npm run bench:table\n`);
}
process.exit(0);
