import { z } from 'zod';
import { invalidArgument } from '../errors';
import type { PlacementRecord } from '../scene/Body';
import { compose, fromMatrix4, IDENTITY, type Rigid } from '../math/rigid';
import { placementSummary } from '../scene/describeBody';
import { placeBody } from '../scene/placement';
import { defineTool } from './defineTool';
import { kernelFor } from '../context';
import { bodyIdSchema } from './schemas';

/**
 * The largest translation a placement may carry, per axis, in model units: 2^29 (about 5.4e8). Beyond
 * it two doubles differ by more than the kernel's confusion tolerance (Precision::Confusion, 1e-7), so
 * a placed part's vertices and edges no longer meet and every measure of it is noise. Found by the
 * bad-input sweep: a part moved 1e20 measured at distance 0 from its unmoved copy with 177 of its 560
 * mm^3; at 1e200 measure_distance failed in the kernel; two composed 1e308 moves overflowed to
 * Infinity and measure_distance ran to its deadline. A real placement (a fixture offset, a scanner's
 * frame) is many orders below the limit.
 */
export const MAX_PLACEMENT_OFFSET = 2 ** 29;

/** Why `motion` cannot be a placement, or undefined when it can. */
export function placementOutOfRange(motion: Rigid): string | undefined {
  const worst = Math.max(...motion.t.map(Math.abs));
  if (!(worst <= MAX_PLACEMENT_OFFSET)) {
    const shown = Number.isFinite(worst) ? worst.toPrecision(3) : String(worst);
    return `its translation reaches ${shown}, over the ${MAX_PLACEMENT_OFFSET} model units where coordinates keep the kernel's 1e-7 precision`;
  }
  return undefined;
}

/** A rigid motion as four rows of four; checked to be rigid (rotation, no scale, shear or mirror) and within range. */
export const matrix4Schema = z
  .array(z.array(z.number()).length(4, 'each row has four numbers'))
  .length(4, 'four rows')
  .transform((m, ctx): Rigid => {
    const rigid = fromMatrix4(m);
    if (typeof rigid === 'string') {
      ctx.addIssue({ code: 'custom', message: `not a rigid motion: ${rigid}` });
      return z.NEVER;
    }
    const far = placementOutOfRange(rigid);
    if (far) {
      ctx.addIssue({ code: 'custom', message: `not a placement: ${far}` });
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
    if (args.alignment && args.transform === undefined) throw invalidArgument('set_placement: alignment records the transform it applies; give the transform');
    // Each transform is in range, but their composition can still leave it (or overflow to Infinity).
    const far = placementOutOfRange(motion);
    if (far) throw invalidArgument(`set_placement: composed with body '${body.bodyId}''s current placement, ${far}; the body stays where it is`);
    const before = body.placement?.setBy;
    const setBy: PlacementRecord = args.alignment
      ? { tool: 'align_bodies', mode: 'bestFit', ...args.alignment, alignments: args.compose && before?.tool === 'align_bodies' ? before.alignments + 1 : 1 }
      : { tool: 'set_placement' };
    placeBody(oc, ctx.scene, body, { motion, setBy });
    return { bodyId: body.bodyId, placement: placementSummary(body) };
  },
});
