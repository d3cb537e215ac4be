import { z } from 'zod';
import { checkOutputPath, withBrepFile, writeBrepBytes } from '../graph/brepFile';
import { compactShape, type CompactResult } from '../graph/graphCompact';
import { defineTool } from './defineTool';

const schema = z.strictObject({
  path: z.string().min(1).describe('BREP file (never written)'),
  outputPath: z.string().min(1).describe('Where to write the rebuilt BREP; must not be the input'),
});

export const graphCompact = defineTool({
  name: 'graph_compact',
  description: 'graph-compact: drops unreferenced nodes (loose vertices, edges, wires; empty containers) and writes the rebuilt BREP to outputPath.',
  category: 'graph',
  schema,
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
