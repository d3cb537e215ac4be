import type { Engine } from '../engine';
import type { EngineClient } from './client';
import { guarded } from './guarded';

/**
 * The page's engine client without a worker: the same guarded engine, called in the same thread.
 * For unit tests of the page's state and actions against the real engine (and hosts that need no
 * isolation). `terminate` stops a running tool (CANCELLED at its next check) and frees the scene;
 * it never crashes on its own.
 */
export function createInProcessClient(engine: Engine): EngineClient {
  const stop = new AbortController();
  return {
    ...guarded(engine, { signal: stop.signal }),
    onCrash: () => undefined,
    terminate: () => {
      stop.abort();
      engine.dispose();
    },
  };
}
