import { existsSync } from 'node:fs';
import { chromium, defineConfig, devices } from '@playwright/test';

/**
 * Browser: Debian's /usr/bin/chromium when present (Playwright's download is blocked on our
 * machines), else Playwright's own Chromium. Neither: stop with a message that says what to install.
 */
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

function browserExecutable(): string | undefined {
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  let bundled: string | undefined;
  try {
    bundled = chromium.executablePath();
  } catch {
    bundled = undefined;
  }
  if (bundled && existsSync(bundled)) return undefined;
  throw new Error(
    `playwright.config.ts: no Chromium to run the e2e tests: ${SYSTEM_CHROMIUM} is missing (apt-get install -y chromium) ` +
      `and Playwright's own browser is not installed${bundled ? ` (${bundled})` : ''} (npx playwright install chromium).`,
  );
}

const executablePath = browserExecutable();
/** BREPSCOPE_E2E_PORT lets several checkouts run their e2e tests side by side without sharing a server. */
const PORT = Number(process.env.BREPSCOPE_E2E_PORT ?? 4173);
/** The site is served under a sub-path, as a static host would: every test checks it works there. */
const SUB_PATH = '/brepscope/';

export default defineConfig({
  testDir: 'e2e',
  // The kernel takes 4 to 10 s to start in the browser; importing and measuring follow.
  timeout: 120_000,
  expect: { timeout: 60_000 },
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }], ['./e2e/noSkipReporter.ts']] : [['list'], ['./e2e/noSkipReporter.ts']],
  use: {
    ...devices['Desktop Chrome'],
    baseURL: `http://localhost:${PORT}${SUB_PATH}`,
    viewport: { width: 1400, height: 860 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      // --expose-gc: the big-mesh spec collects its own made file's garbage before it measures the page.
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--js-flags=--expose-gc', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: {
    // A test build (--mode e2e: the test API and the worker's test hooks, absent from `npm run build`).
    // The build uses base './' (relative URLs); preview's --base only mounts the build under the sub-path.
    command: `npx vite build --mode e2e --outDir dist-e2e && npx vite preview --outDir dist-e2e --port ${PORT} --strictPort --base ${SUB_PATH}`,
    url: `http://localhost:${PORT}${SUB_PATH}`,
    // Never reuse: a server left from another checkout or an older build would be tested instead of this one.
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
  },
});
