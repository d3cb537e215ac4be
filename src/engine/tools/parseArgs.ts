import type { z } from 'zod';
import { BrepscopeError } from '../errors';

/** A tool's arguments checked against its schema (before any kernel call); INVALID_ARGUMENT names each field and rule. */
export function parseArgs<S extends z.ZodType>(tool: { name: string; schema: S }, args: unknown): z.output<S> {
  const result = tool.schema.safeParse(args ?? {});
  if (!result.success) {
    throw new BrepscopeError('INVALID_ARGUMENT', `${tool.name}: ${formatIssues(result.error)}`);
  }
  return result.data;
}

/** One line per issue, naming the field: `sections: sections requires sectionAxis`. */
function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
