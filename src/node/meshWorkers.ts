/**
 * The Node host's mesh workers: two worker threads that build the query structures of two meshes
 * and measure the two directions of a deviation at the same time (the engine's MeshWorkers seam,
 * ToolContext.meshWorkers; src/engine/tools/deviationDirections.ts). The result is the serial runner's, bit for bit: the
 * workers call the same functions on the same arrays (meshWorkers.test.ts checks it).
 *
 * The plan, for a larger mesh B and a smaller s: worker 0 builds B's BVH, then measures s's samples
 * against B; worker 1 builds B's pseudo-normals and samples and hands the pseudo-normals to worker 0,
 * builds s's BVH, pseudo-normals and samples and hands the samples to worker 0, then measures B's
 * samples against s. B's BVH, the largest single cost, overlaps all of s's work and B's
 * pseudo-normals. Meshes go to the workers once, in shared memory; workers keep what they built
 * for later calls on the same meshes (an MCP session), and drop it when the mesh is collected here.
 *
 * A failure rejects the job, and the tool computes it on the calling thread instead (so errors, an
 * EMPTY_MESH surface, are exactly the serial path's). Cancelling terminates the workers; the next
 * job starts fresh ones.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import {
  BrepscopeError,
  type DirectedDeviation,
  type Directions,
  type DirectionsJob,
  type MeshSide,
  type MeshSideJob,
  type MeshWorkers,
  type SurfaceSamples,
  type TriMesh,
} from '../engine';
import { shareArrays, type FromWorker, type Step, type ToWorker } from './meshWorkerProtocol';

export interface NodeMeshWorkers extends MeshWorkers {
  /** Starts the threads now (they load their code while the caller reads files). */
  warm(): void;
  /** Stops the threads; a later job starts new ones. */
  close(): Promise<void>;
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
  done: number;
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Whether this machine has the cores for it. The CLI's and the MCP server's engine runs in a thread
 * of its own (EngineHost), beside the host's main thread: on 2 cores the two mesh threads only take
 * turns with it. Measured on 2 quiet cores (bench deviation-process, 1M against 200k triangles):
 * 1.53 s with the threads, 1.33 s without; so from 4 cores on.
 */
export function meshWorkersUseful(): boolean {
  return availableParallelism() >= 4;
}

export function createMeshWorkers(): NodeMeshWorkers {
  let threads: Worker[] | undefined;
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

  const failAll = (error: Error): void => {
    for (const job of jobs.values()) job.reject(error);
    jobs.clear();
  };

  const start = (): Worker[] => {
    if (threads) return threads;
    const started = [0, 1].map((i) => startThread(`brepscope-mesh-${i}`));
    const { port1, port2 } = new MessageChannel();
    started[0]!.postMessage({ type: 'peer', port: port1 } satisfies ToWorker, [port1]);
    started[1]!.postMessage({ type: 'peer', port: port2 } satisfies ToWorker, [port2]);
    for (const t of started) {
      // Idle threads must not keep a finished CLI process alive.
      t.unref();
      t.on('message', (m: FromWorker) => onMessage(m));
      t.on('error', (e) => {
        stop();
        failAll(e);
      });
      t.on('exit', () => {
        if (threads === started) {
          stop();
          failAll(new Error('mesh worker exited'));
        }
      });
    }
    threads = started;
    holds = [new Set(), new Set()];
    return started;
  };

  const stop = (): Promise<unknown> => {
    const t = threads;
    threads = undefined;
    holds = [];
    return Promise.all((t ?? []).map((w) => w.terminate()));
  };

  const onMessage = (m: FromWorker): void => {
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
    } else if (++job.done === 2) {
      jobs.delete(m.job);
      job.resolve();
    }
  };

  /** Sends the mesh to thread i unless it holds it already; returns its id. */
  const send = (i: number, mesh: TriMesh): number => {
    let s = shared.get(mesh);
    if (!s) {
      const copy: TriMesh = shareArrays({ positions: mesh.positions, indices: mesh.indices });
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
    const bigBoundary = fromIsBig ? job.toBoundary : job.fromBoundary;
    const steps0: Step[] = [
      { op: 'bvh', mesh: bigId },
      { op: 'await', mesh: bigId, part: 'pseudoNormals' },
      // While worker 1 still builds the small mesh's parts.
      ...(bigBoundary ? [{ op: 'boundary', mesh: bigId } as const] : []),
      { op: 'await', mesh: smallId, part: 'samples', maxSamples: n },
      { op: 'measure', samplesOf: smallId, maxSamples: n, against: bigId, signMode: job.signMode, label: label0, boundary: bigBoundary },
    ];
    const steps1: Step[] = [
      { op: 'pseudoNormals', mesh: bigId },
      { op: 'samples', mesh: bigId, maxSamples: n, bodyId: bigBody },
      { op: 'send', mesh: bigId, part: 'pseudoNormals' },
      { op: 'bvh', mesh: smallId },
      { op: 'samples', mesh: smallId, maxSamples: n, bodyId: smallBody },
      { op: 'send', mesh: smallId, part: 'samples', maxSamples: n },
      { op: 'measure', samplesOf: bigId, maxSamples: n, against: smallId, signMode: job.signMode, label: label1, boundary: fromIsBig ? job.toBoundary : job.fromBoundary },
    ];
    // Worker 0 also needs the small mesh registered to receive its samples.
    send(0, small);
    const id = nextJob++;
    const measured = new Map<string, DirectedDeviation>();
    const finished = new Promise<void>((resolve, reject) => jobs.set(id, { measured, done: 0, resolve, reject }));
    const onAbort = (): void => {
      void stop();
      failAll(new BrepscopeError('CANCELLED', 'cancelled by the caller'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      progress?.(0, 'deviation: building structures in two threads');
      t[0]!.postMessage({ type: 'run', job: id, steps: steps0 } satisfies ToWorker);
      t[1]!.postMessage({ type: 'run', job: id, steps: steps1 } satisfies ToWorker);
      await finished;
      progress?.(1, 'deviation: both directions measured');
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    return { forward: measured.get('fromToTo')!, backward: measured.get('toToFrom')! };
  };

  /**
   * A mesh against exact faces on the main thread: worker 0 builds the mesh's BVH and measures the
   * given samples against it once the pseudo-normals from worker 1 and the samples from the main
   * thread are there; worker 1 builds the pseudo-normals and samples, posts the samples to the
   * main thread, then hands the pseudo-normals over.
   */
  const meshSide = (job: MeshSideJob, signal: AbortSignal | undefined): MeshSide => {
    const t = start();
    const meshId = send(0, job.mesh);
    send(1, job.mesh);
    const id = nextJob++;
    const measured = new Map<string, DirectedDeviation>();
    let onSamples: (s: SurfaceSamples) => void = () => undefined;
    const samples = new Promise<SurfaceSamples>((resolve) => (onSamples = resolve));
    const finished = new Promise<void>((resolve, reject) => jobs.set(id, { measured, onSamples: (s) => onSamples(s), done: 0, resolve, reject }));
    const onAbort = (): void => {
      void stop();
      failAll(new BrepscopeError('CANCELLED', 'cancelled by the caller'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const settled = finished.then(
      () => {
        stats.parallel++;
      },
      (e: unknown) => {
        if (!(e instanceof BrepscopeError && e.code === 'CANCELLED')) stats.failed++;
        throw e;
      },
    );
    void settled.catch(() => undefined).finally(() => signal?.removeEventListener('abort', onAbort));
    t[0]!.postMessage({
      type: 'run',
      job: id,
      steps: [
        { op: 'bvh', mesh: meshId },
        { op: 'await', mesh: meshId, part: 'pseudoNormals' },
        { op: 'measureGiven', against: meshId, signMode: job.signMode, label: job.label, boundary: job.boundary },
      ],
    } satisfies ToWorker);
    t[1]!.postMessage({
      type: 'run',
      job: id,
      steps: [
        { op: 'pseudoNormals', mesh: meshId },
        { op: 'samples', mesh: meshId, maxSamples: job.maxSamples, bodyId: job.bodyId },
        { op: 'post', mesh: meshId, maxSamples: job.maxSamples },
        { op: 'send', mesh: meshId, part: 'pseudoNormals' },
      ],
    } satisfies ToWorker);
    return {
      // The job failing before the samples came rejects them too.
      samples: Promise.race([samples, settled.then(() => samples)]),
      measure: (given) => {
        if (jobs.has(id)) t[0]!.postMessage({ type: 'given', job: id, samples: given } satisfies ToWorker);
        return settled.then(() => measured.get(job.label)!);
      },
      abandon: () => {
        const pending = jobs.get(id);
        if (!pending) return;
        jobs.delete(id);
        for (const w of threads ?? []) w.postMessage({ type: 'cancel', job: id } satisfies ToWorker);
        pending.reject(new BrepscopeError('CANCELLED', 'abandoned by the caller'));
      },
    };
  };

  const stats = { parallel: 0, failed: 0 };
  return {
    stats,
    warm: () => void start(),
    close: async () => {
      await stop();
      failAll(new Error('mesh workers closed'));
    },
    meshSide: (job, ctx) => meshSide(job, ctx.signal),
    deviationDirections: async (job, ctx) => {
      if (ctx.signal?.aborted) throw new BrepscopeError('CANCELLED', 'cancelled by the caller');
      try {
        const result = await parallel(job, ctx.signal, ctx.progress);
        stats.parallel++;
        return result;
      } catch (e) {
        if (!(e instanceof BrepscopeError && e.code === 'CANCELLED')) stats.failed++;
        throw e;
      }
    },
  };
}

/**
 * The worker's entry: the compiled file next to this one in a build; from the TypeScript source,
 * a two-line script that registers tsx in the new thread (a loader registered on the main thread
 * does not reach worker threads in Node 20) and imports the source.
 */
function startThread(name: string): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./meshWorker.mjs', import.meta.url), { name });
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const entry = new URL('./meshWorker.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`, { eval: true, name });
}
