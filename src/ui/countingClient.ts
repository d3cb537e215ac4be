import type { EngineClient } from '../workers/client';

/** One call the page made to the engine worker: the method and, for tool runs, the tool. */
export interface EngineCallRecord {
  method: string;
  tool?: string;
}

/** Wraps a client so every method call is recorded in `calls` (tool runs with their tool's name): for tests. */
export function countingClient(client: EngineClient, calls: EngineCallRecord[]): EngineClient {
  return new Proxy(client, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string' || key === 'onCrash' || key === 'terminate') return value;
      return (...args: unknown[]) => {
        const tool = key === 'run' || key === 'runJson' ? args[0] : undefined;
        calls.push(typeof tool === 'string' ? { method: key, tool } : { method: key });
        return Reflect.apply(value, target, args);
      };
    },
  });
}
