import { z } from 'zod';
import { graphValidate as validateGraph, type GraphValidateResult } from '../graph/graphValidate';
import { defineTool } from './defineTool';
import { exactlyOneShape, exactlyOneShapeMessage, shapeSourceShape, withShape } from './graphSource';

const schema = z
  .strictObject({
    ...shapeSourceShape,
    selfIntersection: z
      .enum(['auto', 'on', 'off'])
      .default('auto')
      .describe('BRepAlgoAPI_Check self-intersection (slow): auto runs it up to 24 faces, on always, off never'),
  })
  .refine(exactlyOneShape, { message: exactlyOneShapeMessage });

export const graphValidate = defineTool({
  name: 'graph_validate',
  description: 'graph-validate: the topology graph of a BREP file (or a scene body) checked: isValid, errorCount, warningCount and the graph health record.',
  category: 'graph',
  schema,
  run: (args, ctx): Promise<GraphValidateResult> => withShape(ctx, args, (oc, shape) => validateGraph(oc, shape, { selfIntersection: args.selfIntersection })),
});
