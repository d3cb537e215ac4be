import { fileURLToPath } from 'node:url';

/**
 * Absolute path of a real CAD file in the shared data folder (`../shared/data` beside the checkout;
 * see /work/shared/data/README.md), resolved from this file so it does not depend on the cwd.
 */
export function dataPath(relative: string): string {
  return fileURLToPath(new URL(`../../../shared/data/${relative}`, import.meta.url));
}
