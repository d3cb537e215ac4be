import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type Browser, type Page } from '@playwright/test';
import { AppPage } from '../../e2e/fixtures/AppPage';
import { median, round, type Figures } from '../harness';
import type { BenchRun } from '../report';

/**
 * Browser benchmarks, in headless Chromium against the test build (`npm run bench:browser`):
 * - cold page (new browser context: empty HTTP cache, no compiled code) to the demo's first heat map;
 * - a STEP + STL pair dropped on a fresh page to its first heat map (Compare clicked when offered);
 * - worker replacement (the path of Cancel and of a crash) to kernel ready and to scene restored.
 * Each is run ROUNDS times per target; figures are medians, each with the time split. They are
 * printed and written as a bench run (bench/results/browser.json, `npm run bench:compare` reads it).
 * No figure is asserted: speed targets live in benchmarks, read by people.
 *
 * Side by side: BREPSCOPE_BENCH_AGAINST='main=http://localhost:4195/brepscope/' measures other
 * served test builds in the same rounds, alternating with this one (older builds lack the worker's
 * kernel marks and run timings: their split is null but for the page's own figures).
 */

const ROUNDS = Number(process.env.BREPSCOPE_BENCH_ROUNDS ?? 3);
const ROOT = path.resolve(import.meta.dirname, '../..');
const OUT = process.env.BREPSCOPE_BENCH_OUT ?? path.join(ROOT, 'bench/results/browser.json');

interface Target {
  name: string;
  url: string;
}

function targets(baseURL: string | undefined): Target[] {
  const own: Target = { name: 'this build', url: baseURL ?? '' };
  const others = (process.env.BREPSCOPE_BENCH_AGAINST ?? '')
    .split(',')
    .filter(Boolean)
    .map((entry) => {
      const at = entry.indexOf('=');
      return at > 0 ? { name: entry.slice(0, at), url: entry.slice(at + 1) } : { name: entry, url: entry };
    });
  return [own, ...others];
}

/** What the page records on every animation frame (installed before the app starts). */
interface FrameLog {
  /** Page clock when each worker generation first had its kernel ready / its scene restored. */
  kernelReady: Record<number, number>;
  restored: Record<number, number>;
  heatDrawn: number | null;
  /** When the page got the drop event (its files are in the page from then on). */
  dropped: number | null;
}

declare global {
  interface Window {
    __benchFrames?: FrameLog;
  }
}

/** The page's clock, frame by frame: kernel ready and restore done per worker generation, heat map drawn. */
function installFrameLog(): void {
  const log: FrameLog = { kernelReady: {}, restored: {}, heatDrawn: null, dropped: null };
  window.__benchFrames = log;
  // Captured before the app's handler: the time a person's drop would start the clock. Playwright's
  // way of putting files into the page (base64 through evaluate) takes seconds on a loaded machine.
  window.addEventListener('drop', () => (log.dropped ??= performance.now()), { capture: true });
  const frame = () => {
    const api = window.__brepscope;
    if (api) {
      const { generation, restoring } = api.engine();
      if (api.kernel().status === 'ready') log.kernelReady[generation] ??= performance.now();
      if (!restoring) log.restored[generation] ??= performance.now();
      if (log.heatDrawn === null && api.heatmap()?.status === 'done') {
        const colors = api.heatmap()?.colorAttribute;
        if (colors && colors.proud + colors.shy > 0) log.heatDrawn = performance.now();
      }
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** The engine worker as the page's clock sees it: its kernel marks and tool runs (test builds). */
interface WorkerView {
  /** src/workers/browserKernel.ts KERNEL_MARKS; null on an older build. */
  kernel: { start: number; compiled: number; instantiated: number; ready: number } | null;
  /** src/workers/testHooks.ts WorkerRunTiming; empty on an older build. */
  runs: { tool: string; bodyId?: string; startMs: number; endMs?: number; firstProgressMs: Record<string, number> }[];
}

/** The current engine worker's kernel marks and tool runs, moved to the page's clock (ms since navigation). */
async function workerView(page: Page): Promise<WorkerView> {
  const worker = page.workers().filter((w) => w.url().includes('engine.worker')).at(-1);
  if (!worker) return { kernel: null, runs: [] };
  const [pageOrigin, seen] = await Promise.all([
    page.evaluate(() => performance.timeOrigin),
    worker.evaluate(() => {
      const at = (name: string) => performance.getEntriesByName(`brepscope:kernel-${name}`)[0]?.startTime;
      const marks = [at('start'), at('compiled'), at('instantiated'), at('ready')];
      return { origin: performance.timeOrigin, marks, runs: structuredClone(globalThis.__brepscopeRuns ?? []) };
    }),
  ]);
  const shift = seen.origin - pageOrigin;
  const [start, compiled, instantiated, ready] = seen.marks.map((m) => (m === undefined ? undefined : m + shift));
  const kernel = start !== undefined && compiled !== undefined && instantiated !== undefined && ready !== undefined ? { start, compiled, instantiated, ready } : null;
  const runs = seen.runs.map((r) => ({
    ...r,
    startMs: r.startMs + shift,
    ...(r.endMs === undefined ? {} : { endMs: r.endMs + shift }),
    firstProgressMs: Object.fromEntries(Object.entries(r.firstProgressMs).map(([k, v]) => [k, v + shift])),
  }));
  return { kernel, runs };
}

type Run = WorkerView['runs'][number];

/** The first run of `tool` (on `bodyId`). */
function runOf(runs: Run[], tool: string, bodyId?: string): Run | undefined {
  return runs.find((r) => r.tool === tool && (bodyId === undefined || r.bodyId === bodyId));
}

/** The worker's runs as lines, times from `since`: what ran when, for the reader of a round. */
function timeline({ kernel, runs }: WorkerView, since: number): string {
  const t = (ms: number | undefined) => (ms === undefined ? '?' : String(Math.round(ms - since)));
  const lines = kernel ? [`  kernel: start ${t(kernel.start)}, compiled ${t(kernel.compiled)}, instantiated ${t(kernel.instantiated)}, ready ${t(kernel.ready)}`] : [];
  for (const r of runs) {
    const progress = Object.entries(r.firstProgressMs).map(([message, at]) => ` '${message}' ${t(at)}`);
    lines.push(`  ${r.tool}${r.bodyId ? ` ${r.bodyId}` : ''}: ${t(r.startMs)} - ${t(r.endMs)}${progress.length ? `, first progress${progress.join(',')}` : ''}`);
  }
  return lines.join('\n');
}

const span = (from: number | undefined, to: number | undefined) => (from === undefined || to === undefined ? null : round(to - from, 0));

/** The split of one page's way to its first heat map, from `since` (the page's clock). */
function split({ kernel, runs }: WorkerView, frames: FrameLog, pair: { from: string; to: string }, since = 0) {
  const kernelReady = kernel?.ready ?? frames.kernelReady[1];
  const importFrom = runOf(runs, 'import_file', pair.from);
  const importTo = runOf(runs, 'import_file', pair.to);
  const drawFrom = runOf(runs, 'display_mesh', pair.from);
  const metrics = runOf(runs, 'compute_metrics');
  const deviation = runOf(runs, 'measure_deviation');
  const heat = runOf(runs, 'deviation_heatmap');
  const firstQuery = deviation?.firstProgressMs.fromToTo;
  const secondDirection = deviation?.firstProgressMs.toToFrom;
  return {
    firstHeatMapMs: span(since, frames.heatDrawn ?? undefined),
    kernelReadyMs: span(since, kernelReady),
    kernel: {
      workerStartMs: span(since, kernel?.start),
      downloadAndCompileMs: span(kernel?.start, kernel?.compiled),
      instantiateMs: span(kernel?.compiled, kernel?.instantiated),
      bindingsMs: span(kernel?.instantiated, kernel?.ready),
    },
    mesh: {
      importMs: span(importTo?.startMs, importTo?.endMs),
      importedAtMs: span(since, importTo?.endMs),
      /** The STL was in the scene before the kernel was ready (mesh work does not wait for it). */
      beforeKernel: importTo?.endMs !== undefined && kernelReady !== undefined ? importTo.endMs < kernelReady : null,
    },
    cad: {
      /** From kernel ready (or the run's start, if later) to the body in the scene. */
      importAfterKernelMs: span(importFrom && kernelReady !== undefined ? Math.max(importFrom.startMs, kernelReady) : undefined, importFrom?.endMs),
      tessellationMs: span(drawFrom?.startMs, drawFrom?.endMs),
    },
    metricsCardMs: span(metrics?.startMs, metrics?.endMs),
    deviation: {
      startAtMs: span(since, deviation?.startMs),
      /** measure_deviation's start to its first query: tessellation at the deviation's deflection, samples, BVH, pseudo-normals. */
      structuresMs: span(deviation?.startMs, firstQuery),
      /** First query to the answer (the second direction's reference structures are built in it). */
      queriesMs: span(firstQuery, deviation?.endMs),
      secondDirectionAfterMs: span(deviation?.startMs, secondDirection),
      totalMs: span(deviation?.startMs, deviation?.endMs),
    },
    heatValuesMs: span(heat?.startMs, heat?.endMs),
    /** deviation_heatmap's answer to the coloured body drawn (transfer, colours per vertex, upload, frame). */
    colorsMs: span(heat?.endMs, frames.heatDrawn ?? undefined),
    /** The worker's idle time between the last CAD body's display mesh and the deviation (page round trips, UI). */
    waitBeforeDeviationMs: span(drawFrom?.endMs, deviation?.startMs),
  };
}

async function openContext(browser: Browser, url: string): Promise<AppPage> {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1400, height: 860 } });
  const page = await context.newPage();
  await page.addInitScript(installFrameLog);
  return new AppPage(page);
}

async function waitFor<T>(page: Page, read: () => Promise<T | null | undefined>, what: string, timeoutMs = 180_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await page.waitForTimeout(50);
  }
}

const frames = (page: Page) => page.evaluate(() => window.__benchFrames!);

/** Medians of each numeric leaf over the rounds; booleans as the share of rounds that had them. */
function medians(rounds: Figures[]): Figures {
  const first = rounds[0];
  if (!first) return {};
  const out: Figures = {};
  for (const [key, value] of Object.entries(first)) {
    const values = rounds.map((r) => r[key]);
    if (typeof value === 'number' || value === null) {
      const numbers = values.filter((v): v is number => typeof v === 'number');
      out[key] = numbers.length ? median(numbers, 0) : null;
    } else if (typeof value === 'boolean') out[key] = round(values.filter((v) => v === true).length / values.length, 2);
    else if (value && typeof value === 'object' && !Array.isArray(value)) out[key] = medians(values as Figures[]);
    else out[key] = value;
  }
  return out;
}

const results: Record<string, Figures> = {};

function report(caseName: string, target: Target, rounds: Figures[]): void {
  const figures = { rounds: rounds.length, ...medians(rounds) };
  results[`browser: ${caseName} (${target.name})`] = figures;
  console.log(`\n${caseName} - ${target.name} (${target.url}), median of ${rounds.length}:\n${JSON.stringify(figures, null, 2)}`);
}

/** ROUNDS rounds, each measuring every target in turn (side by side under the same load), then their medians. */
async function alternating(all: Target[], caseName: string, measure: (target: Target, round: number) => Promise<Figures>): Promise<void> {
  const rounds = new Map<string, Figures[]>(all.map((t) => [t.name, []]));
  for (let r = 0; r < ROUNDS; r++) for (const target of all) rounds.get(target.name)!.push(await measure(target, r + 1));
  for (const target of all) report(caseName, target, rounds.get(target.name)!);
}

test.describe.configure({ mode: 'serial' });

test.afterAll(() => {
  const run: BenchRun = { node: process.version, date: new Date().toISOString(), results };
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(run, null, 2) + '\n');
  console.log(`\nbench: browser figures written to ${path.relative(ROOT, OUT)}`);
});

test('cold page to the demo first heat map', async ({ browser }, info) => {
  await alternating(targets(info.project.use.baseURL), 'cold page to the demo first heat map', async (target, round) => {
    const app = await openContext(browser, target.url);
    await app.open('?demo');
    await waitFor(app.page, async () => (await frames(app.page)).heatDrawn, 'the demo heat map');
    const view = await workerView(app.page);
    const figures = split(view, await frames(app.page), { from: 'part', to: 'scan' });
    console.log(`cold demo, round ${round}, ${target.name}: first heat map ${figures.firstHeatMapMs} ms, kernel ready ${figures.kernelReadyMs} ms\n${timeline(view, 0)}`);
    await app.page.context().close();
    return figures;
  });
});

test('dropped STEP + STL pair to its first heat map', async ({ browser }, info) => {
  // The demo part as STEP (written by the Node kernel in a child process) and the demo's scan of it.
  const dir = mkdtempSync(path.join(tmpdir(), 'brepscope-bench-'));
  const stepPath = path.join(dir, 'part.step');
  execFileSync('npx', ['tsx', path.join(ROOT, 'bench/browser/demoStep.ts'), stepPath], { cwd: ROOT, stdio: 'ignore' });
  const files = [
    { name: 'part.step', bytes: readFileSync(stepPath) },
    { name: 'scan.stl', bytes: readFileSync(path.join(ROOT, 'public/demo/scan.stl')) },
  ];
  await alternating(targets(info.project.use.baseURL), 'dropped STEP + STL pair to its first heat map', async (target, r) => {
    const app = await openContext(browser, target.url);
    await app.open('?nodemo');
    await app.dropFiles(files);
    await app.page.getByTestId('deviation.compare').click({ timeout: 180_000 });
    const clicked = await app.now();
    await waitFor(app.page, async () => (await frames(app.page)).heatDrawn, 'the pair heat map');
    const view = await workerView(app.page);
    const log = await frames(app.page);
    const dropped = log.dropped!;
    const figures = { compareClickedMs: round(clicked - dropped, 0), ...split(view, log, { from: 'part', to: 'scan' }, dropped) };
    console.log(`dropped pair, round ${r}, ${target.name}: drop to first heat map ${figures.firstHeatMapMs} ms\n${timeline(view, dropped)}`);
    await app.page.context().close();
    return figures;
  });
});

test('worker replacement (Cancel, crash) to kernel ready and scene restored', async ({ browser }, info) => {
  const all = targets(info.project.use.baseURL);
  const apps = new Map<string, AppPage>();
  for (const target of all) {
    const app = await openContext(browser, target.url);
    await app.open('?demo');
    await waitFor(app.page, async () => (await frames(app.page)).heatDrawn, 'the demo heat map');
    apps.set(target.name, app);
  }
  await alternating(all, 'worker replacement to ready', async (target, r) => {
    const app = apps.get(target.name)!;
    const { generation } = await app.api.engine();
    const killed = await app.now();
    await app.api.killWorker();
    const next = generation + 1;
    const ready = await waitFor(app.page, async () => (await frames(app.page)).kernelReady[next], 'the new worker kernel');
    const restored = await waitFor(app.page, async () => (await frames(app.page)).restored[next], 'the restore');
    const { kernel } = await workerView(app.page);
    const figures: Figures = {
      toKernelReadyMs: round((kernel?.ready ?? ready) - killed, 0),
      toRestoredMs: round(restored - killed, 0),
      kernel: {
        workerStartMs: span(killed, kernel?.start),
        /** ~0 when the page handed the compiled kernel over. */
        downloadAndCompileMs: span(kernel?.start, kernel?.compiled),
        instantiateMs: span(kernel?.compiled, kernel?.instantiated),
        bindingsMs: span(kernel?.instantiated, kernel?.ready),
      },
    };
    console.log(`replacement, round ${r}, ${target.name}: kernel ready ${String(figures.toKernelReadyMs)} ms, restored ${String(figures.toRestoredMs)} ms`);
    return figures;
  });
  for (const app of apps.values()) await app.page.context().close();
});
