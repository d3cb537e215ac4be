import { Worker } from 'node:worker_threads';
import type { KeptBody, LoadRequest, RestoreReport, RunOutcome, SceneSnapshot, ToolArgs, ToolManifest, ToolName, ToolResult } from '../engine';
import { BrepscopeError, isKernelAbort, timerDelay, type ErrorPayload } from '../engine/hostFacts';
import type { Method, Reply, SceneEntry, ThreadMemory, ThreadMessage, ThreadMethods, ThreadSetup } from './engineProtocol';
import { memoryCells, refusedGrowths, wasmBytes } from './wasmMemory';

/**
 * Per call. Measured on the largest jobs of test-data and the benchmarks (docs/hosts.md): the
 * slowest took under 20 s on a loaded 2-core machine, so a real file should not meet this.
 */
export const DEFAULT_DEADLINE_MS = 10 * 60_000;
/**
 * The ceiling of the kernel's WebAssembly memory (at most 4 GiB anyway) unless one is given. The
 * largest real jobs stay under 0.5 GiB of it (docs/hosts.md).
 */
export const DEFAULT_MAX_MEMORY_MB = 3072;
/** A cancelled call that does not stop by itself within this time (busy inside a kernel call) takes the engine down with it. */
export const CANCEL_GRACE_MS = 2000;
/**
 * The engine thread's start (tsx compiling the engine) and the kernel's (compiling 55 MB of
 * WebAssembly) are not a call's work and are not counted against its deadline; each gets at least
 * this long (10 to 30 s measured on a loaded 2-core machine), and the deadline if it is longer.
 */
export const STARTUP_LIMIT_MS = 180_000;
/** Every deadline timer is set through `after` (timerDelay: `--deadline 3000000` was a TIMEOUT before the engine started). */
const after = (fn: () => void, ms: number): NodeJS.Timeout => setTimeout(fn, timerDelay(ms));
/** A scene that fails to load back this many times in a row is dropped. */
const MAX_RESTORE_ATTEMPTS = 2;

/**
 * The engine thread's V8 heap limit for a given memory ceiling: the ceiling itself, but never under
 * 1 GiB, since the kernel's bindings alone hold about 0.4 GiB of JavaScript heap once it is loaded.
 * Without a ceiling given, the thread has V8's own limit (as the main thread has).
 */
export function jsHeapLimitMb(maxMemoryMb: number): number {
  return Math.max(maxMemoryMb, 1024);
}

/**
 * The module a new engine thread starts from (bin/brepscope.js starts the first one itself, early):
 * from the sources, a plain-JS entry that registers tsx (a worker does not inherit the loader); in
 * the dist-cli bundle (scripts/buildCli.mjs), the bundled engine thread beside this chunk.
 */
export const ENGINE_THREAD_ENTRY = import.meta.url.endsWith('.ts') ? new URL('./engineThread.boot.js', import.meta.url) : new URL('./engineThread.mjs', import.meta.url);

export interface EngineLimits {
  /**
   * Wall-clock limit of one call, from the moment it starts in the engine, or from the moment the
   * kernel is ready if the call had to wait for it to load. Default DEFAULT_DEADLINE_MS.
   */
  deadlineMs?: number | undefined;
  /**
   * Ceiling, in MiB, of the kernel's WebAssembly memory, and of the engine thread's V8 heap
   * (jsHeapLimitMb). Default: DEFAULT_MAX_MEMORY_MB for the kernel, V8's own limit for the heap.
   */
  maxMemoryMb?: number | undefined;
}

export interface EngineHostOptions extends EngineLimits {
  /**
   * An engine thread already started from ENGINE_THREAD_ENTRY without resource limits (so that it
   * loads while the caller loads its own modules); used when no maxMemoryMb is given, else ended.
   */
  thread?: Worker | undefined;
  /** Keep every body's file so that a replaced engine gets the scene back (default true; a one-shot CLI needs none). */
  keepScene?: boolean;
  /** Confine every read and write to these directories (absolute, links resolved: rootDirs); default: no confinement. */
  roots?: readonly string[] | undefined;
  /** Told when the engine was replaced and how the scene came back. */
  onRestart?: (event: RestartEvent) => void;
  /** Adds abortKernelForTest / crashForTest (tests only). */
  testHooks?: boolean;
}

export interface CallOptions {
  /** This call's limit instead of the host's. */
  deadlineMs?: number | undefined;
  /** How a TIMEOUT message names the limit (default: its length, e.g. "the 600 s deadline"). */
  deadlineLabel?: string | undefined;
  /** Aborting it cancels the call (CANCELLED); a call busy in the kernel is stopped with its engine after CANCEL_GRACE_MS. */
  signal?: AbortSignal | undefined;
  progress?: ((fraction: number, message?: string) => void) | undefined;
  /**
   * A batch job's owner key (`<batch key>/<job id>`): every file the call writes is claimed for that
   * job, replaced by its later attempts and never by another job (src/node/ownedFiles.ts).
   */
  owner?: string | undefined;
}

export interface RestartEvent {
  /** Why the engine was replaced: the code of the failure that took it down. */
  reason: ErrorPayload;
  /** How the kept bodies came back (empty when nothing was kept). */
  report: RestoreReport;
}

export interface EngineMemory {
  /** The kernel's WebAssembly heap as the watch last saw it (readable while the engine is busy). */
  wasmBytes: number;
  /** Bodies whose files the host keeps for a restore, and their total size. */
  keptBodies: number;
  keptBytes: number;
}

/** Why a call ended without an answer: the engine thread was stopped (deadline, memory, crash, cancel). */
class ThreadLost extends BrepscopeError {
  payload(): ErrorPayload {
    return { code: this.code, message: this.message };
  }
}

interface Pending {
  resolve: (reply: Extract<Reply, { outcome: unknown }>) => void;
  reject: (error: ThreadLost) => void;
  progress?: ((fraction: number, message?: string) => void) | undefined;
}

/** One worker thread running one engine; stopped for good on the first failure that ends it. */
class EngineThread {
  readonly cells: Int32Array;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private lost: ThreadLost | undefined;
  /** Settles when the thread has loaded its modules and listens (rejected if it is lost first). */
  readonly booted: Promise<void>;
  private boot!: { resolve: () => void; reject: (reason: ThreadLost) => void };
  /** Told when the kernel starts loading in this thread and when it is ready (a call's deadline waits for it). */
  onKernel: ((state: 'loading' | 'ready', loadMs: number) => void) | undefined;
  readonly exited: Promise<void>;

  constructor(
    maxMemoryMb: number | undefined,
    roots: readonly string[] | undefined,
    testHooks: boolean,
    /** Told once, when the thread ends for any reason. */
    private readonly onLost: (reason: ThreadLost) => void,
    started?: Worker,
  ) {
    this.cells = memoryCells((maxMemoryMb ?? DEFAULT_MAX_MEMORY_MB) * 2 ** 20);
    this.booted = new Promise((resolve, reject) => (this.boot = { resolve, reject }));
    this.booted.catch(() => undefined);
    this.worker =
      started ??
      new Worker(ENGINE_THREAD_ENTRY, {
        name: 'brepscope-engine',
        ...(maxMemoryMb === undefined ? {} : { resourceLimits: { maxOldGenerationSizeMb: jsHeapLimitMb(maxMemoryMb) } }),
        // The thread's console goes to the process's stderr: stdout carries results or protocol messages only.
        stdout: true,
      });
    const setup: ThreadSetup = { cells: this.cells, roots: roots ? [...roots] : null, testHooks };
    this.worker.postMessage({ setup } satisfies ThreadMessage);
    this.worker.stdout.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    this.worker.on('message', (reply: Reply) => this.receive(reply));
    this.worker.on('error', (e: Error & { code?: string }) => {
      const heap = maxMemoryMb === undefined ? "V8's heap limit" : `the ${jsHeapLimitMb(maxMemoryMb)} MiB ceiling (--max-memory)`;
      this.stop(
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ThreadLost('OUT_OF_MEMORY', `the engine ran out of memory: its JavaScript heap reached ${heap}; the engine was stopped`)
          : new ThreadLost('ENGINE_CRASHED', `the engine thread failed: ${e.message}`),
      );
    });
    this.exited = new Promise((done) =>
      this.worker.once('exit', (code) => {
        this.stop(new ThreadLost('ENGINE_CRASHED', `the engine thread exited (code ${code})`));
        done();
      }),
    );
  }

  get alive(): boolean {
    return this.lost === undefined;
  }

  request<M extends Method>(
    method: M,
    params: Parameters<ThreadMethods[M]>,
    progress?: (fraction: number, message?: string) => void,
    transfer: ArrayBuffer[] = [],
  ): { id: number; reply: Promise<Extract<Reply, { outcome: unknown }>> } {
    const id = ++this.nextId;
    const reply = new Promise<Extract<Reply, { outcome: unknown }>>((resolve, reject) => {
      if (this.lost) return reject(this.lost);
      // Node drops a message whose transfer list holds a detached buffer without a word (the call
      // would then wait forever); a detached view in the message itself throws DataCloneError.
      if (transfer.some((b) => b.byteLength === 0)) {
        return reject(new BrepscopeError('INTERNAL_ERROR', `engine ${method}: a buffer given to the engine was already moved to it (detached)`));
      }
      const message: ThreadMessage = { id, method, params, progress: progress !== undefined } as ThreadMessage;
      try {
        this.worker.postMessage(message, transfer);
      } catch (e) {
        return reject(new BrepscopeError('INTERNAL_ERROR', `engine ${method}: the request could not be sent (${e instanceof Error ? e.message : String(e)})`));
      }
      this.pending.set(id, { resolve, reject, progress });
    });
    return { id, reply };
  }

  cancel(id: number): void {
    if (this.alive) this.worker.postMessage({ cancel: id } satisfies ThreadMessage);
  }

  /** Ends the thread; every call waiting on it fails with `reason`. The first reason wins. */
  stop(reason: ThreadLost): void {
    if (this.lost) return;
    this.lost = reason;
    this.boot.reject(reason);
    for (const p of this.pending.values()) p.reject(reason);
    this.pending.clear();
    void this.worker.terminate();
    this.onLost(reason);
  }

  private receive(reply: Reply): void {
    if ('booted' in reply) {
      this.boot.resolve();
      return;
    }
    if ('kernel' in reply) {
      this.onKernel?.(reply.kernel, reply.loadMs ?? 0);
      return;
    }
    const p = this.pending.get(reply.id);
    if (!p) return;
    if ('progress' in reply) {
      p.progress?.(reply.progress[0], reply.progress[1]);
      return;
    }
    this.pending.delete(reply.id);
    p.resolve(reply);
  }
}

interface KeptEntry {
  stamp: number;
  body: KeptBody;
}

/**
 * An engine the host can stop: it runs in a worker thread with a deadline per call and a memory
 * ceiling, and is replaced (its scene loaded back from the files the host keeps) after a timeout,
 * an out-of-memory stop, a crash or a kernel abort, so the next call works. Calls run one at a time
 * in arrival order, as they would on one engine. The CLI, the MCP server and job runners use it.
 */
export class EngineHost {
  private thread: EngineThread;
  private readonly deadlineMs: number;
  private readonly maxMemoryMb: number | undefined;
  private readonly keepScene: boolean;
  private roots: readonly string[] | undefined;
  private readonly kept = new Map<string, KeptEntry>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Settles when a replaced engine has its scene back. */
  private restoring: Promise<void> = Promise.resolve();
  private restoreAttempts = 0;
  /** Bodies dropped because the scene failed to load back MAX_RESTORE_ATTEMPTS times, for the next restart event. */
  private lostOnRestore: RestoreReport['failed'] = [];
  private manifests: Promise<ToolManifest[]> | undefined;
  private disposed = false;
  /** How many engines this host has started (1 until the first replacement). */
  generation = 1;
  /** Time calls waited for engine threads and kernels to start, summed over this host's engines (not counted against deadlines). */
  startupMs = 0;

  private constructor(private readonly options: EngineHostOptions) {
    this.deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.maxMemoryMb = options.maxMemoryMb;
    this.keepScene = options.keepScene ?? true;
    this.roots = options.roots;
    // A thread started without limits serves only a host without a memory ceiling of its own.
    const started = options.thread && this.maxMemoryMb === undefined ? options.thread : undefined;
    if (options.thread && !started) void options.thread.terminate();
    this.thread = this.spawn(started);
  }

  /** Starts the engine thread at once (its modules load while the caller does its own work); the kernel loads on first use. */
  static start(options: EngineHostOptions = {}): EngineHost {
    return new EngineHost(options);
  }

  /** Runs a tool; its result and written files, or a BrepscopeError with the engine's code (or TIMEOUT, OUT_OF_MEMORY, ENGINE_CRASHED, CANCELLED). */
  run<N extends ToolName>(name: N, args: NoInfer<ToolArgs<N>>, options?: CallOptions): Promise<RunOutcome<ToolResult<N>>>;
  run(name: string, args: unknown, options?: CallOptions): Promise<RunOutcome<unknown>> {
    return this.call('run', [name, args, options?.owner ?? null], options, name) as Promise<RunOutcome<unknown>>;
  }

  /** `run` for a tool name and arguments known at run time (JSON from a command line or an MCP client). */
  runJson<N extends ToolName>(name: N, args: unknown, options?: CallOptions): Promise<RunOutcome<ToolResult<N>>>;
  runJson(name: string, args: unknown, options?: CallOptions): Promise<RunOutcome<unknown>>;
  runJson(name: string, args: unknown, options?: CallOptions): Promise<RunOutcome<unknown>> {
    return this.call('run', [name, args, options?.owner ?? null], options, name) as Promise<RunOutcome<unknown>>;
  }

  /**
   * Loads a file as a body without describing it (Engine.load); resolves with its bodyId. The
   * request's bytes and parsed mesh move to the engine thread (the caller must not use them after).
   */
  load(request: LoadRequest, options?: CallOptions): Promise<string> {
    const views = [request.bytes, request.stlMesh?.positions, request.stlMesh?.indices];
    // Only whole, unshared buffers can move; any other is copied.
    const transfer = [...new Set(views.flatMap((v) => (v && v.buffer instanceof ArrayBuffer && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength ? [v.buffer] : [])))];
    return this.call('load', [request], options, `loading ${request.path}`, transfer) as Promise<string>;
  }

  validate(name: string, args: unknown): Promise<void> {
    return this.call('validate', [name, args], {}, 'validate') as Promise<void>;
  }

  /**
   * Every tool's manifest, asked of the engine once: a server that asks at its start is answered
   * before any call, so a later tools/list never waits behind a running call.
   */
  tools(): Promise<ToolManifest[]> {
    this.manifests ??= (this.call('tools', [], {}, 'tools') as Promise<ToolManifest[]>).catch((e: unknown) => {
      this.manifests = undefined;
      throw e;
    });
    return this.manifests;
  }

  /** Empties the scene and forgets the kept files (a batch job's fresh start); the kernel stays loaded. */
  async clear(): Promise<void> {
    await this.call('clear', [], {}, 'clear');
    this.kept.clear();
  }

  /** Changes the directories reads and writes are confined to (a host started with roots only). */
  async setRoots(roots: readonly string[]): Promise<void> {
    if (!this.roots) throw new Error('EngineHost: setRoots on a host started without roots');
    this.roots = roots;
    await this.call('setRoots', [[...roots]], {}, 'setRoots');
  }

  /** The kernel heap and the kept files, read without waiting for a running call. */
  memory(): EngineMemory {
    let keptBytes = 0;
    for (const { body } of this.kept.values()) keptBytes += body.bytes?.byteLength ?? 0;
    return { wasmBytes: wasmBytes(this.thread.cells), keptBodies: this.kept.size, keptBytes };
  }

  /** The engine thread's own figures (waits its turn behind running calls). */
  threadMemory(): Promise<ThreadMemory> {
    return this.call('memory', [], {}, 'memory') as Promise<ThreadMemory>;
  }

  /** Replaces the engine now and loads the scene back into the new one; resolves when it is back. */
  async restart(reason: ErrorPayload = { code: 'CANCELLED', message: 'restarted by the host' }): Promise<void> {
    await this.serial(async () => {
      this.thread.stop(new ThreadLost(reason.code, reason.message));
      await this.restored();
    });
  }

  /** Stops the engine thread; calls still waiting fail with CANCELLED. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.thread.stop(new ThreadLost('CANCELLED', 'the engine host was disposed'));
    await this.thread.exited;
  }

  /** Test hooks (a host started with testHooks): a real trap in the kernel, an uncaught error in the thread. */
  readonly testHooks = {
    abortKernel: (): Promise<void> => this.call('abortKernelForTest', [], {}, 'abortKernelForTest') as Promise<void>,
    crash: (): Promise<void> => this.call('crashForTest', [], {}, 'crashForTest') as Promise<void>,
  };

  private spawn(started?: Worker): EngineThread {
    const thread: EngineThread = new EngineThread(this.maxMemoryMb, this.roots, this.options.testHooks ?? false, (reason) => this.replace(thread, reason.payload()), started);
    return thread;
  }

  /** What a message adds about the engine after a stop: a host that keeps the scene loads it into a new one. */
  private get replacedNote(): string {
    return this.keepScene ? '; the engine was replaced and the scene is loaded back into the new one' : '';
  }

  private get ceilingMb(): number {
    return this.maxMemoryMb ?? DEFAULT_MAX_MEMORY_MB;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private call<M extends Method>(method: M, params: Parameters<ThreadMethods[M]>, options: CallOptions = {}, what: string, transfer: ArrayBuffer[] = []): Promise<unknown> {
    return this.serial(async () => {
      if (this.disposed) throw new BrepscopeError('CANCELLED', 'the engine host was disposed');
      options.signal?.throwIfAborted();
      await this.restored();
      const thread = this.thread;
      const deadlineMs = options.deadlineMs ?? this.deadlineMs;
      await this.started(thread, deadlineMs);
      const refused = refusedGrowths(thread.cells);
      const { id, reply } = thread.request(method, params, options.progress, transfer);
      // Every stop below ends the thread; its onLost starts the next engine.
      const deadline = options.deadlineLabel ?? `the ${formatSeconds(deadlineMs)} deadline`;
      let kernelStart = '';
      const expire = (): void => thread.stop(new ThreadLost('TIMEOUT', `${what}: stopped at ${deadline} (--deadline)${kernelStart}${this.replacedNote}`));
      let timer = after(expire, deadlineMs);
      // The kernel's start (seconds, more on a loaded machine; again in every new engine) is not the
      // call's work: the call gets its whole deadline from the moment the kernel is ready.
      thread.onKernel = (state, loadMs) =>
        this.holdDeadline(thread, state, loadMs, deadlineMs, (next, ms = deadlineMs) => {
          clearTimeout(timer);
          if (state === 'ready') kernelStart = ` (counted from the kernel's start, which took ${formatSeconds(loadMs)})`;
          timer = after(next ?? expire, ms);
        });
      let graceTimer: NodeJS.Timeout | undefined;
      const onAbort = (): void => {
        thread.cancel(id);
        graceTimer = setTimeout(() => thread.stop(new ThreadLost('CANCELLED', `${what}: cancelled by the caller; the engine did not stop within ${CANCEL_GRACE_MS} ms and was stopped${this.replacedNote}`)), CANCEL_GRACE_MS);
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      let answer: Extract<Reply, { outcome: unknown }>;
      try {
        answer = await reply;
      } finally {
        clearTimeout(timer);
        thread.onKernel = undefined;
        clearTimeout(graceTimer);
        options.signal?.removeEventListener('abort', onAbort);
      }
      // A refused growth may have been caught and turned into a plausible result: nothing computed
      // short of memory is trusted.
      if (refusedGrowths(thread.cells) > refused) {
        const error = new ThreadLost('OUT_OF_MEMORY', `${what}: the engine ran out of memory: the kernel's heap reached the ${this.ceilingMb} MiB ceiling (--max-memory)${this.replacedNote}`);
        thread.stop(error);
        throw error;
      }
      const { outcome } = answer;
      if (!outcome.ok && isKernelAbort(outcome.error)) thread.stop(new ThreadLost(outcome.error.code, outcome.error.message));
      else if (this.keepScene) await this.keep(thread, answer.scene);
      if (!outcome.ok) throw new BrepscopeError(outcome.error.code, outcome.error.message, outcome.error.details);
      return outcome.value;
    });
  }

  /** Waits until the current engine has its scene back (a restore that fails starts another engine and restore). */
  private async restored(): Promise<void> {
    for (let restoring = this.restoring; ; restoring = this.restoring) {
      await restoring;
      if (restoring === this.restoring) return;
    }
  }

  /** Brings the kept files in line with the engine's scene: removed bodies go, new ones are fetched once. */
  private async keep(thread: EngineThread, scene: SceneEntry[]): Promise<void> {
    const stamps = new Map(scene.map((e) => [e.bodyId, e.stamp]));
    for (const [bodyId, entry] of this.kept) if (stamps.get(bodyId) !== entry.stamp) this.kept.delete(bodyId);
    const missing = scene.filter((e) => !this.kept.has(e.bodyId)).map((e) => e.bodyId);
    if (missing.length === 0) return;
    let answer;
    try {
      answer = await thread.request('kept', [missing]).reply;
    } catch (e) {
      // The engine went down right after answering: the answer stands, the new body is lost with the engine.
      if (e instanceof ThreadLost) return;
      throw e;
    }
    if (!answer.outcome.ok) throw new BrepscopeError(answer.outcome.error.code, answer.outcome.error.message);
    for (const body of answer.outcome.value as KeptBody[]) this.kept.set(body.bodyId, { stamp: stamps.get(body.bodyId)!, body });
  }

  /** A thread ended: if it was the current one, start another and load the kept scene into it. */
  private replace(lost: EngineThread, reason: ErrorPayload): void {
    if (lost !== this.thread || this.disposed) return;
    this.generation++;
    const thread = (this.thread = this.spawn());
    const failed = this.lostOnRestore;
    this.lostOnRestore = [];
    const bodies = [...this.kept.values()].map(({ body }) => ({ ...body, bytes: body.bytes?.slice() }));
    this.restoring = bodies.length === 0 ? Promise.resolve(this.restarted(reason, { restored: [], failed })) : this.restoreInto(thread, { bodies }, reason);
  }

  /** Loads the kept scene into a new engine; a restore that fails ends that engine too (replace starts another). */
  private async restoreInto(thread: EngineThread, snapshot: SceneSnapshot, reason: ErrorPayload): Promise<void> {
    const expire = (): void => thread.stop(new ThreadLost('TIMEOUT', `restoring the scene: stopped at the ${formatSeconds(this.deadlineMs)} deadline (--deadline)`));
    let timer: NodeJS.Timeout | undefined;
    thread.onKernel = (state, loadMs) =>
      this.holdDeadline(thread, state, loadMs, this.deadlineMs, (next, ms = this.deadlineMs) => {
        clearTimeout(timer);
        timer = after(next ?? expire, ms);
      });
    try {
      await this.started(thread, this.deadlineMs);
      timer = after(expire, this.deadlineMs);
      const answer = await thread.request('restore', [snapshot]).reply;
      if (refusedGrowths(thread.cells) > 0) throw new ThreadLost('OUT_OF_MEMORY', `restoring the scene took the kernel's heap past the ${this.ceilingMb} MiB ceiling`);
      if (!answer.outcome.ok) throw new ThreadLost(answer.outcome.error.code, answer.outcome.error.message);
      const report = answer.outcome.value as RestoreReport;
      const stamps = new Map(answer.scene.map((e) => [e.bodyId, e.stamp]));
      for (const [bodyId, entry] of this.kept) {
        const stamp = stamps.get(bodyId);
        if (stamp === undefined) this.kept.delete(bodyId);
        else entry.stamp = stamp;
      }
      this.restoreAttempts = 0;
      this.restarted(reason, report);
    } catch (e) {
      const error = e instanceof ThreadLost ? e : new ThreadLost('ENGINE_CRASHED', String(e));
      if (++this.restoreAttempts >= MAX_RESTORE_ATTEMPTS) {
        // The scene itself takes every engine down: the next engine starts without it.
        this.lostOnRestore = [...this.kept.keys()].map((bodyId) => ({ bodyId, error: error.payload() }));
        this.kept.clear();
        this.restoreAttempts = 0;
      }
      thread.stop(error);
    } finally {
      clearTimeout(timer);
      thread.onKernel = undefined;
    }
  }

  /**
   * Waits for a new thread to load its modules (seconds under load: tsx compiles the engine) before a
   * call's clock starts; a thread that never gets there is stopped after `limitMs`.
   */
  private async started(thread: EngineThread, deadlineMs: number): Promise<void> {
    const limitMs = Math.max(deadlineMs, STARTUP_LIMIT_MS);
    const timer = after(() => thread.stop(new ThreadLost('TIMEOUT', `the engine thread did not start within ${formatSeconds(limitMs)}${this.replacedNote}`)), limitMs);
    const t0 = performance.now();
    try {
      await thread.booted;
    } finally {
      clearTimeout(timer);
      this.startupMs += performance.now() - t0;
    }
  }

  /**
   * A call's clock around the kernel's start: while the kernel loads, a limit of its own
   * (STARTUP_LIMIT_MS or the deadline: a start that never ends still ends the engine); once it is
   * ready, the call's deadline again, in full. `restart(next, ms)` replaces the running timer.
   */
  private holdDeadline(thread: EngineThread, state: 'loading' | 'ready', loadMs: number, deadlineMs: number, restart: (next?: () => void, ms?: number) => void): void {
    if (state === 'ready') {
      this.startupMs += loadMs;
      restart();
      return;
    }
    const limitMs = Math.max(deadlineMs, STARTUP_LIMIT_MS);
    restart(() => thread.stop(new ThreadLost('TIMEOUT', `the kernel did not start within ${formatSeconds(limitMs)}${this.replacedNote}`)), limitMs);
  }

  private restarted(reason: ErrorPayload, report: RestoreReport): void {
    this.options.onRestart?.({ reason, report });
  }
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
