import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { memoryFiles, type Engine, type EngineTrace, type ErrorPayload } from '../engine';
import { createNodeEngine } from '../node/nodeEngine';
import { countingClient, type EngineCallRecord } from '../ui/countingClient';
import type { Session } from '../ui/session';
import { startApp, stopApp } from '../ui/start';
import type { EngineClient } from '../workers/client';
import { createInProcessClient } from '../workers/inProcessClient';

/** The built-in demo's files (public/demo), as the page downloads them. */
export function demoFile(name: 'part.brep' | 'scan.stl'): Uint8Array<ArrayBuffer> {
  const buf = readFileSync(fileURLToPath(new URL(`../../public/demo/${name}`, import.meta.url)));
  return new Uint8Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
}

export interface TestPage {
  session: Session;
  /** Every call the page made to an engine client, in order (tool runs with their tool). */
  calls: EngineCallRecord[];
  /** Costly work the engines did (deviations actually computed), in order. */
  traces: EngineTrace[];
  /** Each engine the session started (a replaced worker starts another). */
  engines: Engine[];
  /** Tool names whose next run answers KERNEL_ABORTED, as a WASM trap would (once each). */
  abortNext: Set<string>;
}

/**
 * The page's state and actions running against real engines in this process: the session's
 * "worker" is an in-process client (the same guarded engine the worker exposes), counted.
 */
export function startTestPage(): TestPage {
  const page: Omit<TestPage, 'session'> = { calls: [], traces: [], engines: [], abortNext: new Set() };
  const createClient = (): EngineClient => {
    // Files in memory, as the browser worker has them: the page's writes (sections, graph exports) never reach the disk.
    const engine = createNodeEngine({ trace: (e) => page.traces.push(e), files: memoryFiles() });
    page.engines.push(engine);
    return countingClient(aborting(createInProcessClient(engine), page.abortNext), page.calls);
  };
  return { ...page, session: startApp(createClient) };
}

export function stopTestPage(): void {
  stopApp();
}

const aborted: ErrorPayload = { code: 'KERNEL_ABORTED', message: 'kernel aborted: RuntimeError: unreachable (simulated by a test)' };

/** A client whose runs of the named tools fail once with KERNEL_ABORTED. */
function aborting(client: EngineClient, tools: Set<string>): EngineClient {
  const fail = (name: string) => tools.delete(name);
  return {
    ...client,
    run: ((name: string, args: unknown, onProgress?: (f: number) => void) =>
      fail(name) ? Promise.resolve({ ok: false, error: aborted }) : client.runJson(name, args, onProgress)) as EngineClient['run'],
    runJson: ((name: string, args: unknown, onProgress?: (f: number) => void) =>
      fail(name) ? Promise.resolve({ ok: false, error: aborted }) : client.runJson(name, args, onProgress)) as EngineClient['runJson'],
  };
}

/** Polls `check` until it returns a value that is not undefined/false, or fails after `timeoutMs`. */
export async function until<T>(check: () => T | undefined | false | null, timeoutMs = 60_000, what = 'condition'): Promise<T> {
  const t0 = performance.now();
  for (;;) {
    const v = check();
    if (v !== undefined && v !== false && v !== null) return v;
    if (performance.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** What the page needs from a browser that Node lacks (requestAnimationFrame, a base URI). */
export function browserGlobals(): void {
  const g = globalThis as unknown as Record<string, unknown>;
  g.requestAnimationFrame ??= (cb: (t: number) => void) => setTimeout(() => cb(performance.now()), 0);
  g.cancelAnimationFrame ??= (id: ReturnType<typeof setTimeout>) => clearTimeout(id);
  g.document ??= { baseURI: 'http://brepscope.test/app/' };
}
