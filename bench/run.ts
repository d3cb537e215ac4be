import type { BenchCase } from './harness';
import { crossSectionCases } from './crossSection';
import { deviationCases } from './deviation';
import { exactDeviationCases } from './exactDeviation';
import { foundationCases } from './foundation';
import { meshQueryCases } from './meshQueries';
import { sceneToolCases } from './sceneTools';
import { graphCases } from './graph';
import { renderCases } from './render';
import { scanImportCases } from './scanImport';

/**
 * `npm run bench [-- name-filter]`: runs every case (or those whose name contains the filter) and
 * prints one JSON object of figures on stdout.
 */
const CASES: BenchCase[] = [...foundationCases, ...meshQueryCases, ...sceneToolCases, ...crossSectionCases, ...deviationCases, ...exactDeviationCases, ...graphCases, ...renderCases, ...scanImportCases];

const filter = process.argv[2];
const results: Record<string, unknown> = {};
for (const c of CASES) {
  if (filter && !c.name.includes(filter)) continue;
  process.stderr.write(`bench: ${c.name}...\n`);
  results[c.name] = await c.run();
}
process.stdout.write(JSON.stringify({ node: process.version, date: new Date().toISOString(), results }, null, 2) + '\n');
process.exit(0);
