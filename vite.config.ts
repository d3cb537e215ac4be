import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
// The file itself, not the engine's index: the config needs this one function.
import { KERNEL_GLUE_ID, lazyEmbind } from './src/engine/kernel/lazyEmbind.ts';

/** The kernel glue with a lazy embind start (src/engine/kernel/lazyEmbind.ts): its start about 2.5 times faster (README, Benchmarks). */
function lazyKernelGlue(): Plugin {
  return {
    name: 'brepscope:lazy-kernel-glue',
    transform(code, id) {
      return KERNEL_GLUE_ID.test(id) ? { code: lazyEmbind(code), map: null } : undefined;
    },
  };
}

/**
 * Cross-origin isolation, so that the engine's worker and its mesh workers share meshes in memory
 * (SharedArrayBuffer; src/workers/browserMeshWorkers.ts). The app loads nothing from other origins.
 * A server without these headers still works: the mesh workers then get copies.
 */
const ISOLATED = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  // Relative asset URLs: the built site works from any sub-path.
  base: './',
  server: { headers: ISOLATED },
  preview: { headers: ISOLATED },
  // `plugins` reach the worker in dev only; `worker.plugins` is what builds it.
  plugins: [react(), lazyKernelGlue()],
  // Pre-bundling the 55 MB kernel glue makes the first dev visit reload the page.
  optimizeDeps: { exclude: ['opencascade.js'] },
  worker: { format: 'es', plugins: () => [lazyKernelGlue()] },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
    // The engine's modules do nothing when imported (loaders and factories are installed by hosts),
    // so the page, which takes a few pure helpers from its index, does not carry the engine along.
    rollupOptions: { treeshake: { moduleSideEffects: (id: string) => !/[\\/]src[\\/]engine[\\/]/.test(id) } },
  },
});
