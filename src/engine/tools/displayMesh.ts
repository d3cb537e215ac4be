import { z } from 'zod';
import { displayMesh as meshToDraw, type DisplayMesh } from '../scene/tessellation';
import { defineTool } from './defineTool';
import { kernelFor } from '../context';
import { bodyIdSchema } from './schemas';

export const displayMesh = defineTool({
  name: 'display_mesh',
  description:
    "Triangles to draw a body: float32 positions, uint32 indices and, for a BREP body, the face[N] of each triangle (its tessellation at 0.2% of the box diagonal). An STL body's own triangles need no kernel. Viewer data: typed arrays.",
  category: 'display',
  schema: z.strictObject({ bodyId: bodyIdSchema }),
  async run(args, ctx): Promise<DisplayMesh> {
    const body = ctx.scene.get(args.bodyId);
    return meshToDraw(await kernelFor(ctx, [body]), body);
  },
  transferables: (mesh) => (mesh.faceIds ? [mesh.positions.buffer, mesh.indices.buffer, mesh.faceIds.buffer] : [mesh.positions.buffer, mesh.indices.buffer]),
});
