import { readFileSync } from 'node:fs';
import { compareRuns, DEFAULT_BASELINE, formatComparison, type BenchRun } from './report';

/**
 * `npm run bench:compare -- <run.json> [<baseline.json>] [--threshold 0.1]`: each figure of a stored
 * run beside the baseline (bench/baseline.json by default), with the change; times and rates that
 * moved more than the threshold are marked slower (a regression) or faster.
 */
const args = process.argv.slice(2);
const t = args.indexOf('--threshold');
const threshold = t >= 0 ? Number(args[t + 1]) : 0.1;
const files = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--threshold');
const [current, baseline = DEFAULT_BASELINE] = files;
if (!current || !(threshold >= 0)) {
  process.stderr.write('usage: npm run bench:compare -- <run.json> [<baseline.json>] [--threshold 0.1]\n');
  process.exit(2);
}
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as BenchRun;
process.stdout.write(`${formatComparison(compareRuns(read(baseline), read(current), threshold))}\n`);
