import { Engine } from '../engine/Engine';
import { getKernel, setKernelLoader, type OC } from '../engine/kernel';
import { loadNodeKernel } from '../engine/kernel/loadNodeKernel';
import { useNodeCanvas } from './nodeCanvas';
import { nodeFiles } from './nodeFiles';

/** Tells this process how to load the kernel (once; loading itself stays lazy). */
export function useNodeKernel(): void {
  setKernelLoader(loadNodeKernel);
}

/** The process's kernel, loaded on first call and shared by every engine and test in the process. */
export function nodeKernel(): Promise<OC> {
  useNodeKernel();
  return getKernel();
}

/** An engine with a fresh scene, reading and writing the real file system. */
export function createNodeEngine(): Engine {
  useNodeKernel();
  useNodeCanvas();
  return new Engine({ files: nodeFiles });
}
