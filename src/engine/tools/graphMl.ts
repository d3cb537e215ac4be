import { z } from 'zod';
import { DEFAULT_EDGE_SAMPLES, DEFAULT_UV_SAMPLES, graphMl as mlOf, type GraphMlResult } from '../graph/graphMl';
import { MAX_EDGE_SAMPLES, MAX_UV_SAMPLES } from '../graph/graphOptions';
import { defineTool } from './defineTool';
import { exactlyOneShape, exactlyOneShapeMessage, shapeSourceShape, withShape } from './graphSource';

const schema = z
  .strictObject({
    ...shapeSourceShape,
    uvSamples: z.int().min(1).max(MAX_UV_SAMPLES).default(DEFAULT_UV_SAMPLES).describe(`Face UV grid density (N x N per face, N at most ${MAX_UV_SAMPLES}); default ${DEFAULT_UV_SAMPLES}`),
    edgeSamples: z.int().min(1).max(MAX_EDGE_SAMPLES).default(DEFAULT_EDGE_SAMPLES).describe(`Samples per edge curve (at most ${MAX_EDGE_SAMPLES}); default ${DEFAULT_EDGE_SAMPLES}`),
  })
  .refine(exactlyOneShape, { message: exactlyOneShapeMessage });

export const graphMl = defineTool({
  name: 'graph_ml',
  description: 'graph-ml: machine-learning JSON of a BREP file (or a scene body): graphs in COO form, UV grids with normals and curvatures, edge samples, attributed face adjacency.',
  category: 'graph',
  schema,
  run: (args, ctx): Promise<GraphMlResult> => withShape(ctx, args, (oc, shape) => mlOf(oc, shape, { uvSamples: args.uvSamples, edgeSamples: args.edgeSamples })),
});
