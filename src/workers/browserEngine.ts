import sqlWasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';
import { Engine, memoryFiles, setKernelLoader, setSqlJsLoader, type EngineTrace } from '../engine';
import { createBrowserKernelLoader, type CompiledKernel } from './browserKernel';
import { browserMeshWorkers } from './browserMeshWorkers';
import { browserSelfCheckThread } from './browserSelfCheck';

/**
 * The engine of a browser worker: the kernel instantiated from `kernel` (given by the page or
 * compiled from the bundled .wasm), sql.js (1 MB wasm) loaded only when a graph database is first
 * asked for, files in memory, mesh work beside it in plain workers (browserMeshWorkers.ts, started
 * now: their small module loads while the kernel does), validate_geometry's self-intersection
 * check in a nested worker with a kernel of its own, started on first use (browserSelfCheck.ts).
 * Loading stays lazy.
 */
export function createBrowserEngine(kernel: CompiledKernel, trace?: (event: EngineTrace) => void): Engine {
  setKernelLoader(createBrowserKernelLoader(kernel));
  setSqlJsLoader(() => import('sql.js').then((m) => m.default({ locateFile: () => sqlWasmUrl })));
  const meshWorkers = browserMeshWorkers();
  meshWorkers?.warm();
  const selfCheckThread = browserSelfCheckThread(kernel);
  return new Engine({ files: memoryFiles(), ...(trace ? { trace } : {}), ...(meshWorkers ? { meshWorkers } : {}), ...(selfCheckThread ? { selfCheckThread } : {}) });
}
