import { defineConfig } from '@playwright/test';
import e2e from './playwright.config';

/**
 * The browser benchmarks (bench/browser/*.bench.ts): `npm run bench:browser`. The e2e settings
 * (Chromium, sub-path, test build) with a build of their own (dist-bench, so an e2e run beside it is
 * not disturbed), long timeouts, and the figures printed by the benchmarks themselves.
 */
const PORT = Number(process.env.BREPSCOPE_E2E_PORT ?? 4173);
const SUB_PATH = '/brepscope/';

export default defineConfig({
  ...e2e,
  testDir: 'bench/browser',
  testMatch: '*.bench.ts',
  timeout: 1_800_000,
  reporter: [['list']],
  use: { ...e2e.use, trace: 'off', screenshot: 'off' },
  webServer: {
    command: `npx vite build --mode e2e --outDir dist-bench && npx vite preview --outDir dist-bench --port ${PORT} --strictPort --base ${SUB_PATH}`,
    url: `http://localhost:${PORT}${SUB_PATH}`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
  },
});
