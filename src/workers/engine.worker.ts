import * as Comlink from 'comlink';
import wasmUrl from 'opencascade.js/dist/opencascade.full.wasm?url';
import { createBrowserEngine } from './browserEngine';
import { CompiledKernel, compiledKernelApi } from './browserKernel';
import { guarded } from './guarded';
import { testBuildApi } from './testHooks';

const kernel = new CompiledKernel(wasmUrl);
// Test builds (vite build --mode e2e) add test hooks; a production build exposes the engine alone
// (the branch and the hooks' module are removed from it). Both take and give the compiled kernel.
const engine = import.meta.env.MODE === 'e2e' ? testBuildApi((trace) => createBrowserEngine(kernel, trace)) : guarded(createBrowserEngine(kernel));
Comlink.expose({ ...engine, ...compiledKernelApi(kernel) });
