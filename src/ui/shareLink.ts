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

export type ParsedShareLink = { ok: true; link: ShareLink } | { ok: false; error: ShareLinkError };

/** The link in a location hash, null when the hash is not a share link (no model and no tool). */
export function parseShareHash(hash: string): ParsedShareLink | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const models = params.getAll('model');
  const tool = params.get('tool');
  const rawArgs = params.get('args');
  if (models.length === 0 && tool === null) return null;
  const link: ShareLink = { models };
  if (tool !== null) {
    if (!/^[a-z][a-z0-9_]*$/.test(tool)) return bad(`tool: '${tool}' is not a tool name`);
    link.tool = tool;
  }
  if (rawArgs !== null) {
    if (link.tool === undefined) return bad('args: given without tool');
    let args: unknown;
    try {
      args = JSON.parse(rawArgs);
    } catch (e) {
      return bad(`args: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    if (!args || typeof args !== 'object' || Array.isArray(args)) return bad('args: must be a JSON object');
    link.args = args as Record<string, unknown>;
  }
  for (const model of models) {
    if (!isFetchableUrl(model)) return bad(`model: '${model}' is not an http(s) URL`);
  }
  const labels = params.getAll('label');
  if (labels.length > MAX_SHARED_LABELS) return bad(`label: ${labels.length} labels, at most ${MAX_SHARED_LABELS}`);
  for (const raw of labels) {
    const p = raw.split(',').map((c) => (c.trim() === '' ? NaN : Number(c)));
    if (p.length !== 3 || !p.every(Number.isFinite)) return bad(`label: '${raw}' is not three numbers x,y,z`);
    (link.labels ??= []).push([p[0]!, p[1]!, p[2]!]);
  }
  return { ok: true, link };
}

function bad(message: string): ParsedShareLink {
  return { ok: false, error: { code: 'INVALID_ARGUMENT', message } };
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
