/**
 * Starting the mesh worker threads (meshWorkers.ts), kept apart from the engine so that the engine
 * thread can start them before its own code loads (engineThread.ts): a thread takes about 0.1 s
 * to load its code, and a `tool` command wants it ready when its bodies are.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { meshThreadsFor } from '../engine/hostFacts';

/** Mesh threads for this machine (the engine's rule, meshThreadsFor, on its core count). */
export function meshThreadsForThisMachine(): 1 | 2 {
  return meshThreadsFor(availableParallelism());
}

/** The process's choice: BREPSCOPE_MESH_WORKERS=0 none (the serial path, same results), =1 or =2 that many, else meshThreadsFor. */
export function meshThreadsWanted(env: Record<string, string | undefined> = process.env): 0 | 1 | 2 {
  const asked = env.BREPSCOPE_MESH_WORKERS;
  if (asked === '0') return 0;
  if (asked === '1' || asked === '2') return Number(asked) as 1 | 2;
  return meshThreadsForThisMachine();
}

/** A mesh thread (src/node/meshWorker.ts). */
export function startMeshThread(name: string): Worker {
  return startNodeThread('meshWorker', name);
}

/**
 * A worker thread on one of src/node's entries (meshWorker, selfCheckWorker): the compiled file next
 * to this one in a build; from the TypeScript source, a two-line script that registers tsx in the new
 * thread (a loader registered on the main thread does not reach worker threads in Node 20) and
 * imports the source.
 */
export function startNodeThread(entry: 'meshWorker' | 'selfCheckWorker', name: string): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${entry}.mjs`, import.meta.url), { name });
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const source = new URL(`./${entry}.ts`, import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`, { eval: true, name });
}

let preStarted: Worker[] | undefined;

/** Starts the process's mesh threads now, for the mesh workers to take when they first need them. */
export function preStartMeshThreads(): void {
  const count = meshThreadsWanted();
  if (count === 0 || preStarted) return;
  preStarted = Array.from({ length: count }, (_, i) => startMeshThread(`brepscope-mesh-${i}`));
  // Until taken, they must not keep the process alive.
  for (const t of preStarted) t.unref();
}

/** The pre-started threads when there are `count` of them (once), else undefined. */
export function takePreStartedMeshThreads(count: number): Worker[] | undefined {
  const threads = preStarted?.length === count ? preStarted : undefined;
  if (threads) preStarted = undefined;
  return threads;
}
