import type { Engine, EngineTrace } from '../engine';
import { browserMeshWorkers } from './browserMeshWorkers';
import { currentBrowserSelfCheckThread } from './browserSelfCheck';
import { guarded, type GuardHost, type Progress } from './guarded';

/** What a test build's worker adds to the engine: ways to break it, and counts of the work it did. */
export interface WorkerTestHooks {
  /** An uncaught error inside the worker, as a kernel abort would give; seen through the worker's error event. */
  crashForTest(): Promise<void>;
  /** How many times each kind of costly work ran (EngineTrace), by kind. */
  traceCounts(): Promise<Record<string, number>>;
  /** The engine's mesh workers: how many, whether they share memory, jobs they finished and failed (null: none). */
  meshWorkerStats(): Promise<MeshWorkerStats | null>;
  /**
   * Holds the answer of every later run of `tool` until releaseTool(tool): the run does its work, then
   * waits, so a test sees it running for as long as it needs (a Cancel) without timing it.
   */
  holdTool(tool: string): Promise<void>;
  /** Lets the held runs of `tool` answer, and later runs answer at once. */
  releaseTool(tool: string): Promise<void>;
  /**
   * The next run of `tool` on `bodyId` (its bodyId or fromBodyId) answers KERNEL_ABORTED without
   * running, as a kernel abort in it would: the page's handling of a failed step, its message and
   * its recovery, in a screenshot. The session replaces the worker on it, as on a real abort.
   */
  abortNextRun(tool: string, bodyId: string): Promise<void>;
  /**
   * The self-check worker's next job spins after `afterChecks` checks, as a kernel call that never
   * returns would (browserSelfCheck.ts); false when the engine has no self-check worker.
   */
  hangSelfCheckForTest(afterChecks: number): Promise<boolean>;
}

// A type, not an interface: the page hands it to Playwright, whose serializable types want one.
export type MeshWorkerStats = {
  threads: number;
  shares: boolean;
  parallel: number;
  failed: number;
};

/** One tool run as the worker saw it, on the worker's clock (performance.now()). */
export interface WorkerRunTiming {
  tool: string;
  /** The body the arguments name (bodyId, fromBodyId), if any. */
  bodyId?: string;
  startMs: number;
  endMs?: number;
  /** When each progress message was first reported (a deviation's directions, a heat map). */
  firstProgressMs: Record<string, number>;
}

declare global {
  /** Test builds only: every tool run of this worker, read by the browser benchmark (bench/browser) through Playwright. */
  var __brepscopeRuns: WorkerRunTiming[] | undefined;
}

/** The engine of a test build (vite --mode e2e): guarded(engine) plus the test hooks; tool runs are timed. */
export function testBuildApi(createEngine: (trace: (event: EngineTrace) => void) => Engine, host: GuardHost = {}) {
  const counts: Record<string, number> = {};
  const holds = new Map<string, { released: Promise<void>; release: () => void }>();
  const aborts = new Set<string>();
  const engine = createEngine((event) => {
    counts[event.kind] = (counts[event.kind] ?? 0) + 1;
  });
  const hooks: WorkerTestHooks = {
    async crashForTest() {
      setTimeout(() => {
        throw new Error('brepscope: worker crash requested by a test');
      }, 0);
    },
    async traceCounts() {
      return { ...counts };
    },
    async meshWorkerStats() {
      const w = browserMeshWorkers();
      return w && { threads: w.threads, shares: w.shares, ...w.stats };
    },
    async holdTool(tool) {
      if (holds.has(tool)) return;
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.set(tool, { released, release });
    },
    async releaseTool(tool) {
      holds.get(tool)?.release();
      holds.delete(tool);
    },
    async abortNextRun(tool, bodyId) {
      aborts.add(`${tool} ${bodyId}`);
    },
    async hangSelfCheckForTest(afterChecks) {
      const thread = currentBrowserSelfCheckThread();
      thread?.hangNextJobForTest(afterChecks);
      return thread !== null;
    },
  };
  const api = guarded(engine, host);
  const runs: WorkerRunTiming[] = (globalThis.__brepscopeRuns = []);
  const timed =
    <R>(call: (name: string, args: unknown, onProgress?: Progress) => Promise<R>) =>
    async (name: string, args: unknown, onProgress?: Progress): Promise<R> => {
      const run: WorkerRunTiming = { tool: name, startMs: performance.now(), firstProgressMs: {} };
      const bodyId = namedBody(args);
      if (bodyId) run.bodyId = bodyId;
      if (aborts.delete(`${name} ${bodyId}`)) return { ok: false, error: SIMULATED_ABORT } as R;
      runs.push(run);
      const progress: Progress | undefined =
        onProgress &&
        ((fraction, message) => {
          run.firstProgressMs[message ?? ''] ??= performance.now();
          return onProgress(fraction, message);
        });
      try {
        const answer = await call(name, args, progress);
        await holds.get(name)?.released;
        return answer;
      } finally {
        run.endMs = performance.now();
      }
    };
  return { ...api, run: timed(api.runJson) as typeof api.run, runJson: timed(api.runJson) as typeof api.runJson, ...hooks };
}

const SIMULATED_ABORT = { code: 'KERNEL_ABORTED', message: 'kernel aborted: RuntimeError: unreachable (simulated by a test)' };

function namedBody(args: unknown): string | undefined {
  if (args === null || typeof args !== 'object') return undefined;
  const { bodyId, fromBodyId } = args as { bodyId?: unknown; fromBodyId?: unknown };
  const id = bodyId ?? fromBodyId;
  return typeof id === 'string' ? id : undefined;
}
