import { z } from 'zod';
import { checkSelectArgs, graphSelect as select, SELECT_QUERIES, type GraphSelectResult } from '../graph/graphSelect';
import { defineTool } from './defineTool';
import { exactlyOneShape, exactlyOneShapeMessage, shapeSourceShape, withShape } from './graphSource';

const schema = z
  .strictObject({
    ...shapeSourceShape,
    query: z.enum(SELECT_QUERIES).describe('face-neighbors, edge-faces, vertex-edges, face-adjacency or edges-class'),
    face: z.int().min(0).optional().describe('Face index (face-neighbors)'),
    edge: z.int().min(0).optional().describe('Topology-graph edge index (edge-faces)'),
    vertex: z.int().min(0).optional().describe('Topology-graph vertex index (vertex-edges)'),
    class: z.string().min(1).optional().describe('Edge class (edges-class): boundary, non-manifold, seam or degenerate'),
  })
  .refine(exactlyOneShape, { message: exactlyOneShapeMessage });

export const graphSelect = defineTool({
  name: 'graph_select',
  description: 'graph-select: adjacency and selection queries on the topology graph of a BREP file (or a scene body).',
  category: 'graph',
  schema,
  async run(args, ctx): Promise<GraphSelectResult> {
    // The selector is checked before any file is read.
    checkSelectArgs(args);
    return withShape(ctx, args, (oc, shape) => select(oc, shape, args));
  },
});
