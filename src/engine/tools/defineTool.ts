import type { z } from 'zod';
import type { ToolContext } from '../context';

export type { EngineTrace, FileAccess, ReadOptions, ToolContext, WriteOptions } from '../context';

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
