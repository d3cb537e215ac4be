import type { Engine, EngineTrace } from '../engine';
import { guarded, type GuardHost } from './guarded';

/** What a test build's worker adds to the engine: ways to break it, and counts of the work it did. */
export interface WorkerTestHooks {
  /** An uncaught error inside the worker, as a kernel abort would give; seen through the worker's error event. */
  crashForTest(): Promise<void>;
  /** How many times each kind of costly work ran (EngineTrace), by kind. */
  traceCounts(): Promise<Record<string, number>>;
}

/** The engine of a test build (vite --mode e2e): guarded(engine) plus the test hooks. */
export function testBuildApi(createEngine: (trace: (event: EngineTrace) => void) => Engine, host: GuardHost = {}) {
  const counts: Record<string, number> = {};
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
  };
  return { ...guarded(engine, host), ...hooks };
}
