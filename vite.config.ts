import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  // Relative asset URLs: the built site works from any sub-path.
  base: './',
  plugins: [react()],
  // Pre-bundling the 55 MB kernel glue makes the first dev visit reload the page.
  optimizeDeps: { exclude: ['opencascade.js'] },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
    // The engine's modules do nothing when imported (loaders and factories are installed by hosts),
    // so the page, which takes a few pure helpers from its index, does not carry the engine along.
    rollupOptions: { treeshake: { moduleSideEffects: (id: string) => !/[\\/]src[\\/]engine[\\/]/.test(id) } },
  },
});
