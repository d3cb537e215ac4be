import { z } from 'zod';
import { describeBody } from '../scene/describeBody';
import { defineTool } from './defineTool';
import { kernelFor } from '../context';

export const listBodies = defineTool({
  name: 'list_bodies',
  description: 'List the bodies in the scene with their kind, source format, validity and topology counts.',
  category: 'scene-building',
  schema: z.strictObject({}),
  async run(_args, ctx) {
    const bodies = ctx.scene.list();
    const oc = await kernelFor(ctx, bodies);
    return { bodies: bodies.map((b) => describeBody(oc, b)) };
  },
});
