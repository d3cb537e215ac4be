/**
 * The self-check thread's entry in Node (started by selfCheckThread.ts): a kernel of its own that
 * runs validate_geometry's self-intersection and interference checks, so that the engine thread
 * can abandon a kernel call that runs past the budget by stopping this thread.
 */
import { parentPort } from 'node:worker_threads';
import { getKernel, runSelfCheckJob, setKernelLoader, toErrorPayload } from '../engine';
import { loadNodeKernel } from './nodeKernel';
import type { SelfCheckReply, SelfCheckRequest } from './selfCheckThread';

if (!parentPort) throw new Error('selfCheckWorker: not started as a worker thread');
const port = parentPort;
setKernelLoader(loadNodeKernel);
// Loaded at once: the engine thread starts this thread (warm) before it needs it, and starts a
// job's budget when told the kernel is ready.
const kernel = getKernel();
void kernel.then(() => port.postMessage({ ready: true } satisfies SelfCheckReply));

port.on('message', (request: SelfCheckRequest) => void answer(request));

async function answer(request: SelfCheckRequest): Promise<void> {
  const { id, job, endAt } = request;
  try {
    const oc = await kernel;
    const answer = runSelfCheckJob(oc, job, endAt, (done, planned, found) => {
      port.postMessage({ id, progress: [done, planned], found: found() } satisfies SelfCheckReply);
      if (done === request.hangForTest) for (;;); // a kernel call that never returns, as far as the host can tell
    });
    port.postMessage({ id, answer } satisfies SelfCheckReply);
  } catch (e) {
    port.postMessage({ id, error: toErrorPayload(e) } satisfies SelfCheckReply);
  }
}
