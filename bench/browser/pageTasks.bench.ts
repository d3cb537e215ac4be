import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from '@playwright/test';
import { dataFile } from '../../e2e/fixtures/AppPage';
import { newApp, type App } from '../../e2e/fixtures/fixtures';
import { median, round, type Figures } from '../harness';
import type { BenchRun } from '../report';

/**
 * The page's main thread while the worker runs a tool (`npm run bench:browser`): the long tasks
 * (over 50 ms) from the Run click to the result, their count and the longest. These were budgets
 * in the e2e specs ("no long task meanwhile"); a figure here, set beside bench/baseline-browser.json
 * by `npm run bench:compare -- bench/results/browser-tasks.json bench/baseline-browser.json`.
 * Measured without touching the view: headless Chromium draws WebGL in software (SwiftShader), where
 * one frame of a scene can take 100 to 200 ms.
 */

const ROUNDS = Number(process.env.BREPSCOPE_BENCH_ROUNDS ?? 3);
const ROOT = path.resolve(import.meta.dirname, '../..');
const OUT = process.env.BREPSCOPE_BENCH_TASKS_OUT ?? path.join(ROOT, 'bench/results/browser-tasks.json');

interface ToolCase {
  name: string;
  tool: string;
  fields: Record<string, string>;
}

/** The runs the e2e specs used to hold to "no long task": a query, a long validation, a long volume. */
const CASES: ToolCase[] = [
  { name: 'query_topology (screw.step faces)', tool: 'query_topology', fields: { bodyId: 'screw', entity: 'face', limit: '7' } },
  { name: 'validate_geometry (screw.step)', tool: 'validate_geometry', fields: { bodyId: 'screw' } },
  { name: 'symmetric_difference_volume (screw.step vs shape.stl, 200k samples)', tool: 'symmetric_difference_volume', fields: { fromBodyId: 'shape', referenceBodyId: 'screw', maxSamples: '200000' } },
];

async function longTasksDuring(app: App, c: ToolCase): Promise<Figures> {
  const since = await app.now();
  await app.tools.run(c.tool, c.fields);
  await app.tools.expectResult(c.tool, 600_000);
  const until = await app.now();
  const tasks = await app.longTasksSince(since, 50);
  const durations = tasks.map((t) => t.duration);
  return {
    runMs: round(until - since, 0),
    longTasksOver50Ms: durations.length,
    longTasksOver100Ms: durations.filter((d) => d > 100).length,
    longestTaskMs: round(Math.max(0, ...durations), 0),
  };
}

test.describe.configure({ mode: 'serial' });

test('main-thread long tasks while the worker runs a tool', async ({ browser }, info) => {
  const app = await newApp(browser, info);
  await app.open('?nodemo');
  await app.dropFiles([dataFile('screw.step'), dataFile('shape.stl')]);
  await app.expectDrawn(['screw', 'shape']);
  const results: Record<string, Figures> = {};
  for (const c of CASES) {
    const rounds: Figures[] = [];
    for (let r = 0; r < ROUNDS; r++) rounds.push(await longTasksDuring(app, c));
    const figures: Figures = { rounds: rounds.length };
    for (const key of Object.keys(rounds[0]!)) figures[key] = median(rounds.map((f) => f[key] as number), 0);
    results[`browser: long tasks during ${c.name}`] = figures;
    console.log(`${c.name}, median of ${rounds.length}: ${JSON.stringify(figures)}`);
  }
  await app.page.context().close();
  const run: BenchRun = { node: process.version, date: new Date().toISOString(), results };
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(run, null, 2) + '\n');
  console.log(`bench: page task figures written to ${path.relative(ROOT, OUT)}`);
});
