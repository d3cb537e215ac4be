/**
 * Share links: `#model=<url>&model=<url>&tool=<name>&args=<json>&label=<x,y,z>...` (each value
 * URI-encoded, as URLSearchParams writes them; labels are the deviation review's, issue 16). Nothing here is evaluated: URLs are only fetched, args only parsed
 * as JSON and handed to the engine, whose schemas validate them like any other call.
 */

export interface ShareLink {
  models: string[];
  tool?: string;
  args?: Record<string, unknown>;
  /** Deviation labels placed on the heat map, in order. */
  labels?: [number, number, number][];
}

/** As deviation_labels takes at most. */
export const MAX_SHARED_LABELS = 100;

export interface ShareLinkError {
  code: 'INVALID_ARGUMENT';
  message: string;
}

/**
 * A link as far as it can be used, and what is wrong with the rest: a bad part (a model that is not
 * an http(s) URL, a tool name that is not one, args that are not a JSON object) is left out with an
 * error, and the good parts still apply (the models load even when the args are broken).
 */
export interface ParsedShareLink {
  link: ShareLink;
  errors: ShareLinkError[];
}

/** The link in a location hash, null when the hash is not a share link (no model and no tool). */
export function parseShareHash(hash: string): ParsedShareLink | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const models = params.getAll('model');
  const tool = params.get('tool');
  const rawArgs = params.get('args');
  if (models.length === 0 && tool === null) return null;
  const errors: ShareLinkError[] = [];
  const bad = (message: string) => errors.push({ code: 'INVALID_ARGUMENT', message });
  const link: ShareLink = { models: [] };
  for (const model of models) {
    if (isFetchableUrl(model)) link.models.push(model);
    else bad(`model: '${model}' is not an http(s) URL`);
  }
  if (tool !== null) {
    if (/^[a-z][a-z0-9_]*$/.test(tool)) link.tool = tool;
    else bad(`tool: '${tool}' is not a tool name`);
  }
  if (rawArgs !== null) {
    const args = parseArgs(rawArgs, tool !== null);
    if (typeof args === 'string') bad(args);
    else if (link.tool !== undefined) link.args = args;
    // Without usable args the tool would run with other arguments than the link asked for.
    if (typeof args === 'string') delete link.tool;
  }
  const labels = params.getAll('label');
  if (labels.length > MAX_SHARED_LABELS) bad(`label: ${labels.length} labels, at most ${MAX_SHARED_LABELS}`);
  else {
    for (const raw of labels) {
      const p = raw.split(',').map((c) => (c.trim() === '' ? NaN : Number(c)));
      if (p.length !== 3 || !p.every(Number.isFinite)) bad(`label: '${raw}' is not three numbers x,y,z`);
      else (link.labels ??= []).push([p[0]!, p[1]!, p[2]!]);
    }
  }
  return { link, errors };
}

/** The args object, or why there is none. */
function parseArgs(raw: string, hasTool: boolean): Record<string, unknown> | string {
  if (!hasTool) return 'args: given without tool';
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch (e) {
    return `args: not valid JSON (${e instanceof Error ? e.message : String(e)}); the tool was not run`;
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) return 'args: must be a JSON object; the tool was not run';
  return args as Record<string, unknown>;
}

/** Only http(s) URLs (absolute, or relative to the page) are fetched: no javascript:, data: or file:. */
export function isFetchableUrl(raw: string, base = 'http://localhost/'): boolean {
  try {
    const url = new URL(raw, base);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The hash for a link (with its leading #). */
export function buildShareHash(link: Omit<ShareLink, 'args'> & { args?: unknown }): string {
  const params = new URLSearchParams();
  for (const m of link.models) params.append('model', m);
  if (link.tool !== undefined) params.set('tool', link.tool);
  if (link.args !== undefined) params.set('args', JSON.stringify(link.args));
  for (const p of link.labels ?? []) params.append('label', p.join(','));
  return `#${params.toString()}`;
}
