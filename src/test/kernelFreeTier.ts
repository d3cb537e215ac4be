import { afterAll } from 'vitest';

/**
 * Setup of `npm run test:fast` (vitest.fast.config.ts): a file of the kernel-free tier that starts the
 * kernel after all (through a module its imports reach) fails, so the tier cannot quietly grow slow.
 */
afterAll(() => {
  const kernel = (globalThis as Record<symbol, { status?: string } | undefined>)[Symbol.for('brepscope.kernel')];
  if (kernel && kernel.status !== 'idle') {
    throw new Error(`test:fast: this file started the kernel (status ${kernel.status}); it belongs in the full tier (vitest.fast.config.ts, STARTS_WORK)`);
  }
});
