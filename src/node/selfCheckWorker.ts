/**
 * The self-check thread's entry in Node (started by selfCheckThread.ts): a kernel of its own that
 * runs validate_geometry's self-intersection and interference checks, so that the engine thread
 * can abandon a kernel call that runs past the budget by stopping this thread.
 */
import { parentPort } from 'node:worker_threads';
import { getKernel, serveSelfCheckJobs, setKernelLoader, type SelfCheckRequest } from '../engine';
import { loadNodeKernel } from './nodeKernel';

if (!parentPort) throw new Error('selfCheckWorker: not started as a worker thread');
const port = parentPort;
setKernelLoader(loadNodeKernel);
// Loaded at once: the engine thread starts this thread (warm) before it needs it, and starts a
// job's budget when told the kernel is ready.
serveSelfCheckJobs({ post: (reply) => port.postMessage(reply), onRequest: (listener) => port.on('message', (request: SelfCheckRequest) => listener(request)) }, getKernel());
