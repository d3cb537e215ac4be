import { surfaceBody } from '../scene/pointsBody';
import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { z } from 'zod';
import { withBrepFile } from '../graph/brepFile';
import type { OC } from '../kernel';
import { kernelShape } from '../scene/facetShape';
import type { ToolContext } from './defineTool';
import { bodyIdSchema, overwriteSchema } from './schemas';

/** Where a graph tool's shape comes from: a BREP file (the spec's graph commands) or a scene body. */
export const shapeSourceShape = {
  path: z.string().min(1).optional().describe('BREP file path'),
  bodyId: bodyIdSchema.optional().describe('A scene body instead of a file (an STL as its facet shell)'),
};

export function exactlyOneShape(a: { path?: string | undefined; bodyId?: string | undefined }): boolean {
  return (a.path === undefined) !== (a.bodyId === undefined);
}

export const exactlyOneShapeMessage = 'give exactly one of path or bodyId';

/** graph-compact's and graph-dedup's arguments: a BREP file in, a new BREP file out. */
export const brepRewriteSchema = z.strictObject({
  path: z.string().min(1).describe('BREP file (never written)'),
  outputPath: z.string().min(1).describe('Where to write the rebuilt BREP; must not be the input'),
  overwrite: overwriteSchema,
});

/**
 * Runs `fn` on the shape: a file's shape is read for the call and freed after it; a body's shape is
 * the body's own (never changed by read-only graph tools). `name` is what reports call the source.
 */
export async function withShape<T>(
  ctx: ToolContext,
  source: { path?: string | undefined; bodyId?: string | undefined },
  fn: (oc: OC, shape: TopoDS_Shape, name: string) => T | Promise<T>,
): Promise<T> {
  if (source.bodyId !== undefined) {
    const body = surfaceBody(ctx.scene.get(source.bodyId), 'the graph tools', 'a shape with faces, edges and vertices')
    const oc = await ctx.kernel();
    return fn(oc, kernelShape(oc, body), body.source ?? body.name);
  }
  const path = source.path ?? '';
  return withBrepFile(ctx, path, (oc, shape) => fn(oc, shape, path));
}
