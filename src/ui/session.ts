import { isKernelAbort, type KeptBody, type KeptPlacement, type RunOutcome, type ToolArgs, type ToolName, type ToolResult } from '../engine';
import type { EngineClient, FileData, Progress } from '../workers/client';
import { engineStore, kernelStore, takeKey, type ShownError, type UiOutcome } from './stores';

/**
 * The engine session: one worker at a time, and everything needed to rebuild its scene. The page
 * keeps every loaded file (its bytes, or the dropped File), so a worker that is cancelled (terminated), crashes or whose
 * kernel aborts is replaced by a new one that restores the kept bodies with the same bodyIds.
 */

/** A body's file as the page keeps it for a restore (the engine's KeptBody plus where it came from). */
export interface KeptFile extends Omit<KeptBody, 'bytes'> {
  /** The bytes (a download), or the dropped File itself: a Blob is immutable, goes to a new worker as a handle and is read there. */
  bytes: FileData;
  sourceUrl?: string;
  /** The file's own name (the worker may know it by another: `path`, e.g. `2/part.step`). */
  fileName?: string;
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

/** What the session tells the page (wired at start-up, src/ui/start.ts). */
export interface SessionEvents {
  /** Bodies that could not be restored: the page drops them from its list. */
  bodiesLost(bodyIds: string[], error: ShownError): void;
  /** A new worker has the scene back (the page may re-request what it lost). */
  restored(): void;
}

interface Generation {
  client: EngineClient;
  /** Rejects with WorkerLost when this worker is replaced; every call races against it. */
  dead: Promise<never>;
  kill(reason: WorkerLost): void;
  alive: boolean;
}

/** A scene that crashes every worker it is loaded into is dropped after this many tries. */
const MAX_CRASHES_WHILE_RESTORING = 3;

export class Session {
  private current: Generation | undefined;
  private restoring: Promise<void> = Promise.resolve();
  private crashesWhileRestoring = 0;
  private readonly kept: KeptFile[] = [];
  private readonly reservedNames = new Set<string>();
  /** Ids given out to imports still in flight, so two files named alike get box and box_2. */
  private readonly reservedIds = new Set<string>();

  constructor(
    private readonly createClient: () => EngineClient,
    private readonly events: SessionEvents,
  ) {}

  /** Starts the worker and with it the kernel download (mesh work never waits for it). */
  start(): void {
    this.generation();
  }

  /** Calls the worker once the scene is in place; rejects with WorkerLost when the worker goes first. */
  async call<T>(fn: (client: EngineClient) => Promise<T>): Promise<T> {
    await this.restoring;
    const gen = this.generation();
    return Promise.race([fn(gen.client), gen.dead]);
  }

  /** A tool run; a lost worker is an error outcome, and a kernel abort replaces the worker. */
  run<N extends ToolName>(name: N, args: NoInfer<ToolArgs<N>>, onProgress?: Progress): Promise<UiOutcome<RunOutcome<ToolResult<N>>>> {
    return this.settle(name, (c) => c.run(name, args, onProgress));
  }

  /** `run` with arguments typed at run time (a form, a share link); the engine's schema checks them. */
  runJson<N extends ToolName>(name: N, args: unknown, onProgress?: Progress): Promise<UiOutcome<RunOutcome<ToolResult<N>>>> {
    return this.settle(name, (c) => c.runJson(name, args, onProgress));
  }

  /** Checks a tool's name and arguments against its schema in the engine; nothing runs. */
  validate(name: string, args: unknown): Promise<UiOutcome<void>> {
    return this.settle(name, (c) => c.validate(name, args));
  }

  private async settle<T>(tool: string, fn: (client: EngineClient) => Promise<UiOutcome<T>>): Promise<UiOutcome<T>> {
    let outcome: UiOutcome<T>;
    try {
      outcome = await this.call(fn);
    } catch (e) {
      return { ok: false, error: lostError(e) };
    }
    if (!outcome.ok && isKernelAbort(outcome.error)) this.replaceWorker(new WorkerLost('WORKER_CRASHED', `the CAD kernel aborted in ${tool}`));
    return outcome;
  }

  /**
   * Terminates the worker, fails everything waiting on it with `reason`, starts a new one and loads
   * the kept files back into it.
   */
  replaceWorker(reason: WorkerLost): void {
    const old = this.current;
    if (old) {
      old.alive = false;
      old.client.terminate();
      old.kill(reason);
    }
    if (reason.code === 'WORKER_CRASHED' && engineStore.getState().restoring && ++this.crashesWhileRestoring >= MAX_CRASHES_WHILE_RESTORING) {
      const ids = this.kept.map((f) => f.bodyId);
      this.kept.length = 0;
      this.crashesWhileRestoring = 0;
      this.events.bodiesLost(ids, { code: reason.code, message: `the scene crashed the engine ${MAX_CRASHES_WHILE_RESTORING} times while being restored; its bodies were removed` });
    }
    kernelStore.setState({ status: 'loading' }, true);
    const gen = this.launch();
    this.current = gen;
    if (reason.code === 'WORKER_CRASHED') {
      addNotice(reason.code, `${reason.message}. A new engine was started; the scene is loaded back into it from the files this page keeps.`);
    }
    engineStore.setState({ restoring: true });
    this.restoring = this.restore(gen).finally(() => {
      if (this.current === gen) engineStore.setState({ restoring: false });
    });
  }

  /** Cancel: the running tool stops with the worker; the scene comes back in a new one. */
  cancelRun(): void {
    this.replaceWorker(new WorkerLost('CANCELLED', 'cancelled by the user'));
  }

  /** Keeps a file for restores, in import order. */
  keep(file: KeptFile): void {
    const at = this.kept.findIndex((f) => f.order > file.order);
    if (at < 0) this.kept.push(file);
    else this.kept.splice(at, 0, file);
  }

  /** A kept body's placement (an applied alignment), so that a restore puts it back where it stood; undefined: as read. */
  setPlacement(bodyId: string, placement: KeptPlacement | undefined): void {
    const file = this.kept.find((f) => f.bodyId === bodyId);
    if (!file) return;
    if (placement) file.placement = placement;
    else delete file.placement;
  }

  forget(bodyIds: readonly string[]): void {
    for (let i = this.kept.length - 1; i >= 0; i--) if (bodyIds.includes(this.kept[i]!.bodyId)) this.kept.splice(i, 1);
  }

  keptFiles(): readonly KeptFile[] {
    return this.kept;
  }

  /**
   * A name for the worker's file table that no other kept file uses: the plain file name, else the
   * same name in a numbered folder (the default bodyId ignores folders).
   */
  reserveWorkerName(fileName: string): string {
    const plain = fileName.replace(/[\\/]/g, '_') || 'file';
    let name = plain;
    for (let i = 2; this.reservedNames.has(name); i++) name = `${i}/${plain}`;
    this.reservedNames.add(name);
    return name;
  }

  /** Reserves the id `choose` picks (told which ids imports in flight hold) until releaseBodyId. */
  reserveBodyId(choose: (taken: (id: string) => boolean) => string): string {
    const id = choose((c) => this.reservedIds.has(c));
    this.reservedIds.add(id);
    return id;
  }

  releaseBodyId(bodyId: string): void {
    this.reservedIds.delete(bodyId);
  }

  /** Ends the session: the worker is terminated and nothing is restored (tests, page teardown). */
  stop(): void {
    const old = this.current;
    this.current = undefined;
    if (old) {
      old.alive = false;
      old.client.terminate();
      old.kill(new WorkerLost('CANCELLED', 'the session was stopped'));
    }
  }

  /** The worker's test hooks (test builds only) and the current client, for the test API. */
  client(): EngineClient {
    return this.generation().client;
  }

  private generation(): Generation {
    this.current ??= this.launch();
    return this.current;
  }

  private launch(): Generation {
    const client = this.createClient();
    let kill!: (reason: WorkerLost) => void;
    const dead = new Promise<never>((_, reject) => (kill = reject));
    dead.catch(() => undefined);
    const gen: Generation = { client, dead, kill, alive: true };
    client.onCrash((reason) => {
      if (gen.alive) this.replaceWorker(new WorkerLost('WORKER_CRASHED', `the engine worker crashed (${reason})`));
    });
    void client
      .subscribeKernelState((state) => {
        if (gen.alive) kernelStore.setState(state, true);
      })
      .catch(() => undefined);
    void client.loadKernel().catch(() => undefined);
    engineStore.setState((s) => ({ generation: s.generation + 1 }));
    return gen;
  }

  private async restore(gen: Generation): Promise<void> {
    // Copies of bytes go to the worker (and are moved there): the page keeps its own for the next
    // restore. A kept File goes as it is (a handle; the worker reads it).
    const snapshot = {
      bodies: this.kept.map(({ bodyId, path, bytes, format, refuseInvalid, unit, placement }) => ({ bodyId, path, bytes: bytes instanceof Uint8Array ? bytes.slice() : bytes, format, refuseInvalid, unit, placement })),
    };
    let outcome;
    try {
      outcome = await Promise.race([gen.client.restore(snapshot), gen.dead]);
    } catch (e) {
      // Replaced while restoring: its successor restores.
      if (e instanceof WorkerLost) return;
      throw e;
    }
    this.crashesWhileRestoring = 0;
    const failed = outcome.ok ? outcome.value.failed : this.kept.map((f) => ({ bodyId: f.bodyId, error: outcome.error }));
    const last = failed[failed.length - 1];
    if (last) {
      const lost = failed.map((f) => f.bodyId);
      this.forget(lost);
      this.events.bodiesLost(lost, { code: last.error.code, message: `could not restore ${lost.join(', ')}: ${last.error.message}` });
    }
    this.events.restored();
  }
}

export function lostError(e: unknown): ShownError {
  if (e instanceof WorkerLost) return { code: e.code, message: e.message };
  return { code: 'INTERNAL_ERROR', message: e instanceof Error ? e.message : String(e) };
}

export function addNotice(code: string, message: string): void {
  const key = takeKey();
  engineStore.setState((s) => ({ notices: [...s.notices, { key, code, message }] }));
}

export function dismissNotice(key: number): void {
  engineStore.setState((s) => ({ notices: s.notices.filter((n) => n.key !== key) }));
}

let active: Session | undefined;

/** Starts the page's session (once, at start-up; tests start one on an in-process engine). */
export function startSession(createClient: () => EngineClient, events: SessionEvents): Session {
  active?.stop();
  active = new Session(createClient, events);
  active.start();
  return active;
}

/** The running session. */
export function session(): Session {
  if (!active) throw new Error('brepscope: the engine session was not started (src/ui/start.ts)');
  return active;
}

export function stopSession(): void {
  active?.stop();
  active = undefined;
}
