import wasmUrl from 'opencascade.js/dist/opencascade.full.wasm?url';
import sqlWasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';
import { Engine, memoryFiles, setKernelLoader, setSqlJsLoader, type EngineTrace } from '../engine';
import { createBrowserKernelLoader } from './browserKernel';

/**
 * The engine of a browser worker: the kernel's glue told where the bundled .wasm is, sql.js (1 MB
 * wasm) loaded only when a graph database is first asked for, files in memory. Loading stays lazy.
 */
export function createBrowserEngine(trace?: (event: EngineTrace) => void): Engine {
  setKernelLoader(createBrowserKernelLoader(wasmUrl));
  setSqlJsLoader(() => import('sql.js').then((m) => m.default({ locateFile: () => sqlWasmUrl })));
  return new Engine({ files: memoryFiles(), ...(trace ? { trace } : {}) });
}
