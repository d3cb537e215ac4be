import init from 'opencascade.js/dist/node.js';
import type { OC } from '../engine';

/** Loads the kernel in Node. Importing the glue sets globalThis.require and __dirname. */
export function loadNodeKernel(): Promise<OC> {
  return init();
}
