import { z } from 'zod';
import { defineTool } from './defineTool';
import { bodyIdSchema } from './schemas';

export const removeBody = defineTool({
  name: 'remove_body',
  description: 'Remove a body from the scene (the file it came from is untouched).',
  category: 'scene-building',
  schema: z.strictObject({ bodyId: bodyIdSchema }),
  async run(args, ctx) {
    ctx.scene.remove(args.bodyId);
    return { removed: args.bodyId };
  },
});
