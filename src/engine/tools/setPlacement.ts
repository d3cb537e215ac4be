import { z } from 'zod';
import { BrepscopeError } from '../errors';
import type { PlacementRecord } from '../scene/Body';
import { compose, fromMatrix4, IDENTITY, type Rigid } from '../math/rigid';
import { placementSummary } from '../scene/describeBody';
import { placeBody } from '../scene/placement';
import { defineTool } from './defineTool';
import { kernelFor } from '../context';
import { bodyIdSchema } from './schemas';

/** A rigid motion as four rows of four; checked to be rigid (rotation, no scale, shear or mirror). */
export const matrix4Schema = z
  .array(z.array(z.number()).length(4, 'each row has four numbers'))
  .length(4, 'four rows')
  .transform((m, ctx): Rigid => {
    const rigid = fromMatrix4(m);
    if (typeof rigid === 'string') {
      ctx.addIssue({ code: 'custom', message: `not a rigid motion: ${rigid}` });
      return z.NEVER;
    }
    return rigid;
  });

export const setPlacement = defineTool({
  name: 'set_placement',
  description:
    "Place a body in the scene by a rigid motion (4x4 row-major, file coordinates to scene coordinates), or reset it: without transform the body goes back to where its file put it. compose: true applies the transform on top of the current placement. The file is never changed; every tool measures the body where it is placed (docs/alignment.md). Returns the body's placement.",
  // A scene tool (offered in the app's panel and share links): it moves a body, never its geometry.
  category: 'scene',
  schema: z.strictObject({
    bodyId: bodyIdSchema,
    transform: matrix4Schema.optional().describe('Rigid motion, four rows of four (the last [0, 0, 0, 1]); omitted: reset to the file position'),
    compose: z.boolean().default(false).describe('true: transform is applied after the current placement; false (default): it replaces it'),
    alignment: z
      .strictObject({
        fixedBodyId: bodyIdSchema,
        method: z.string().min(1).max(40),
        rmsBefore: z.number().nonnegative(),
        rmsAfter: z.number().nonnegative(),
        converged: z.boolean(),
      })
      .optional()
      .describe("The align_bodies answer this transform applies (an app applying a previewed proposal): recorded as what placed the body, so reports say 'aligned', not 'placed'"),
  }),
  async run(args, ctx) {
    const body = ctx.scene.get(args.bodyId);
    const oc = await kernelFor(ctx, [body]);
    const current = body.placement?.motion ?? IDENTITY;
    const motion = args.transform === undefined ? IDENTITY : args.compose ? compose(args.transform, current) : args.transform;
    if (args.alignment && args.transform === undefined) throw new BrepscopeError('INVALID_ARGUMENT', 'set_placement: alignment records the transform it applies; give the transform');
    const before = body.placement?.setBy;
    const setBy: PlacementRecord = args.alignment
      ? { tool: 'align_bodies', mode: 'bestFit', ...args.alignment, alignments: args.compose && before?.tool === 'align_bodies' ? before.alignments + 1 : 1 }
      : { tool: 'set_placement' };
    placeBody(oc, ctx.scene, body, { motion, setBy });
    return { bodyId: body.bodyId, placement: placementSummary(body) };
  },
});
