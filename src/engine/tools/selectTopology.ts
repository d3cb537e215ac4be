import { surfaceBody } from '../scene/pointsBody';
import { z } from 'zod';
import { BrepscopeError, invalidArgument } from '../errors';
import { withKernel } from '../kernel';
import type { SurfaceBody } from '../scene/Body';
import { mapEntities, parseEntityId, type EntityKind } from '../scene/topology';
import { defineTool, type ToolContext } from './defineTool';
import { bodyIdSchema } from './schemas';

const schema = z
  .strictObject({
    bodyId: bodyIdSchema.optional().describe('Body the ids belong to (to mint a selection)'),
    ids: z.array(z.string()).min(1).optional().describe('Topology ids face[N], edge[N], vertex[N] of that body (to mint a selection)'),
    selectionId: z.string().min(1).optional().describe('A selection minted earlier (to resolve it)'),
  })
  .superRefine((a, ctx) => {
    const minting = a.bodyId !== undefined || a.ids !== undefined;
    if (minting && a.selectionId !== undefined) ctx.addIssue({ code: 'custom', path: ['selectionId'], message: 'give either bodyId and ids (mint) or selectionId (resolve), not both' });
    else if (!minting && a.selectionId === undefined) ctx.addIssue({ code: 'custom', path: [], message: 'give bodyId and ids to mint a selection, or selectionId to resolve one' });
    else if (minting && (a.bodyId === undefined || a.ids === undefined)) ctx.addIssue({ code: 'custom', path: [a.bodyId === undefined ? 'bodyId' : 'ids'], message: 'minting a selection needs both bodyId and ids' });
  });

export const selectTopology = defineTool({
  name: 'select_topology',
  description:
    'Mint a selectionId for topology ids (face[N], edge[N], vertex[N]) of one body, checked against the body, for remap and annotation workflows; or resolve a selectionId back to its body and ids. Selections live with the scene and vanish with their body.',
  category: 'scene',
  schema,
  async run(args, ctx) {
    if (args.selectionId !== undefined) {
      const selection = ctx.scene.selections.get(args.selectionId);
      if (!selection) throw new BrepscopeError('SELECTION_NOT_FOUND', `selection '${args.selectionId}' does not exist (or its body was removed)`);
      return selection;
    }
    const body = surfaceBody(ctx.scene.get(args.bodyId!), 'select_topology', 'faces, edges and vertices to select');
    const ids = [...new Set(args.ids!.map((id) => id.trim()))];
    const counts = await entityCounts(ctx, body);
    for (const id of ids) {
      const { kind, index } = parseEntityId(id);
      if (index >= counts[kind]) throw invalidArgument(`select_topology: ${id} is out of range: body '${body.bodyId}' has ${counts[kind]} ${kind === 'vertex' ? 'vertices' : `${kind}s`}`);
    }
    return ctx.scene.addSelection(body.bodyId, ids);
  },
});

async function entityCounts(ctx: ToolContext, body: SurfaceBody): Promise<Record<EntityKind, number>> {
  if (body.kind === 'mesh') return { face: body.topology.triangles, edge: body.topology.edges, vertex: body.mesh.positions.length / 3 };
  const oc = await ctx.kernel();
  return withKernel(oc, (own) => ({
    face: mapEntities(oc, own, body.shape, 'face').Extent(),
    edge: mapEntities(oc, own, body.shape, 'edge').Extent(),
    vertex: mapEntities(oc, own, body.shape, 'vertex').Extent(),
  }));
}
