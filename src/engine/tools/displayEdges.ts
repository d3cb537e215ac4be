import { z } from 'zod';
import { displayEdges as edgesToDraw, type DisplayEdges } from '../scene/displayEdges';
import { defineTool } from './defineTool';
import { kernelFor } from '../context';
import { bodyIdSchema } from './schemas';

export const displayEdges = defineTool({
  name: 'display_edges',
  description:
    "A BREP body's edges as line segments for drawing, with each segment's edge[N] (empty for an STL body). Viewer data: typed arrays.",
  category: 'display',
  schema: z.strictObject({ bodyId: bodyIdSchema }),
  async run(args, ctx): Promise<DisplayEdges> {
    const body = ctx.scene.get(args.bodyId);
    return edgesToDraw(await kernelFor(ctx, [body]), body);
  },
  transferables: (edges) => [edges.positions.buffer, edges.edgeIds.buffer],
});
