import { createEngineClient, type EngineClient, type Outcome } from '../workers/client';
import { engineStore, kernelStore, type ShownError } from './stores';

/**
 * The engine session: one worker at a time, and everything needed to rebuild its scene. The page
 * keeps every loaded file's bytes, so a worker that is cancelled (terminated) or crashes is replaced
 * by a new one that replays the imports in order with the same bodyIds.
 */

/** A file in the scene as the page keeps it for a restore. */
export interface KeptFile {
  /** The name the worker knows the bytes by (import_file's `path`). */
  workerName: string;
  bytes: Uint8Array<ArrayBuffer>;
  tool: 'import_file' | 'read_brep';
  /** The import's other arguments (format, allowInvalid), without path and bodyId. */
  options: Record<string, unknown>;
  bodyId: string;
  sourceUrl?: string;
  /** When the import started: list order (and share links) follow it, not the order imports finish in. */
  order: number;
}

/** Why a call never got its answer: the worker it went to was replaced. */
export class WorkerLost extends Error {
  constructor(
    readonly code: 'CANCELLED' | 'WORKER_CRASHED',
    message: string,
  ) {
    super(message);
    this.name = 'WorkerLost';
  }
}

interface Generation {
  client: EngineClient;
  /** Rejects with WorkerLost when this worker is replaced; every call races against it. */
  dead: Promise<never>;
  kill(reason: WorkerLost): void;
  alive: boolean;
}

let current: Generation | undefined;
let restoring: Promise<void> = Promise.resolve();
let noticeKey = 0;
let crashesWhileRestoring = 0;
const kept: KeptFile[] = [];

/** Told when bodies could not be restored (the page drops them from its list). */
let onBodiesLost: (bodyIds: string[], error: ShownError) => void = () => undefined;
/** Told when a new worker has the scene back (the page may re-request what it lost). */
let onRestored: () => void = () => undefined;

export function setSessionListeners(listeners: { bodiesLost: typeof onBodiesLost; restored: typeof onRestored }): void {
  onBodiesLost = listeners.bodiesLost;
  onRestored = listeners.restored;
}

function start(): Generation {
  const client = createEngineClient();
  let kill!: (reason: WorkerLost) => void;
  const dead = new Promise<never>((_, reject) => (kill = reject));
  dead.catch(() => undefined);
  const gen: Generation = { client, dead, kill, alive: true };
  client.onCrash((reason) => {
    if (gen.alive) replaceWorker(new WorkerLost('WORKER_CRASHED', `the engine worker crashed (${reason})`));
  });
  void client.subscribeKernelStatus((state) => {
    if (gen.alive) kernelStore.setState(state, true);
  });
  engineStore.setState((s) => ({ generation: s.generation + 1 }));
  return gen;
}

function generation(): Generation {
  current ??= start();
  return current;
}

/** Starts the worker (and with it the kernel download) if it is not running yet. */
export function startEngine(): void {
  generation();
}

/**
 * Calls the worker once the scene is in place. Rejects with WorkerLost when the worker is cancelled
 * or crashes before answering.
 */
export async function call<T>(fn: (client: EngineClient) => Promise<T>): Promise<T> {
  await restoring;
  const gen = generation();
  return Promise.race([fn(gen.client), gen.dead]);
}

/** A kernel abort leaves the WASM instance unusable: the worker must go. */
export function isKernelAbort(outcome: Outcome<unknown>): boolean {
  if (outcome.ok) return false;
  // A user's file that aborts the kernel is bad input (FILE_ABORTED_KERNEL), and the kernel is just as gone.
  return outcome.error.code === 'FILE_ABORTED_KERNEL' || (outcome.error.code === 'KERNEL_ERROR' && /abort/i.test(outcome.error.message));
}

export function addNotice(code: string, message: string): void {
  engineStore.setState((s) => ({ notices: [...s.notices, { key: ++noticeKey, code, message }] }));
}

export function dismissNotice(key: number): void {
  engineStore.setState((s) => ({ notices: s.notices.filter((n) => n.key !== key) }));
}

/**
 * Terminates the worker, fails everything waiting on it with `reason`, starts a new one and loads
 * the kept files back into it.
 */
export function replaceWorker(reason: WorkerLost): void {
  const old = current;
  if (old) {
    old.alive = false;
    old.client.terminate();
    old.kill(reason);
  }
  if (reason.code === 'WORKER_CRASHED' && engineStore.getState().restoring && ++crashesWhileRestoring >= 3) {
    // A scene that crashes every worker it is loaded into is dropped rather than retried for ever.
    const ids = kept.map((f) => f.bodyId);
    kept.length = 0;
    crashesWhileRestoring = 0;
    onBodiesLost(ids, { code: reason.code, message: 'the scene crashed the engine 3 times while being restored; its bodies were removed' });
  }
  kernelStore.setState({ status: 'loading' }, true);
  const gen = start();
  current = gen;
  if (reason.code === 'WORKER_CRASHED') {
    addNotice(reason.code, `${reason.message}. A new engine was started; the scene is loaded back into it from the files this page keeps.`);
  }
  engineStore.setState({ restoring: true });
  restoring = restore(gen).finally(() => {
    if (current === gen) engineStore.setState({ restoring: false });
  });
}

/** Cancel: the running tool stops with the worker; the scene comes back in a new one. */
export function cancelRun(): void {
  replaceWorker(new WorkerLost('CANCELLED', 'cancelled by the user'));
}

async function restore(gen: Generation): Promise<void> {
  const lost: string[] = [];
  let lastError: ShownError | undefined;
  try {
    // All at once: mesh files do not wait behind the kernel a BREP needs. The ids are explicit, so
    // the order of completion does not matter.
    await Promise.all(
      [...kept].map(async (file) => {
        const outcome = await Promise.race([
          (async () => {
            await gen.client.putFile(file.workerName, file.bytes.slice());
            return gen.client.runTool(file.tool, { ...file.options, path: file.workerName, bodyId: file.bodyId });
          })(),
          gen.dead,
        ]);
        if (!outcome.ok) {
          lost.push(file.bodyId);
          lastError = outcome.error;
        }
      }),
    );
  } catch (e) {
    // Replaced while restoring: its successor restores.
    if (e instanceof WorkerLost) return;
    throw e;
  }
  crashesWhileRestoring = 0;
  if (lost.length && lastError) {
    forget(lost);
    onBodiesLost(lost, { code: lastError.code, message: `could not restore ${lost.join(', ')}: ${lastError.message}` });
  }
  onRestored();
}

export function keep(file: KeptFile): void {
  const at = kept.findIndex((f) => f.order > file.order);
  if (at < 0) kept.push(file);
  else kept.splice(at, 0, file);
}

export function forget(bodyIds: readonly string[]): void {
  for (let i = kept.length - 1; i >= 0; i--) if (bodyIds.includes(kept[i]!.bodyId)) kept.splice(i, 1);
}

export function keptFiles(): readonly KeptFile[] {
  return kept;
}

const reservedNames = new Set<string>();

/**
 * A name for the worker's file table that no other kept file uses: the plain file name, else the
 * same name in a numbered folder (the default bodyId ignores folders).
 */
export function reserveWorkerName(fileName: string): string {
  const plain = fileName.replace(/[\\/]/g, '_') || 'file';
  let name = plain;
  for (let i = 2; reservedNames.has(name); i++) name = `${i}/${plain}`;
  reservedNames.add(name);
  return name;
}

/** For the e2e tests: terminates the worker the hard way (no event fires) and recovers as from a crash. */
export function killWorkerForTest(): void {
  replaceWorker(new WorkerLost('WORKER_CRASHED', 'the engine worker was terminated'));
}

/** For the e2e tests: an uncaught error inside the worker, detected through the worker's error event. */
export function crashWorkerForTest(): void {
  void generation().client.api.crashForTest();
}
