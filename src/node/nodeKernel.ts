import type { OC } from '../engine';

/**
 * Loads the kernel in Node. The glue is imported here, on first use, not when this module is: a
 * process that never needs the kernel (mesh-only work) never evaluates it. Importing the glue sets
 * globalThis.require and __dirname.
 */
export async function loadNodeKernel(): Promise<OC> {
  const { default: init } = await import('opencascade.js/dist/node.js');
  return init();
}
