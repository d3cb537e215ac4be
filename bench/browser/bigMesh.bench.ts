import { loadavg } from 'node:os';
import { test } from '../../e2e/fixtures/fixtures';
import { importBig, makeCloud, makeScan } from '../../e2e/fixtures/bigScans';

/**
 * Big scans dropped on the page (issues 29.7 and 32.3): the page's long tasks from the drop until
 * the viewport holds the body's geometry, against a budget of 200 ms per task. The budget was a
 * retried pass/fail assertion in e2e/bigMesh.spec.ts (100 ms then); it is a figure here, printed
 * with the load average beside it, never asserted: on a shared machine compare runs, not limits.
 */

const BUDGET_MS = 200;

function report(what: string, tasks: { duration: number }[]): void {
  const longest = Math.round(Math.max(0, ...tasks.map((t) => t.duration)));
  const over = tasks.filter((t) => t.duration > BUDGET_MS).length;
  console.log(`bigMesh ${what}: longest page task ${longest} ms, ${over} over ${BUDGET_MS} ms, ${tasks.length} over 50 ms (load ${loadavg()[0]!.toFixed(1)})`);
}

test.use({ trace: 'off' });

test('big scans: page tasks while a 1M-triangle STL, a 2M-triangle PLY and a 5M-point cloud import', async ({ app }, testInfo) => {
  test.setTimeout(1_200_000);
  await makeScan(app.page, 'big.stl', 500, 'stl');
  report('1M-triangle STL', await importBig(app, 'big', testInfo));
  await makeScan(app.page, 'bigply.ply', 708, 'ply');
  report('2M-triangle PLY', await importBig(app, 'bigply', testInfo));
  await makeCloud(app.page, 'cloud.ply', 5_000_000);
  report('5M-point PLY cloud', await importBig(app, 'cloud', testInfo));
});
