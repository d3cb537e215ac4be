import { Engine, getKernel, setKernelLoader, type EngineTrace, type FileAccess, type OC } from '../engine';
import { createMeshWorkers, meshWorkersUseful, type NodeMeshWorkers } from './meshWorkers';
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

export interface NodeEngineOptions {
  trace?: (event: EngineTrace) => void;
  /** Where files are read and written (e.g. the file system confined to roots); default the real file system. */
  files?: FileAccess | undefined;
  /** Threads for mesh work (processMeshWorkers()); without, tools run it on the calling thread. */
  meshWorkers?: NodeMeshWorkers | undefined;
}

/** An engine with a fresh scene, reading and writing the real file system (or `files`), with every Node seam installed. */
export function createNodeEngine(options: NodeEngineOptions = {}): Engine {
  useNodeKernel();
  useNodeCanvas();
  useNodeSqlJs();
  return new Engine({ files: options.files ?? nodeFiles, ...(options.trace ? { trace: options.trace } : {}), meshWorkers: options.meshWorkers });
}

let processWorkers: NodeMeshWorkers | undefined;

/**
 * The process's mesh worker threads, started on first use: what the CLI and the MCP server run
 * mesh work on. By default from 4 cores (meshWorkersUseful); BREPSCOPE_MESH_WORKERS=1 starts them
 * anyway, =0 never (the serial path, same results).
 */
export function processMeshWorkers(): NodeMeshWorkers | undefined {
  const asked = process.env.BREPSCOPE_MESH_WORKERS;
  if (asked === '0' || (asked !== '1' && !meshWorkersUseful())) return undefined;
  processWorkers ??= createMeshWorkers();
  return processWorkers;
}
