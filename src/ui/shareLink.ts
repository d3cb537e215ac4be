/**
 * Share links: `#model=<url>&model=<url>&tool=<name>&args=<json>` (each value URI-encoded, as
 * URLSearchParams writes them). Nothing here is evaluated: URLs are only fetched, args only parsed
 * as JSON and handed to the engine, whose schemas validate them like any other call.
 */

export interface ShareLink {
  models: string[];
  tool?: string;
  args?: Record<string, unknown>;
}

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
  return `#${params.toString()}`;
}
