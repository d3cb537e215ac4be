import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The project's own folder of real CAD files (test-data/README.md gives each file's origin). */
export const TEST_DATA_DIR = fileURLToPath(new URL('../../test-data/', import.meta.url));

/**
 * Absolute path of a real CAD file in `test-data/`, resolved from this file so it does not depend on
 * the cwd. A missing file fails here, naming it, rather than deep inside an importer.
 */
export function dataPath(relative: string): string {
  const path = fileURLToPath(new URL(relative, new URL('../../test-data/', import.meta.url)));
  if (!existsSync(path)) {
    throw new Error(`test data missing: test-data/${relative} (see test-data/README.md for where each file comes from)`);
  }
  return path;
}
