import { z } from 'zod';
import { BrepscopeError } from '../errors';
import { withKernel } from '../kernel';
import type { Vec3 } from '../math/vec3';
import { locationFreeShape } from '../scene/locationFreeShape';
import { cloudGap, meshGap } from '../deviation/cloudGap';
import { defineTool } from './defineTool';
import { kernelFor } from '../context';
import { bodyIdSchema } from './schemas';

/** The spec's cap on returned contact pairs. */
const MAX_CONTACTS = 32;

const schema = z.strictObject({
  fromBodyId: bodyIdSchema.describe('First body'),
  toBodyId: bodyIdSchema.describe('Second body'),
  computeContacts: z.boolean().default(false).describe('Also return up to 32 contact pairs (pointOnFrom, pointOnTo)'),
});

export interface ContactPair {
  pointOnFrom: Vec3;
  pointOnTo: Vec3;
}

export const measureDistance = defineTool({
  name: 'measure_distance',
  description:
    'Minimum gap between two bodies (BRepExtrema_DistShapeShape on the exact geometry; an STL counts as its facet shell (two STLs are measured on their triangles, one contact pair); a point cloud by its points: the smallest distance from one of them to the other body, one contact pair). About 0 when they touch or overlap, including one solid inside the other; it does not measure the amount of overlap and is not a surface deviation. computeContacts adds up to 32 closest-point pairs.',
  category: 'scene',
  schema,
  async run(args, ctx) {
    const from = ctx.scene.get(args.fromBodyId);
    const to = ctx.scene.get(args.toBodyId);
    if (from.kind === 'points' || to.kind === 'points') {
      const gap = await cloudGap(ctx, await kernelFor(ctx, [from, to]), from, to);
      return args.computeContacts ? { distance: gap.distance, contacts: [{ pointOnFrom: gap.pointOnFrom, pointOnTo: gap.pointOnTo }] } : { distance: gap.distance };
    }
    if (from.kind === 'mesh' && to.kind === 'mesh') {
      // Two facet shells: measured on the triangles, so a mesh-only call never starts the kernel.
      const gap = await meshGap(ctx, from, to);
      return args.computeContacts ? { distance: gap.distance, contacts: [{ pointOnFrom: gap.pointOnFrom, pointOnTo: gap.pointOnTo }] } : { distance: gap.distance };
    }
    const oc = await ctx.kernel();
    return withKernel(oc, (own) => {
      const extrema = own(
        new oc.BRepExtrema_DistShapeShape_2(
          locationFreeShape(oc, from),
          locationFreeShape(oc, to),
          oc.Extrema_ExtFlag.Extrema_ExtFlag_MIN as never,
          oc.Extrema_ExtAlgo.Extrema_ExtAlgo_Grad as never,
          own(new oc.Message_ProgressRange_1()),
        ),
      );
      if (!extrema.IsDone()) throw new BrepscopeError('KERNEL_ERROR', `measure_distance: BRepExtrema found no solution between '${from.bodyId}' and '${to.bodyId}'`);
      const distance = extrema.Value();
      if (!args.computeContacts) return { distance };
      const contacts: ContactPair[] = [];
      const seen = new Set<string>();
      const xyz = (p: { X(): number; Y(): number; Z(): number }): Vec3 => [p.X(), p.Y(), p.Z()];
      for (let i = 1; i <= extrema.NbSolution() && contacts.length < MAX_CONTACTS; i++) {
        const pair = { pointOnFrom: xyz(own(extrema.PointOnShape1(i))), pointOnTo: xyz(own(extrema.PointOnShape2(i))) };
        // The kernel reports a point once per support (vertex, edge, face) it lies on: keep one.
        const key = [...pair.pointOnFrom, ...pair.pointOnTo].map((v) => v.toFixed(9)).join(',');
        if (seen.has(key)) continue;
        seen.add(key);
        contacts.push(pair);
      }
      return { distance, contacts };
    });
  },
});
