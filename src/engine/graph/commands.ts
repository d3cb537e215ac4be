import { BrepscopeError } from '../errors';
import { checkShape } from '../scene/checkShape';
import { checkOutputPath, withBrepFile, writeBrepBytes, type GraphHost } from './brepFile';
import { compactShape, type CompactResult } from './graphCompact';
import { dedupShape, type DedupResult } from './graphDedup';
import { graphMl, type GraphMlOptions, type GraphMlResult } from './graphMl';
import { checkSelectArgs, graphSelect, type GraphSelectArgs, type GraphSelectResult } from './graphSelect';
import { exportGraphSqlite, GRAPH_SCHEMA_VERSION, queryGraphSqlite, type GraphQueryResult } from './graphSqlite';
import { graphValidate, type GraphValidateResult, type SelfIntersectionMode } from './graphValidate';
import type { SqlJsStatic } from './sqlJs';
import { buildTopologyGraph, type TopologyGraph } from './topologyGraph';

/** The graph commands of the spec on file paths; each host (CLI, worker) supplies files and the kernel. */

export interface SqlHost {
  files: GraphHost['files'];
  sqlJs: () => Promise<SqlJsStatic>;
}

export async function runGraphValidate(host: GraphHost, path: string, options: { selfIntersection?: SelfIntersectionMode } = {}): Promise<GraphValidateResult> {
  return withBrepFile(host, path, (oc, shape) => graphValidate(oc, shape, options));
}

export async function runGraphCompact(host: GraphHost, input: string, output: string): Promise<CompactResult & { output: string }> {
  checkOutputPath(input, output);
  return withBrepFile(host, input, async (oc, shape) => {
    const { shape: compacted, result } = compactShape(oc, shape);
    try {
      await host.files.write(output, writeBrepBytes(oc, compacted));
    } finally {
      compacted.delete();
    }
    return { ...result, output };
  });
}

export async function runGraphDedup(host: GraphHost, input: string, output: string): Promise<DedupResult & { output: string }> {
  checkOutputPath(input, output);
  return withBrepFile(host, input, async (oc, shape) => {
    const validBefore = checkShape(oc, shape).valid;
    const result = dedupShape(oc, shape);
    // The rewrite is meant to change no geometry; a valid input must stay valid, or nothing is written.
    if (validBefore && !checkShape(oc, shape).valid) {
      throw new BrepscopeError('INTERNAL_ERROR', `graph-dedup: sharing geometry made ${input} invalid; no output was written`);
    }
    await host.files.write(output, writeBrepBytes(oc, shape));
    return { ...result, output };
  });
}

export interface GraphExportResult {
  output: string;
  schemaVersion: number;
  bytes: number;
  counts: { solids: number; shells: number; faces: number; wires: number; edges: number; vertices: number; coedges: number };
}

/** The graph database of a shape as SQLite bytes (also the app's download). */
export function graphSqliteBytes(SQL: SqlJsStatic, graph: TopologyGraph, source: string): Uint8Array {
  return exportGraphSqlite(SQL, graph, { source });
}

export async function runGraphExport(host: GraphHost & SqlHost, input: string, output: string): Promise<GraphExportResult> {
  checkOutputPath(input, output);
  return withBrepFile(host, input, async (oc, shape) => {
    const graph = buildTopologyGraph(oc, shape);
    const bytes = graphSqliteBytes(await host.sqlJs(), graph, input);
    await host.files.write(output, bytes);
    return {
      output,
      schemaVersion: GRAPH_SCHEMA_VERSION,
      bytes: bytes.byteLength,
      counts: {
        solids: graph.solids.length,
        shells: graph.shells.length,
        faces: graph.faces.length,
        wires: graph.wires.length,
        edges: graph.edges.length,
        vertices: graph.vertices.length,
        coedges: graph.coedges.length,
      },
    };
  });
}

export async function runGraphQuery(host: SqlHost, path: string): Promise<GraphQueryResult> {
  const bytes = await host.files.read(path);
  return queryGraphSqlite(await host.sqlJs(), bytes, path);
}

export async function runGraphMl(host: GraphHost, path: string, options: GraphMlOptions = {}): Promise<GraphMlResult> {
  for (const [flag, v] of [
    ['--uv-samples', options.uvSamples],
    ['--edge-samples', options.edgeSamples],
  ] as const) {
    if (v !== undefined && !(Number.isInteger(v) && v >= 1)) throw new BrepscopeError('INVALID_ARGUMENT', `${flag}: expected an integer >= 1, got ${v}`);
  }
  return withBrepFile(host, path, (oc, shape) => graphMl(oc, shape, options));
}

export async function runGraphSelect(host: GraphHost, path: string, args: GraphSelectArgs): Promise<GraphSelectResult> {
  checkSelectArgs(args);
  return withBrepFile(host, path, (oc, shape) => graphSelect(oc, shape, args));
}
