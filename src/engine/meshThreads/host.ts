/**
 * Mesh worker threads: threads that build the query structures of meshes and measure directions
 * of a deviation beside the engine's own thread (the engine's MeshWorkers seam,
 * ToolContext.meshWorkers; src/engine/deviation/directions.ts), in Node (src/node/meshWorkers.ts:
 * worker_threads) and in the browser (src/workers/browserMeshWorkers.ts: Web Workers beside the
 * engine's worker). The result is the serial runner's, bit for bit: the workers call the same
 * functions on the same arrays (src/node/meshWorkers.test.ts checks it).
 *
 * With two threads (4 or more cores), for a larger mesh B and a smaller s: worker 0 builds B's BVH,
 * then measures s's samples against B; worker 1 samples B, builds s's BVH and samples, hands s's
 * samples to worker 0, then measures B's samples against s. With one thread (2 or 3 cores: the
 * engine's thread is the other busy one), the thread builds B's BVH and measures s's samples
 * against B while the engine's thread does the rest itself (meshSide). Either way B's BVH, the
 * largest single cost, overlaps everything else. Meshes go to the workers once, in shared memory
 * where the platform has it (Node; a cross-origin isolated page), else copied; workers keep what
 * they built for later calls on the same meshes (an MCP session), and drop it when the mesh is
 * collected here. Without shared memory the one-thread plan measures each direction on one thread.
 *
 * A failure rejects the job, and the tool computes it on the calling thread instead (so errors, an
 * EMPTY_MESH surface, are exactly the serial path's). Cancelling terminates the workers; the next
 * job starts fresh ones.
 */
import { BrepscopeError } from '../errors';
import type { TriangleBvh } from '../mesh/TriangleBvh';
import type { SubtreeThreads } from '../mesh/parallelBvh';
import type { TriMesh } from '../mesh/TriMesh';
import type { SurfaceSamples } from '../mesh/sampleSurface';
import type { Directions, DirectionsJob, MeshSide, MeshSideJob, MeshWorkers, SharedDirection } from '../deviation/meshWorkers';
import { sharedOutput, type DirectedDeviation, type SharedOutput } from '../deviation/measure';
import { listen, shareArrays, type FromWorker, type Step, type ThreadPort, type ToWorker } from './protocol';

/** A worker thread as its host sees it. */
export interface HostThread extends ThreadPort {
  terminate(): unknown;
  /** Node: an idle thread must not keep a finished process alive. */
  unref?(): void;
  /** Called when the thread fails or ends (also when ended on purpose, and maybe more than once: the host tells them apart). */
  onFailure(handler: (error: Error) => void): void;
}

/** How a platform starts threads (Node's worker_threads, the browser's Web Workers). */
export interface ThreadPlatform {
  /** `count` threads running runMeshWorker (workerCore.ts). */
  start(count: number): HostThread[];
  /** Two connected ports (a MessageChannel): the two threads' direct line. */
  channel(): { port1: ThreadPort; port2: ThreadPort };
  /** Whether SharedArrayBuffer works here (Node; a cross-origin isolated page). */
  shares: boolean;
}

export interface HostMeshWorkers extends Omit<MeshWorkers, 'meshSide'> {
  meshSide: NonNullable<MeshWorkers['meshSide']>;
  /** Worker threads a job runs on: 2 (the two directions there), or 1 (one mesh's side there, the rest on the calling thread). */
  readonly threads: 1 | 2;
  /** Whether meshes and trees are shared with the threads (else copied to them, and a direction is not split). */
  readonly shares: boolean;
  /** Starts the threads now (they load their code while the caller reads files). */
  warm(): void;
  /** Stops the threads; a later job starts new ones. */
  close(): Promise<void>;
  /**
   * The threads as builders of a BVH's parts (mesh/parallelBvh.ts, buildBvhParallel), while no
   * job runs on them; undefined without shared memory (the parts are built in place).
   */
  readonly subtreeThreads: SubtreeThreads | undefined;
  /** Jobs the threads finished, and jobs they failed (the tool then computed them itself). */
  readonly stats: { parallel: number; failed: number };
}

interface Shared {
  id: number;
  mesh: TriMesh;
}

interface Pending {
  measured: Map<string, DirectedDeviation>;
  /** A mesh side's samples, posted by a worker. */
  onSamples?: (samples: SurfaceSamples) => void;
  /** A shared BVH, posted by a worker (SharedDirection). */
  onBvh?: (bvh: TriangleBvh, normalBounds: Int8Array | null) => void;
  done: number;
  /** Threads that report the job done. */
  parts: number;
  resolve(): void;
  reject(error: Error): void;
}

export function createMeshThreadHost(platform: ThreadPlatform, threadCount: 1 | 2): HostMeshWorkers {
  let threads: HostThread[] | undefined;
  /** Mesh ids each thread holds. */
  let holds: Set<number>[] = [];
  const shared = new WeakMap<TriMesh, Shared>();
  let nextMesh = 1;
  let nextJob = 1;
  const jobs = new Map<number, Pending>();
  const collected = new FinalizationRegistry<number>((id) => {
    for (const [i, t] of (threads ?? []).entries()) {
      if (holds[i]!.delete(id)) t.postMessage({ type: 'drop', ids: [id] } satisfies ToWorker);
    }
  });

  /** BVH parts asked of the threads (subtreeThreads), by job id. */
  const subtreeJobs = new Map<number, { resolve(answer: FromWorker): void; reject(error: Error): void }>();

  const failAll = (error: Error): void => {
    for (const job of jobs.values()) job.reject(error);
    jobs.clear();
    for (const job of subtreeJobs.values()) job.reject(error);
    subtreeJobs.clear();
  };

  /** Cancelling terminates the threads and fails their jobs; returns the listener's removal. */
  const stopOnAbort = (signal: AbortSignal | undefined): (() => void) => {
    const onAbort = (): void => {
      void stop();
      failAll(new BrepscopeError('CANCELLED', 'cancelled by the caller'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    return () => signal?.removeEventListener('abort', onAbort);
  };

  /** A job's outcome, counted in stats: finished, or failed (a cancel is neither). */
  const counted = <T>(outcome: Promise<T>): Promise<T> =>
    outcome.then(
      (value) => {
        stats.parallel++;
        return value;
      },
      (e: unknown) => {
        if (!(e instanceof BrepscopeError && e.code === 'CANCELLED')) stats.failed++;
        throw e;
      },
    );

  const start = (): HostThread[] => {
    if (threads) return threads;
    const started = platform.start(threadCount);
    if (threadCount === 2) {
      const { port1, port2 } = platform.channel();
      started[0]!.postMessage({ type: 'peer', port: port1 } satisfies ToWorker, [port1 as unknown as Transferable]);
      started[1]!.postMessage({ type: 'peer', port: port2 } satisfies ToWorker, [port2 as unknown as Transferable]);
    }
    for (const t of started) {
      // Idle threads must not keep a finished CLI process alive.
      t.unref?.();
      listen<FromWorker>(t, onMessage);
      t.onFailure((e) => {
        if (threads !== started) return;
        void stop();
        failAll(e);
      });
    }
    threads = started;
    holds = started.map(() => new Set());
    return started;
  };

  const stop = (): Promise<unknown> => {
    const t = threads;
    threads = undefined;
    holds = [];
    return Promise.all((t ?? []).map((w) => w.terminate()));
  };

  const onMessage = (m: FromWorker): void => {
    const part = subtreeJobs.get(m.job);
    if (part) {
      subtreeJobs.delete(m.job);
      if (m.type === 'failed') part.reject(new BrepscopeError(m.error.code, m.error.message));
      else part.resolve(m);
      return;
    }
    const job = jobs.get(m.job);
    if (!job) return;
    if (m.type === 'failed') {
      jobs.delete(m.job);
      // The other thread may wait for a part the failed one will not send.
      for (const t of threads ?? []) t.postMessage({ type: 'cancel', job: m.job } satisfies ToWorker);
      job.reject(new BrepscopeError(m.error.code, m.error.message));
    } else if (m.type === 'measured') {
      job.measured.set(m.label, { samples: m.samples, distance: m.distance, signed: m.signed, beyond: m.beyond });
    } else if (m.type === 'samples') {
      job.onSamples?.(m.samples);
    } else if (m.type === 'bvh') {
      job.onBvh?.(m.bvh, m.normalBounds);
    } else if (++job.done === job.parts) {
      jobs.delete(m.job);
      job.resolve();
    }
  };

  /** Sends the mesh to thread i unless it holds it already; returns its id. */
  const send = (i: number, mesh: TriMesh): number => {
    let s = shared.get(mesh);
    if (!s) {
      const arrays = { positions: mesh.positions, indices: mesh.indices };
      const copy: TriMesh = platform.shares ? shareArrays(arrays) : arrays;
      if (mesh.distinctPositions) copy.distinctPositions = true;
      s = { id: nextMesh++, mesh: copy };
      shared.set(mesh, s);
      collected.register(mesh, s.id);
    }
    if (!holds[i]!.has(s.id)) {
      threads![i]!.postMessage({ type: 'mesh', id: s.id, mesh: s.mesh } satisfies ToWorker);
      holds[i]!.add(s.id);
    }
    return s.id;
  };

  const parallel = async (job: DirectionsJob, signal: AbortSignal | undefined, progress: ((f: number, m?: string) => void) | undefined): Promise<Directions> => {
    const t = start();
    const fromIsBig = job.from.indices.length >= job.to.indices.length;
    const big = fromIsBig ? job.from : job.to, small = fromIsBig ? job.to : job.from;
    const bigId = send(0, big);
    send(1, big);
    const smallId = send(1, small);
    const bigBody = fromIsBig ? job.fromBodyId : job.toBodyId, smallBody = fromIsBig ? job.toBodyId : job.fromBodyId;
    const n = job.maxSamples;
    // Worker 0 measures the small mesh's samples against the big mesh: forward when `to` is big.
    const label0 = fromIsBig ? 'toToFrom' : 'fromToTo', label1 = fromIsBig ? 'fromToTo' : 'toToFrom';
    // Each direction tests its reference's boundary: worker 0's reference is the big mesh, worker 1's the small one.
    const bigBoundary = fromIsBig ? job.fromBoundary : job.toBoundary, smallBoundary = fromIsBig ? job.toBoundary : job.fromBoundary;
    const steps0: Step[] = [
      { op: 'bvh', mesh: bigId },
      { op: 'await', mesh: smallId, part: 'samples', maxSamples: n },
      { op: 'measure', samplesOf: smallId, maxSamples: n, against: bigId, signMode: job.signMode, label: label0, boundary: bigBoundary },
    ];
    const steps1: Step[] = [
      { op: 'samples', mesh: bigId, maxSamples: n, bodyId: bigBody },
      { op: 'bvh', mesh: smallId },
      { op: 'samples', mesh: smallId, maxSamples: n, bodyId: smallBody },
      { op: 'send', mesh: smallId, part: 'samples', maxSamples: n },
      { op: 'measure', samplesOf: bigId, maxSamples: n, against: smallId, signMode: job.signMode, label: label1, boundary: smallBoundary },
    ];
    // Worker 0 also needs the small mesh registered to receive its samples.
    send(0, small);
    const id = nextJob++;
    const measured = new Map<string, DirectedDeviation>();
    const finished = new Promise<void>((resolve, reject) => jobs.set(id, { measured, done: 0, parts: 2, resolve, reject }));
    const stopListening = stopOnAbort(signal);
    try {
      progress?.(0, 'deviation: building structures in two threads');
      t[0]!.postMessage({ type: 'run', job: id, steps: steps0 } satisfies ToWorker);
      t[1]!.postMessage({ type: 'run', job: id, steps: steps1 } satisfies ToWorker);
      await finished;
      progress?.(1, 'deviation: both directions measured');
    } finally {
      stopListening();
    }
    return { forward: measured.get('fromToTo')!, backward: measured.get('toToFrom')! };
  };

  /**
   * A mesh's side, the rest on the calling thread: worker 0 builds the mesh's BVH and measures the
   * given samples against it once the calling thread sent them; worker 1, when there is one,
   * samples the mesh and posts the samples to the calling thread. With one thread the calling
   * thread samples the mesh itself, and the tree is built in shared memory and posted back, so the
   * calling thread can measure part of the given samples too when its own work is done
   * (SharedDirection).
   */
  const meshSide = (job: MeshSideJob, signal: AbortSignal | undefined): MeshSide => {
    const t = start();
    const meshId = send(0, job.mesh);
    if (threadCount === 2) send(1, job.mesh);
    const id = nextJob++;
    const measured = new Map<string, DirectedDeviation>();
    let onSamples: (s: SurfaceSamples) => void = () => undefined;
    const samples = new Promise<SurfaceSamples>((resolve) => (onSamples = resolve));
    const share = threadCount === 1 && platform.shares;
    let output: SharedOutput | undefined;
    let onBvh: (bvh: TriangleBvh, normalBounds: Int8Array | null) => void = () => undefined;
    const bvhPosted = new Promise<{ bvh: TriangleBvh; normalBounds: Int8Array | null }>((resolve) => (onBvh = (bvh, normalBounds) => resolve({ bvh, normalBounds })));
    const finished = new Promise<void>((resolve, reject) =>
      jobs.set(id, { measured, onSamples: (s) => onSamples(s), ...(share ? { onBvh: (b, nb) => onBvh(b, nb) } : {}), done: 0, parts: threadCount, resolve, reject }),
    );
    const stopListening = stopOnAbort(signal);
    const settled = counted(finished);
    void settled.catch(() => undefined).finally(stopListening);
    t[0]!.postMessage({
      type: 'run',
      job: id,
      steps: [
        { op: 'bvh', mesh: meshId, shared: share, signMode: job.signMode },
        { op: 'measureGiven', against: meshId, signMode: job.signMode, label: job.label, boundary: job.boundary },
      ],
    } satisfies ToWorker);
    // With one thread, the caller samples the mesh itself meanwhile.
    t[1]?.postMessage({
      type: 'run',
      job: id,
      steps: [
        { op: 'samples', mesh: meshId, maxSamples: job.maxSamples, bodyId: job.bodyId },
        { op: 'post', mesh: meshId, maxSamples: job.maxSamples },
      ],
    } satisfies ToWorker);
    return {
      // The job failing before the samples came rejects them too.
      ...(threadCount === 2 ? { samples: Promise.race([samples, settled.then(() => samples)]) } : {}),
      measure: (given) => {
        if (share) output = sharedOutput(given.count);
        if (jobs.has(id)) t[0]!.postMessage({ type: 'given', job: id, samples: given, output } satisfies ToWorker);
        return settled.then(() => measured.get(job.label)!);
      },
      // Undefined once the job ended without posting its tree (a tree built earlier without sharing, a failure).
      ...(share
        ? {
            shared: Promise.race([bvhPosted, settled.then(() => undefined, () => undefined)]).then((posted): SharedDirection | undefined =>
              posted && output ? { ...posted, output } : undefined,
            ),
          }
        : {}),
      abandon: () => {
        const pending = jobs.get(id);
        if (!pending) return;
        jobs.delete(id);
        for (const w of threads ?? []) w.postMessage({ type: 'cancel', job: id } satisfies ToWorker);
        pending.reject(new BrepscopeError('CANCELLED', 'abandoned by the caller'));
      },
    };
  };

  /** Posts a BVH part to thread `thread`; resolves with the thread's answer of type `answer`. */
  const bvhPart = <A extends FromWorker['type']>(thread: number, message: (job: number) => ToWorker, answer: A): Promise<Extract<FromWorker, { type: A }>> => {
    const t = start();
    const id = nextJob++;
    const answered = new Promise<FromWorker>((resolve, reject) => subtreeJobs.set(id, { resolve, reject }));
    t[thread]!.postMessage(message(id));
    return answered.then((m) => {
      if (m.type !== answer) throw new Error(`mesh worker: ${m.type} for a BVH part`);
      return m as Extract<FromWorker, { type: A }>;
    });
  };
  const subtreeThreads: SubtreeThreads | undefined = platform.shares
    ? {
        count: threadCount,
        records: (thread, work) => bvhPart(thread, (job) => ({ type: 'records', job, work }), 'records').then((m) => m.centres),
        round: (thread, work) => bvhPart(thread, (job) => ({ type: 'round', job, work }), 'round').then((m) => m.answer),
        build: (thread, work) => bvhPart(thread, (job) => ({ type: 'subtrees', job, work }), 'subtrees').then((m) => m.answer),
      }
    : undefined;

  const stats = { parallel: 0, failed: 0 };
  return {
    subtreeThreads,
    threads: threadCount,
    shares: platform.shares,
    stats,
    warm: () => void start(),
    close: async () => {
      await stop();
      failAll(new Error('mesh workers closed'));
    },
    meshSide: (job, ctx) => meshSide(job, ctx.signal),
    // With one thread there is no second one for the other direction: the tool sends one mesh's side (meshSide).
    ...(threadCount === 2 ? { deviationDirections } : {}),
  };

  async function deviationDirections(job: DirectionsJob, ctx: Parameters<NonNullable<MeshWorkers['deviationDirections']>>[1]): Promise<Directions> {
    if (ctx.signal?.aborted) throw new BrepscopeError('CANCELLED', 'cancelled by the caller');
    return counted(parallel(job, ctx.signal, ctx.progress));
  }
}
