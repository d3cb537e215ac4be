import { Engine, getKernel, setKernelLoader, type EngineTrace, type FileAccess, type OC, type SelfCheckThread } from '../engine';
import { createMeshWorkers, type NodeMeshWorkers } from './meshWorkers';
import { meshThreadsWanted } from './meshThreadStart';
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
  /** A thread for validate_geometry's self-intersection check (createSelfCheckThread()); without, it runs on the calling thread and can overrun its budget by one kernel call. */
  selfCheckThread?: SelfCheckThread | undefined;
}

/** An engine with a fresh scene, reading and writing the real file system (or `files`), with every Node seam installed. */
export function createNodeEngine(options: NodeEngineOptions = {}): Engine {
  useNodeKernel();
  useNodeCanvas();
  useNodeSqlJs();
  return new Engine({ files: options.files ?? nodeFiles, ...(options.trace ? { trace: options.trace } : {}), meshWorkers: options.meshWorkers, selfCheckThread: options.selfCheckThread });
}

let processWorkers: NodeMeshWorkers | undefined;

/**
 * The process's mesh worker threads, started on first use: what the CLI and the MCP server run
 * mesh work on. One thread on 2 or 3 cores, two from 4 (meshThreadsFor); BREPSCOPE_MESH_WORKERS=0
 * runs none (the serial path, same results), =1 or =2 that many whatever the cores.
 */
export function processMeshWorkers(): NodeMeshWorkers | undefined {
  const threads = meshThreadsWanted();
  if (threads === 0) return undefined;
  processWorkers ??= createMeshWorkers({ threads });
  return processWorkers;
}
