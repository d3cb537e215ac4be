/**
 * A small auto-escaping HTML template (issue 29.5): `html` is a tagged template whose every
 * interpolated value is escaped unless it is itself the output of `html` (or `raw`, for markup we
 * build, such as CSS). Arrays are joined; null, undefined and false render nothing. No string is
 * concatenated into markup with a manual escape, so a body name, a file name or a title field can
 * never open a tag or end an attribute.
 */

const TRUSTED = Symbol('trusted html');

export interface Html {
  readonly [TRUSTED]: true;
  readonly text: string;
}

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeText(s: string): string {
  return s.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

function isHtml(v: unknown): v is Html {
  return typeof v === 'object' && v !== null && TRUSTED in v;
}

function render(v: HtmlValue): string {
  if (v === null || v === undefined || v === false) return '';
  if (isHtml(v)) return v.text;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeText(String(v));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let text = strings[0]!;
  for (let i = 0; i < values.length; i++) text += render(values[i]!) + strings[i + 1]!;
  return { [TRUSTED]: true, text };
}

/** Markup the code wrote itself (a style sheet, JSON made safe for a script element): never user text. */
export function raw(text: string): Html {
  return { [TRUSTED]: true, text };
}
