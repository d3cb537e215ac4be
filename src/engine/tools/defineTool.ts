import type { z } from 'zod';
import type { OC } from '../kernel';
import type { Scene } from '../scene/Scene';
import type { MeshWorkers } from './deviationDirections';

/** How a host gives tools access to files: the real file system in Node, loaded files in the browser. */
export interface FileAccess {
  read(path: string): Promise<Uint8Array>;
  write(path: string, bytes: Uint8Array): Promise<void>;
}

/** What the engine reports about its own work when a host asks (tests count deviations with it). */
export type EngineTrace = { kind: 'deviation'; what: string };

export interface ToolContext {
  scene: Scene;
  /** The call's file access: every write through it is returned with the result as an output. */
  files: FileAccess;
  kernel: () => Promise<OC>;
  /** Set when the caller may cancel; long loops check it between chunks. */
  signal?: AbortSignal | undefined;
  /** Reports progress in [0, 1] for long work. */
  progress?: ((fraction: number, message?: string) => void) | undefined;
  /** Told of costly work actually done (not served from a cache). */
  trace?: ((event: EngineTrace) => void) | undefined;
  /** Mesh work the host can run off this thread (Node: worker threads); absent, tools run it here. */
  meshWorkers?: MeshWorkers | undefined;
}

/**
 * `scene-building` tools change the scene; `scene` tools measure it (the spec's scene tools); `graph`
 * tools are the topology-graph commands (on a file path or a scene body); `display` tools give a
 * viewer its typed arrays (triangles, edge lines, heat-map values).
 */
export type ToolCategory = 'scene-building' | 'scene' | 'graph' | 'display';

export interface ToolDefinition<Name extends string = string, S extends z.ZodType = z.ZodType, R = unknown> {
  name: Name;
  description: string;
  category: ToolCategory;
  schema: S;
  // Method syntax on purpose: a tool with its own argument type still fits the registry's list.
  run(args: z.output<S>, ctx: ToolContext): Promise<R>;
  /** Buffers of the result a worker may move to the caller instead of copying (display data). */
  transferables?(result: R): ArrayBuffer[];
}

/** Declares a tool; the identity function keeps its name, argument and result types for the registry. */
export function defineTool<const Name extends string, S extends z.ZodType, R>(def: ToolDefinition<Name, S, R>): ToolDefinition<Name, S, R> {
  return def;
}
