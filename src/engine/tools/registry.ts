import { z } from 'zod';
import { BrepscopeError } from '../errors';
import { alignBodies } from './alignBodies';
import { computeMetrics } from './computeMetrics';
import { crossSectionCompare } from './crossSectionCompare';
import type { ToolDefinition } from './defineTool';
import { deviationHeatmap } from './deviationHeatmap';
import { deviationHistogram } from './deviationHistogram';
import { deviationLabels } from './deviationLabels';
import { displayEdges } from './displayEdges';
import { displayMesh } from './displayMesh';
import { evaluateGdt } from './evaluateGdt';
import { fitPrimitives } from './fitPrimitives';
import { graphCompact } from './graphCompact';
import { graphDedup } from './graphDedup';
import { graphExport } from './graphExport';
import { graphMl } from './graphMl';
import { graphQuery } from './graphQuery';
import { graphSelect } from './graphSelect';
import { graphValidate } from './graphValidate';
import { importFile } from './importFile';
import { inspectionReport } from './inspectionReport';
import { inspectAssembly } from './inspectAssembly';
import { listBodies } from './listBodies';
import { measureDeviation } from './measureDeviation';
import { measureDistance } from './measureDistance';
import { measureVertexFit } from './measureVertexFit';
import { queryTopology } from './queryTopology';
import { readBrep } from './readBrep';
import { readPmiTool } from './readPmi';
import { recognizeFeatures } from './recognizeFeatures';
import { removeBody } from './removeBody';
import { selectTopology } from './selectTopology';
import { signedDeviationHeatmap } from './signedDeviationHeatmap';
import { setPlacement } from './setPlacement';
import { symmetricDifferenceVolume } from './symmetricDifferenceVolume';
import { validateGeometry } from './validateGeometry';

/**
 * Every tool the engine offers, in the order hosts list them. Each keeps its own name, argument and
 * result types, so `engine.run('measure_deviation', args)` is typed end to end.
 */
export const TOOLS = [
  importFile,
  readBrep,
  listBodies,
  removeBody,
  setPlacement,
  validateGeometry,
  computeMetrics,
  queryTopology,
  measureDistance,
  measureVertexFit,
  measureDeviation,
  deviationHistogram,
  signedDeviationHeatmap,
  deviationLabels,
  inspectionReport,
  symmetricDifferenceVolume,
  crossSectionCompare,
  alignBodies,
  recognizeFeatures,
  fitPrimitives,
  readPmiTool,
  evaluateGdt,
  inspectAssembly,
  selectTopology,
  graphValidate,
  graphCompact,
  graphDedup,
  graphExport,
  graphQuery,
  graphMl,
  graphSelect,
  displayMesh,
  displayEdges,
  deviationHeatmap,
] as const;

type AnyTool = (typeof TOOLS)[number];
export type ToolName = AnyTool['name'];
type ToolNamed<N extends ToolName> = Extract<AnyTool, { name: N }>;
/** A tool's arguments as a caller writes them (defaults optional). */
export type ToolArgs<N extends ToolName> = z.input<ToolNamed<N>['schema']>;
/** What a tool returns. */
export type ToolResult<N extends ToolName> = Awaited<ReturnType<ToolNamed<N>['run']>>;

/** The registry seen without per-tool types: what runs a tool by a name only known at run time. */
const REGISTRY: readonly ToolDefinition[] = TOOLS;

export function isToolName(name: string): name is ToolName {
  return REGISTRY.some((t) => t.name === name);
}

export function findTool(name: string): ToolDefinition {
  const tool = REGISTRY.find((t) => t.name === name);
  if (!tool) throw new BrepscopeError('UNKNOWN_TOOL', `unknown tool '${name}'; tools: ${REGISTRY.map((t) => t.name).join(', ')}`);
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
  return REGISTRY.map((t) => ({
    name: t.name,
    description: t.description,
    category: t.category,
    inputSchema: z.toJSONSchema(t.schema, { io: 'input', unrepresentable: 'any' }),
  }));
}
