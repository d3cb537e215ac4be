import { z } from 'zod';
import { importBody } from '../scene/import/importBody';
import { defineTool } from './defineTool';
import { readSource, summarizeOrUndo } from './importFile';
import { bodyIdSchema, exactlyOneSource, exactlyOneSourceMessage, fileSourceShape } from './schemas';

const schema = z
  .strictObject({
    ...fileSourceShape,
    bodyId: bodyIdSchema.optional().describe('Id for the new body; default: the file name without extension, made unique'),
    allowInvalid: z.boolean().default(false).describe('Load a shape BRepCheck rejects (an in-progress reconstruction) and mark it invalid'),
  })
  .refine(exactlyOneSource, { message: exactlyOneSourceMessage });

export const readBrep = defineTool({
  name: 'read_brep',
  description:
    'Load an OCCT BREP file as a body. Without allowInvalid an invalid shape is refused (INVALID_GEOMETRY) with the ids BRepCheck rejects; with allowInvalid true it loads and is marked valid: false.',
  category: 'scene-building',
  schema,
  async run(args, ctx) {
    const { bytes, fileName } = await readSource(ctx, args, 'brep');
    const body = await importBody(ctx, { bytes, fileName, format: 'brep', bodyId: args.bodyId, refuseInvalid: !args.allowInvalid });
    return summarizeOrUndo(ctx, body);
  },
});
