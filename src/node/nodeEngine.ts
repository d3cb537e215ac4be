import { Engine, getKernel, setKernelLoader, type EngineTrace, type FileAccess, type OC } from '../engine';
import { useNodeCanvas } from './nodeCanvas';
import { nodeFiles } from './nodeFiles';
import { loadNodeKernel } from './nodeKernel';
import { useNodeSqlJs } from './nodeSqlJs';

/** Tells this process how to load the kernel (once; loading itself stays lazy). */
export function useNodeKernel(): void {
  setKernelLoader(loadNodeKernel);
}

/** The process's kernel, loaded on first call and shared by every engine and test in the process. */
export function nodeKernel(): Promise<OC> {
  useNodeKernel();
  return getKernel();
}

/**
 * An engine with a fresh scene, reading and writing the real file system (or `files`, e.g. the file
 * system confined to roots), with every Node seam installed.
 */
export function createNodeEngine(options: { trace?: (event: EngineTrace) => void; files?: FileAccess } = {}): Engine {
  useNodeKernel();
  useNodeCanvas();
  useNodeSqlJs();
  return new Engine({ files: options.files ?? nodeFiles, ...(options.trace ? { trace: options.trace } : {}) });
}
