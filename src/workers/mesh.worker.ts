/**
 * A mesh worker in the browser, beside the engine's worker (browserMeshWorkers.ts): the engine's
 * worker core on this worker's own scope. No kernel is loaded here.
 */
import { runMeshWorker, type ThreadPort } from '../engine/meshWork';

// A dedicated worker's global scope is an EventTarget with postMessage, as ThreadPort asks.
runMeshWorker(self as unknown as ThreadPort);
