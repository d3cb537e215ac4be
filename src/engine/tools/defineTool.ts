import type { z } from 'zod';
import type { OC } from '../kernel';
import type { Scene } from '../scene/Scene';
import type { MeshWorkers } from './deviationDirections';

/** How a host gives tools access to files: the real file system in Node, loaded files in the browser. */
export interface FileAccess {
  read(path: string): Promise<Uint8Array>;
  write(path: string, bytes: Uint8Array): Promise<void>;
}

export interface ToolContext {
  scene: Scene;
  files: FileAccess;
  kernel: () => Promise<OC>;
  /** Set when the caller may cancel; long loops check it between chunks. */
  signal?: AbortSignal | undefined;
  /** Reports progress in [0, 1] for long work. */
  progress?: ((fraction: number, message?: string) => void) | undefined;
  /** Mesh work the host can run off this thread (Node: worker threads); absent, tools run it here. */
  meshWorkers?: MeshWorkers | undefined;
}

export type ToolCategory = 'scene-building' | 'scene';

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  category: ToolCategory;
  schema: S;
  run(args: z.output<S>, ctx: ToolContext): Promise<unknown>;
}

/** Declares a tool; the identity function exists so `run` gets its argument type from the schema. */
export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): ToolDefinition<S> {
  return def;
}
