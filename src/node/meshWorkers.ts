/**
 * The Node host's mesh worker threads: the engine's thread host (createMeshThreadHost) on
 * worker_threads. Threads come from meshThreadStart.ts (pre-started by the engine thread when the
 * CLI asked for them, else started here), in shared memory.
 */
import { MessageChannel, type Worker } from 'node:worker_threads';
import { createMeshThreadHost, type HostMeshWorkers, type HostThread, type ThreadPlatform, type ThreadPort } from '../engine';
import { meshThreadsForThisMachine, startMeshThread, takePreStartedMeshThreads } from './meshThreadStart';
export type NodeMeshWorkers = HostMeshWorkers;

export function createMeshWorkers(options: { threads?: 1 | 2 } = {}): NodeMeshWorkers {
  return createMeshThreadHost(nodeThreads, options.threads ?? meshThreadsForThisMachine());
}

const nodeThreads: ThreadPlatform = {
  start: (count) => (takePreStartedMeshThreads(count) ?? Array.from({ length: count }, (_, i) => startMeshThread(`brepscope-mesh-${i}`))).map(hostThread),
  channel: () => {
    const { port1, port2 } = new MessageChannel();
    return { port1: port1 as unknown as ThreadPort, port2: port2 as unknown as ThreadPort };
  },
  shares: true,
};

/** A Node Worker as the host sees threads: messages as events, an error or an exit as a failure. */
function hostThread(worker: Worker): HostThread {
  return {
    postMessage: (message, transfer) => worker.postMessage(message, transfer as never),
    addEventListener: (_type, listener) => void worker.on('message', (data: unknown) => listener({ data })),
    terminate: () => worker.terminate(),
    unref: () => worker.unref(),
    onFailure: (handler) => {
      worker.on('error', handler);
      worker.on('exit', () => handler(new Error('mesh worker exited')));
    },
  };
}
