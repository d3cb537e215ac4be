import { z } from 'zod';
import { CONTROL_CHARACTERS_MESSAGE, MAX_BODY_ID_LENGTH, bodyIdTooLongMessage, hasControlCharacters } from '../scene/bodyIdLimit';

export const bodyIdSchema = z
  .string()
  .min(1, 'must be a non-empty bodyId')
  .max(MAX_BODY_ID_LENGTH, { error: (issue) => bodyIdTooLongMessage(typeof issue.input === 'string' ? issue.input.length : Number.NaN) })
  .refine((id) => !hasControlCharacters(id), CONTROL_CHARACTERS_MESSAGE);

export const vec3Schema = z.tuple([z.number(), z.number(), z.number()]);

export const formatSchema = z.enum(['brep', 'stl', 'step', 'iges', 'xbf', 'ply', 'obj', '3mf', 'xyz']);

/** Where a file comes from: a path the host can read, or its bytes as base64 (JSON callers). */
export const fileSourceShape = {
  path: z.string().min(1).optional().describe('File path (Node: the file system; browser: the name of a file the user loaded)'),
  bytes: z.string().min(1).optional().describe('The file content, base64-encoded, instead of path'),
  fileName: z.string().min(1).optional().describe('Name used for format detection and the default bodyId when bytes are given'),
};

export function exactlyOneSource(a: { path?: string | undefined; bytes?: string | undefined }): boolean {
  return (a.path === undefined) !== (a.bytes === undefined);
}

export const exactlyOneSourceMessage = 'give exactly one of path or bytes';

/**
 * Every tool that writes files takes this: without it, a file that exists and that this call did
 * not create is never replaced (FILE_EXISTS). A file loaded in the scene is never written either way
 * (FILE_IN_USE). The engine reads it from the parsed arguments (Engine.execute), not the tools.
 */
export const overwriteSchema = z
  .boolean()
  .default(false)
  .describe('Replace files that already exist at the output path (never a file loaded in the scene). Default false: an existing file is refused (FILE_EXISTS)');
