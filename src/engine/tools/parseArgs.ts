import type { z } from 'zod';
import { BrepscopeError } from '../errors';

/** A tool's arguments checked against its schema (before any kernel call); INVALID_ARGUMENT names each field and rule. */
export function parseArgs<S extends z.ZodType>(tool: { name: string; schema: S }, args: unknown): z.output<S> {
  const result = tool.schema.safeParse(args ?? {});
  if (!result.success) {
    throw new BrepscopeError('INVALID_ARGUMENT', `${tool.name}: ${formatIssues(result.error.issues)}`);
  }
  return result.data;
}

/** The parts of a zod issue read here (a union's issue carries each alternative's own issues). */
interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  errors?: Issue[][];
}

/** One line per issue, naming the field: `sections: sections requires sectionAxis`. */
function formatIssues(issues: readonly Issue[], prefix: readonly PropertyKey[] = []): string {
  return issues
    .map((issue) => {
      const at = [...prefix, ...issue.path];
      if (issue.code === 'invalid_union' && issue.errors?.length) return unionIssue(issue.errors, at);
      return located(at, issue.message);
    })
    .join('; ');
}

function located(at: readonly PropertyKey[], message: string): string {
  const path = at.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
  return path ? `${path}: ${message}` : message;
}

/**
 * A union's plain "Invalid input" says nothing: when the value has the type of exactly one
 * alternative (an object where a string or an object is taken), what is wrong inside that one;
 * otherwise what each alternative expected.
 */
function unionIssue(alternatives: readonly Issue[][], at: readonly PropertyKey[]): string {
  const wrongType = (branch: readonly Issue[]) => branch.every((i) => i.code === 'invalid_type' && i.path.length === 0);
  const fitting = alternatives.filter((branch) => !wrongType(branch));
  if (fitting.length === 1) return formatIssues(fitting[0]!, at);
  // ", " within an alternative: "; " separates the message's fields (the UI reads them: schemaForm.ts).
  const expected = alternatives.map((branch) => branch.map((i) => located(i.path, i.message)).join(', '));
  return located(at, `none of the accepted forms: ${expected.join(' | ')}`);
}
