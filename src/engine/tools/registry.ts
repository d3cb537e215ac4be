import { z } from 'zod';
import { BrepscopeError } from '../errors';
import { computeMetrics } from './computeMetrics';
import { crossSectionCompare } from './crossSectionCompare';
import type { ToolDefinition } from './defineTool';
import { importFile } from './importFile';
import { inspectAssembly } from './inspectAssembly';
import { listBodies } from './listBodies';
import { deviationHistogram } from './deviationHistogram';
import { measureDeviation } from './measureDeviation';
import { measureDistance } from './measureDistance';
import { symmetricDifferenceVolume } from './symmetricDifferenceVolume';
import { measureVertexFit } from './measureVertexFit';
import { queryTopology } from './queryTopology';
import { readBrep } from './readBrep';
import { recognizeFeatures } from './recognizeFeatures';
import { removeBody } from './removeBody';
import { selectTopology } from './selectTopology';
import { validateGeometry } from './validateGeometry';

/** Every tool the engine offers, in the order hosts list them. */
export const TOOLS: readonly ToolDefinition[] = [importFile, readBrep, listBodies, removeBody, validateGeometry, computeMetrics, queryTopology, measureDistance, measureVertexFit, measureDeviation, deviationHistogram, symmetricDifferenceVolume, crossSectionCompare, recognizeFeatures, inspectAssembly, selectTopology] as ToolDefinition[];

export function findTool(name: string): ToolDefinition {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) throw new BrepscopeError('UNKNOWN_TOOL', `unknown tool '${name}'; tools: ${TOOLS.map((t) => t.name).join(', ')}`);
  return tool;
}

export interface ToolManifest {
  name: string;
  description: string;
  category: ToolDefinition['category'];
  inputSchema: Record<string, unknown>;
}

/** Each tool's name, description and JSON Schema of its arguments (as a caller writes them: defaults optional). */
export function toolManifests(): ToolManifest[] {
  return TOOLS.map((t) => ({
    name: t.name,
    description: t.description,
    category: t.category,
    inputSchema: z.toJSONSchema(t.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
  }));
}
