import { BrepscopeError } from '../errors';
import { checkOutputPath, withBrepFile, writeBrepBytes } from '../graph/brepFile';
import { dedupShape, type DedupResult } from '../graph/graphDedup';
import { checkShape } from '../scene/checkShape';
import { defineTool } from './defineTool';
import { brepRewriteSchema } from './graphSource';

export const graphDedup = defineTool({
  name: 'graph_dedup',
  description: 'graph-dedup: shares identical surface and curve geometry and writes the rebuilt BREP to outputPath.',
  category: 'graph',
  schema: brepRewriteSchema,
  async run(args, ctx): Promise<DedupResult & { output: string }> {
    checkOutputPath(args.path, args.outputPath);
    return withBrepFile(ctx, args.path, async (oc, shape) => {
      const validBefore = checkShape(oc, shape).valid;
      const result = dedupShape(oc, shape);
      // The rewrite is meant to change no geometry; a valid input must stay valid, or nothing is written.
      if (validBefore && !checkShape(oc, shape).valid) {
        throw new BrepscopeError('INTERNAL_ERROR', `graph-dedup: sharing geometry made ${args.path} invalid; no output was written`);
      }
      await ctx.files.write(args.outputPath, writeBrepBytes(oc, shape));
      return { ...result, output: args.outputPath };
    });
  },
});
