import { createMeshThreadHost, meshThreadsFor, type HostMeshWorkers, type HostThread, type ThreadPlatform, type ThreadPort } from '../engine';

/**
 * The browser's mesh workers: plain Web Workers started by the engine's worker, beside it, running
 * the engine's mesh thread core (mesh.worker.ts): the same plans and results as Node's threads
 * (src/engine/meshThreads/host.ts). Meshes are shared when the page is cross-origin isolated (the
 * app's server sends COOP and COEP: vite.config.ts), else copied to the workers; without shared
 * memory each direction is measured on one thread. One worker on 2 or 3 cores, two from 4.
 */
let workers: HostMeshWorkers | null | undefined;

/** This worker's mesh workers (made once; null where workers cannot be started). */
export function browserMeshWorkers(): HostMeshWorkers | null {
  if (workers !== undefined) return workers;
  workers = typeof Worker === 'undefined' ? null : createMeshThreadHost(browserThreads(), meshThreadsFor(navigator.hardwareConcurrency || 2));
  return workers;
}

function browserThreads(): ThreadPlatform {
  return {
    start: (count) => Array.from({ length: count }, (_, i) => hostThread(new Worker(new URL('./mesh.worker.ts', import.meta.url), { type: 'module', name: `brepscope-mesh-${i}` }))),
    channel: () => {
      const { port1, port2 } = new MessageChannel();
      return { port1: port1 as unknown as ThreadPort, port2: port2 as unknown as ThreadPort };
    },
    shares: (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true && typeof SharedArrayBuffer === 'function',
  };
}

function hostThread(worker: Worker): HostThread {
  return {
    postMessage: (message, transfer) => worker.postMessage(message, transfer ?? []),
    addEventListener: (type, listener) => worker.addEventListener(type, listener as (event: MessageEvent) => void),
    terminate: () => worker.terminate(),
    onFailure: (handler) => {
      worker.addEventListener('error', (event) => handler(new Error(`mesh worker: ${event.message || 'failed to start or crashed'}`)));
      worker.addEventListener('messageerror', () => handler(new Error('mesh worker: a message could not be read')));
    },
  };
}
