import { checkOutputPath, withBrepFile, writeBrepBytes } from '../graph/brepFile';
import { compactShape, type CompactResult } from '../graph/graphCompact';
import { defineTool } from './defineTool';
import { brepRewriteSchema } from './graphSource';

export const graphCompact = defineTool({
  name: 'graph_compact',
  description: 'graph-compact: drops unreferenced nodes (loose vertices, edges, wires; empty containers) and writes the rebuilt BREP to outputPath.',
  category: 'graph',
  schema: brepRewriteSchema,
  async run(args, ctx): Promise<CompactResult & { output: string }> {
    checkOutputPath(args.path, args.outputPath);
    return withBrepFile(ctx, args.path, async (oc, shape) => {
      const { shape: compacted, result } = compactShape(oc, shape);
      try {
        await ctx.files.write(args.outputPath, writeBrepBytes(oc, compacted));
      } finally {
        compacted.delete();
      }
      return { ...result, output: args.outputPath };
    });
  },
});
