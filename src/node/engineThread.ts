import { workerData } from 'node:worker_threads';
import { preStartMeshThreads } from './meshThreadStart';

// The engine thread's entry. Its code takes about 0.2 s to load: a host that will compare meshes
// next (the CLI's `tool`, bin/brepscope.js) asks for the mesh threads first, so that they load
// theirs meanwhile (meshThreadStart.ts); then the engine (engineThreadMain.ts).
if ((workerData as { warmMeshThreads?: boolean } | undefined)?.warmMeshThreads) preStartMeshThreads();
await import('./engineThreadMain');
