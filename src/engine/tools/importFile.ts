import { z } from 'zod';
import { BrepscopeError } from '../errors';
import type { Body, SourceFormat } from '../scene/Body';
import { describeBody, type BodySummary } from '../scene/describeBody';
import { importBody } from '../scene/import/importBody';
import { SCAN_UNIT_NAMES } from '../scene/scanUnits';
import { readForImport } from '../scene/import/readForImport';
import { defineTool, type ToolContext } from './defineTool';
import { warning, type ToolWarning } from '../warnings';
import { bodyIdSchema, exactlyOneSource, exactlyOneSourceMessage, fileSourceShape, formatSchema } from './schemas';

const schema = z
  .strictObject({
    ...fileSourceShape,
    format: formatSchema.optional().describe('brep, stl, step, iges, xbf, ply, obj, 3mf or xyz (text points); default: from the content, else the extension'),
    bodyId: bodyIdSchema.optional().describe('Id for the new body; default: the file name without extension, made unique'),
    unit: z
      .enum(SCAN_UNIT_NAMES)
      .optional()
      .describe('Length unit of a scan file that declares none (STL, PLY, OBJ, text points): its coordinates are scaled to millimetres, the unit STEP and IGES parts are read in. Default: none (model units, taken to be the part\'s)'),
  })
  .refine(exactlyOneSource, { message: exactlyOneSourceMessage });

export const importFile = defineTool({
  name: 'import_file',
  description:
    'Load a BREP, STEP, IGES, XBF, STL, PLY, OBJ, 3MF or text point file into the scene as a new body. Meshes (STL, PLY, OBJ, 3MF) stay mesh-backed facet shells; point clouds (PLY without faces, .xyz .pts .txt .csv) become points bodies (point count, hasNormals). Invalid BREP geometry is loaded and flagged valid: false. Returns the body summary with contentHash (SHA-256 of the file; of the geometry for a scan); a file whose content is already in the scene is loaded again as a new body, with sameFileAs and warning SAME_FILE.',
  category: 'scene-building',
  schema,
  async run(args, ctx) {
    const fileName = args.path ?? args.fileName ?? 'upload';
    const input = args.path !== undefined ? await readForImport(ctx.files, args.path, args.format, ctx.meshWorkers !== undefined) : { bytes: (await readSource(ctx, args)).bytes };
    const body = await importBody(ctx, { ...input, fileName, format: args.format, bodyId: args.bodyId, unit: args.unit });
    return summarizeOrUndo(ctx, body);
  },
});

/** An import's answer: the body, and SAME_FILE when a body of the same content was already there. */
export type ImportResult = BodySummary & { sameFileAs?: string; warnings?: ToolWarning[] };

/** The new body's summary; if even that fails, the body is taken out again so a failed call changes nothing. */
export async function summarizeOrUndo(ctx: ToolContext, body: Body): Promise<ImportResult> {
  try {
    const summary = describeBody(body.kind === 'brep' ? await ctx.kernel() : undefined, body);
    const twin = sameFile(ctx, body);
    if (!twin) return summary;
    return {
      ...summary,
      sameFileAs: twin.bodyId,
      warnings: [
        warning(
          'SAME_FILE',
          `${body.origin!.path} has the same content as body '${twin.bodyId}' (${twin.origin!.path}); both are in the scene. Compared with each other they read 0 everywhere: remove one (remove_body '${body.bodyId}') unless a second copy is meant`,
        ),
      ],
    };
  } catch (e) {
    ctx.scene.remove(body.bodyId);
    throw e;
  }
}

/** The first other body whose file had the same content (contentHash.ts). */
function sameFile(ctx: ToolContext, body: Body): Body | undefined {
  const hash = body.origin?.contentHash;
  return hash ? ctx.scene.list().find((b) => b !== body && b.origin?.contentHash === hash) : undefined;
}

/** The bytes and a name for them, from a path or from base64; `format`: what the file will be read as (its size limit applies). */
export async function readSource(
  ctx: ToolContext,
  args: { path?: string | undefined; bytes?: string | undefined; fileName?: string | undefined },
  format?: SourceFormat,
): Promise<{ bytes: Uint8Array; fileName: string }> {
  if (args.path !== undefined) return { bytes: await ctx.files.read(args.path, format === undefined ? {} : { format }), fileName: args.path };
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64(args.bytes ?? '');
  } catch {
    throw new BrepscopeError('INVALID_ARGUMENT', 'bytes: not valid base64');
  }
  return { bytes, fileName: args.fileName ?? 'upload' };
}

function decodeBase64(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) throw new Error('bad base64');
  const binary = atob(clean);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
