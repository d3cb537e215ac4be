import { getKernel, type OC } from './kernel';
import { Scene } from './scene/Scene';
import type { FileAccess, ToolContext } from './tools/defineTool';
import type { MeshWorkers } from './tools/deviationDirections';
import { toolManifests, type ToolManifest } from './tools/registry';
import { findTool } from './tools/registry';
import { parseArgs, runTool } from './tools/runTool';

export interface EngineOptions {
  files: FileAccess;
  /** Defaults to the process's shared kernel (the host must have set a loader). */
  kernel?: () => Promise<OC>;
  /** Mesh work off the calling thread (the Node host's worker threads); absent, tools run it in line. */
  meshWorkers?: MeshWorkers | undefined;
}

export interface RunOptions {
  signal?: AbortSignal;
  progress?: (fraction: number, message?: string) => void;
}

/** One scene and the tool registry: what the CLI, the worker and the MCP server each hold one of. */
export class Engine {
  readonly scene = new Scene();
  private readonly files: FileAccess;
  private readonly kernel: () => Promise<OC>;
  private readonly meshWorkers: MeshWorkers | undefined;

  constructor(options: EngineOptions) {
    this.files = options.files;
    this.kernel = options.kernel ?? getKernel;
    this.meshWorkers = options.meshWorkers;
  }

  tools(): ToolManifest[] {
    return toolManifests();
  }

  /** Checks a tool name and its arguments without running anything (no kernel, no scene change). */
  validate(name: string, args: unknown): void {
    parseArgs(findTool(name), args);
  }

  run(name: string, args: unknown, options: RunOptions = {}): Promise<unknown> {
    const ctx: ToolContext = { scene: this.scene, files: this.files, kernel: this.kernel, signal: options.signal, progress: options.progress, meshWorkers: this.meshWorkers };
    return runTool(ctx, name, args);
  }
}
