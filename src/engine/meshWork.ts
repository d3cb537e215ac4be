/**
 * The engine's second door, for the mesh worker threads (src/node/meshWorker.ts, the browser's
 * src/workers/mesh.worker.ts): the worker core and the parts of a deviation it computes, nothing
 * else of the engine. A thread that loaded the index would pay for the whole tool registry's
 * start-up; this loads the mesh code and what the deviation loop needs. No kernel, ever.
 */
export { runMeshWorker } from './meshThreads/workerCore';
export type { ThreadPort } from './meshThreads/protocol';
