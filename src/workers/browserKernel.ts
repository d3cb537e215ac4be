import ocFullJs from 'opencascade.js/dist/opencascade.full.js';
import type { KernelLoader, OC } from '../engine';

type GlueFactory = (module: { locateFile(path: string): string }) => Promise<OC>;

/** A loader for a module Web Worker: the Emscripten glue, told where the bundled .wasm lives. */
export function createBrowserKernelLoader(wasmUrl: string): KernelLoader {
  // The glue's .d.ts types its default export as taking no argument.
  const factory = ocFullJs as unknown as GlueFactory;
  return () => factory({ locateFile: (path) => (path.endsWith('.wasm') ? wasmUrl : path) });
}
