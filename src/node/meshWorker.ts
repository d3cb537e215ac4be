/**
 * A mesh worker thread's entry in Node (started by meshThreadStart.ts): the engine's worker core
 * on this thread's port to its host. No kernel is loaded here.
 */
import { parentPort } from 'node:worker_threads';
import { runMeshWorker, type ThreadPort } from '../engine/meshWork';
import { collectGarbage } from './collectGarbage';

if (!parentPort) throw new Error('meshWorker: not started as a worker thread');
// Node's MessagePort is an EventTarget with postMessage, as ThreadPort asks.
runMeshWorker(parentPort as unknown as ThreadPort, { collectGarbage });
