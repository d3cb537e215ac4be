import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { lazyEmbind, type OC } from '../engine';

type GlueFactory = (module: { locateFile(path: string): string }) => Promise<OC>;

/**
 * Loads the kernel in Node, with the same lazy embind start as the app (src/engine/kernel/lazyEmbind.ts:
 * about 2.5 times faster, 0.13 GB less resident; README, Benchmarks). The glue is read here, on first
 * use, not when this module is: a process that never needs the kernel (mesh-only work) never reads it.
 *
 * The glue's text is patched, so it cannot be imported as a file: it is evaluated as a function
 * body, in strict mode as a module would be, its one `export default Module;` turned into a return.
 * Like opencascade.js's own dist/node.js, this sets globalThis.require and __dirname, which the glue
 * reads to find and read the .wasm.
 */
export async function loadNodeKernel(): Promise<OC> {
  const require = createRequire(import.meta.url);
  const gluePath = require.resolve('opencascade.js/dist/opencascade.full.js');
  const dir = dirname(gluePath);
  const g = globalThis as unknown as { require: NodeJS.Require; __dirname: string };
  g.__dirname = dir;
  g.require = createRequire(gluePath);
  const wasm = join(dir, 'opencascade.full.wasm');
  const factory = glueFactory(lazyEmbind(await readFile(gluePath, 'utf8')));
  return factory({ locateFile: (path) => (path.endsWith('.wasm') ? wasm : path) });
}

const EXPORT = 'export default Module;';

function glueFactory(text: string): GlueFactory {
  const at = text.lastIndexOf(EXPORT);
  if (at < 0 || text.indexOf(EXPORT) !== at) {
    throw new Error(`nodeKernel: the kernel glue does not end with one '${EXPORT}'; was opencascade.js upgraded?`);
  }
  const body = `"use strict";${text.slice(0, at)}return Module;${text.slice(at + EXPORT.length)}`;
  return new Function(body)() as GlueFactory;
}
