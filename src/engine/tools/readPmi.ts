import { z } from 'zod';
import { warning } from '../warnings';
import { readPmi, type PmiResult } from '../gdt/pmi';
import { lengthUnitMm } from '../gdt/stepText';
import { defineTool } from './defineTool';
import { bodyIdSchema } from './schemas';

const schema = z.strictObject({
  bodyId: bodyIdSchema.describe('A body read from a STEP file (AP242, or AP203/AP214 with semantic PMI)'),
});

export const readPmiTool = defineTool({
  name: 'read_pmi',
  description:
    "The CAD's own GD&T (semantic PMI) of a STEP body, read through the kernel's XCAF reader: datums (label, faces, kind), dimensions (kind in words, nominal, upper and lower deviations, faces, modifiers) and geometric tolerances (kind in words, value, zone, modifiers, datums in precedence order, faces), faces as face[N] of the body. Lengths in mm, angles in degrees. A body without semantic PMI (or not from a STEP file) gives empty lists and a warning (docs/gdt.md).",
  category: 'scene',
  schema,
  async run(args, ctx): Promise<PmiResult> {
    const body = ctx.scene.get(args.bodyId);
    if (body.kind !== 'brep' || body.origin?.format !== 'step') {
      const what = body.kind === 'brep' ? `a ${body.sourceFormat.toUpperCase()} body` : body.kind === 'mesh' ? 'a mesh' : 'a point cloud';
      return { datums: [], dimensions: [], tolerances: [], warnings: [warning('NO_PMI_SOURCE', `body '${args.bodyId}' is ${what}; semantic PMI comes with STEP files only`)] };
    }
    const oc = await ctx.kernel();
    const unit = body.lengthUnit ? lengthUnitMm(body.lengthUnit.declared) : 1;
    const result = readPmi(oc, body.origin.bytes ?? (await ctx.files.read(body.origin.path)), body.origin.path, body.sourceShape, unit ?? 1);
    if (unit === null) result.warnings.push(warning('UNKNOWN_LENGTH_UNIT', `the file declares '${body.lengthUnit!.declared}'; nominal values are taken as mm`));
    return result;
  },
});
