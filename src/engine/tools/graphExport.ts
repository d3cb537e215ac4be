import { z } from 'zod';
import { checkOutputPath } from '../graph/brepFile';
import { exportGraphSqlite, GRAPH_SCHEMA_VERSION } from '../graph/graphSqlite';
import { getSqlJs } from '../graph/sqlJs';
import { buildTopologyGraph } from '../graph/topologyGraph';
import { defineTool } from './defineTool';
import { exactlyOneShape, exactlyOneShapeMessage, shapeSourceShape, withShape } from './graphSource';
import { overwriteSchema } from './schemas';

const schema = z
  .strictObject({
    ...shapeSourceShape,
    outputPath: z.string().min(1).describe('Where to write the SQLite graph database'),
    overwrite: overwriteSchema,
  })
  .refine(exactlyOneShape, { message: exactlyOneShapeMessage });

export interface GraphExportResult {
  output: string;
  schemaVersion: number;
  bytes: number;
  counts: { solids: number; shells: number; faces: number; wires: number; edges: number; vertices: number; coedges: number };
}

export const graphExport = defineTool({
  name: 'graph_export',
  description: 'graph-export: writes the topology graph of a BREP file (or a scene body) as a SQLite graph database (docs/graph.md), the input of graph_query.',
  category: 'graph',
  schema,
  async run(args, ctx): Promise<GraphExportResult> {
    if (args.path !== undefined) checkOutputPath(args.path, args.outputPath);
    return withShape(ctx, args, async (oc, shape, source) => {
      const graph = buildTopologyGraph(oc, shape);
      const bytes = exportGraphSqlite(await getSqlJs(), graph, { source });
      await ctx.files.write(args.outputPath, bytes);
      return {
        output: args.outputPath,
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
  },
});
