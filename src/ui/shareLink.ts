/**
 * Share links: `#model=<url>&model=<url>&tool=<name>&args=<json>&tool=<name>&args=<json>&label=<x,y,z>...`
 * (each value URI-encoded, as URLSearchParams writes them; labels are the deviation review's, issue
 * 16). The `tool` entries are a sequence of runs in link order, each `args` belonging to the `tool`
 * before it; a link with one `tool` and one `args` pairs them in either order (the links written
 * before runs were a sequence). Nothing here is evaluated: URLs are only fetched, args only parsed as
 * JSON and handed to the engine, whose schemas validate them like any other call.
 */

export interface ShareRun {
  tool: string;
  args?: Record<string, unknown>;
}

export interface ShareLink {
  models: string[];
  /** Tool runs, in order, after the models are imported. */
  runs: ShareRun[];
  /** Deviation labels placed on the heat map, in order. */
  labels?: [number, number, number][];
  /** The inspection's own settings (issue 29.6): tolerance, verdict rule, roles, title block. */
  inspection?: SharedInspection;
}

/** `tol`, `pass`, `nominal`, `on` and the title block's `part`, `rev`, `serial`, `operator`, `date`. */
export interface SharedInspection {
  tolerance?: number;
  passShare?: number;
  nominal?: string;
  colorOn?: 'actual' | 'nominal';
  titleBlock?: { part?: string; revision?: string; serial?: string; operator?: string; date?: string };
}

/** Title block keys in links (short, as a user may read them) and in the title block. */
const TITLE_KEYS = [
  ['part', 'part'],
  ['rev', 'revision'],
  ['serial', 'serial'],
  ['operator', 'operator'],
  ['date', 'date'],
] as const;

/** As deviation_labels takes at most. */
export const MAX_SHARED_LABELS = 100;
/** Runs in one link: a placement per moved body and the last run leave room for large scenes. */
export const MAX_SHARED_RUNS = 50;

export interface ShareLinkError {
  code: 'INVALID_ARGUMENT';
  message: string;
}

/**
 * A link as far as it can be used, and what is wrong with the rest: a bad model (not an http(s) URL)
 * is left out with an error and the others still load. A bad run (a tool name that is not one, args
 * that are not a JSON object, args without a tool) leaves out every run, with an error for each bad
 * one: later runs may build on earlier ones (a placement before a measurement), so a part of the
 * sequence could show what the link's author never saw.
 */
export interface ParsedShareLink {
  link: ShareLink;
  errors: ShareLinkError[];
}

/** One `tool` entry and the raw `args` that belong to it. */
interface RawRun {
  tool: string;
  args?: string;
}

/** The link in a location hash, null when the hash is not a share link (no model and no tool). */
export function parseShareHash(hash: string): ParsedShareLink | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const models = params.getAll('model');
  const tools = params.getAll('tool');
  if (models.length === 0 && tools.length === 0) return null;
  const errors: ShareLinkError[] = [];
  const bad = (message: string) => errors.push({ code: 'INVALID_ARGUMENT', message });
  const link: ShareLink = { models: [], runs: [] };
  for (const model of models) {
    if (isFetchableUrl(model)) link.models.push(model);
    else bad(`model: '${model}' is not an http(s) URL`);
  }
  const runs = parseRuns(params, bad);
  if (runs) link.runs = runs;
  const labels = params.getAll('label');
  if (labels.length > MAX_SHARED_LABELS) bad(`label: ${labels.length} labels, at most ${MAX_SHARED_LABELS}`);
  else {
    for (const raw of labels) {
      const p = raw.split(',').map((c) => (c.trim() === '' ? NaN : Number(c)));
      if (p.length !== 3 || !p.every(Number.isFinite)) bad(`label: '${raw}' is not three numbers x,y,z`);
      else (link.labels ??= []).push([p[0]!, p[1]!, p[2]!]);
    }
  }
  const inspection = parseInspection(params, bad);
  if (inspection) link.inspection = inspection;
  return { link, errors };
}

/** The inspection settings a link carries, each checked (a bad one is left out with an error). */
function parseInspection(params: URLSearchParams, bad: (message: string) => void): SharedInspection | null {
  const out: SharedInspection = {};
  const tol = params.get('tol');
  if (tol !== null) {
    const v = Number(tol);
    if (tol.trim() !== '' && Number.isFinite(v) && v >= 0) out.tolerance = v;
    else bad(`tol: '${tol}' is not a tolerance (a number >= 0)`);
  }
  const pass = params.get('pass');
  if (pass !== null) {
    const v = Number(pass);
    if (pass.trim() !== '' && v > 0 && v <= 1) out.passShare = v;
    else bad(`pass: '${pass}' is not a share in (0, 1]`);
  }
  const nominal = params.get('nominal');
  if (nominal) out.nominal = nominal;
  const on = params.get('on');
  if (on === 'actual' || on === 'nominal') out.colorOn = on;
  else if (on !== null) bad(`on: '${on}' is not actual or nominal`);
  for (const [key, field] of TITLE_KEYS) {
    const v = params.get(key);
    if (v !== null && v !== '') (out.titleBlock ??= {})[field] = v.slice(0, 200);
  }
  return Object.keys(out).length ? out : null;
}

/** The link's runs, or null (each fault reported) when any of them cannot be used. */
function parseRuns(params: URLSearchParams, bad: (message: string) => void): ShareRun[] | null {
  const raw = rawRuns(params, bad);
  if (!raw) return null;
  if (raw.length > MAX_SHARED_RUNS) {
    bad(`tool: ${raw.length} runs, at most ${MAX_SHARED_RUNS}; none was run`);
    return null;
  }
  // A single run's messages stay as they were before links carried several.
  const where = (i: number) => (raw.length > 1 ? `run ${i + 1} of ${raw.length}: ` : '');
  const runs: ShareRun[] = [];
  let ok = true;
  raw.forEach((r, i) => {
    if (!/^[a-z][a-z0-9_]*$/.test(r.tool)) {
      bad(`${where(i)}tool: '${r.tool}' is not a tool name`);
      ok = false;
      return;
    }
    if (r.args === undefined) {
      runs.push({ tool: r.tool });
      return;
    }
    const args = parseArgs(r.args);
    if (typeof args === 'string') {
      // Without usable args the tool would run with other arguments than the link asked for.
      bad(`${where(i)}${args}; the tool was not run`);
      ok = false;
    } else runs.push({ tool: r.tool, args });
  });
  if (!ok && raw.length > 1) bad(`tool: none of the link's ${raw.length} runs was run (each may build on the one before)`);
  return ok ? runs : null;
}

/** `tool` entries with the `args` after each, in link order; null when an `args` has no tool of its own. */
function rawRuns(params: URLSearchParams, bad: (message: string) => void): RawRun[] | null {
  const tools = params.getAll('tool');
  const args = params.getAll('args');
  if (tools.length === 1 && args.length === 1) return [{ tool: tools[0]!, args: args[0]! }];
  const runs: RawRun[] = [];
  let ok = true;
  for (const [key, value] of params) {
    if (key === 'tool') runs.push({ tool: value });
    else if (key === 'args') {
      const run = runs.at(-1);
      if (!run) {
        bad('args: given without tool');
        ok = false;
      } else if (run.args !== undefined) {
        bad(`args: run ${runs.length} (${run.tool}) has two args`);
        ok = false;
      } else run.args = value;
    }
  }
  return ok ? runs : null;
}

/** The args object, or why there is none. */
function parseArgs(raw: string): Record<string, unknown> | string {
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch (e) {
    return `args: not valid JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) return 'args: must be a JSON object';
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

/** The hash for a link (with its leading #): each run's `tool`, then its `args` (when it has any). */
export function buildShareHash(link: Omit<ShareLink, 'runs'> & { runs: readonly { tool: string; args?: unknown }[] }): string {
  const params = new URLSearchParams();
  for (const m of link.models) params.append('model', m);
  for (const run of link.runs) {
    params.append('tool', run.tool);
    if (run.args !== undefined) params.append('args', JSON.stringify(run.args));
  }
  for (const p of link.labels ?? []) params.append('label', p.join(','));
  const i = link.inspection;
  if (i?.tolerance !== undefined) params.append('tol', String(i.tolerance));
  if (i?.passShare !== undefined) params.append('pass', String(i.passShare));
  if (i?.nominal) params.append('nominal', i.nominal);
  if (i?.colorOn) params.append('on', i.colorOn);
  for (const [key, field] of TITLE_KEYS) {
    const v = i?.titleBlock?.[field];
    if (v) params.append(key, v);
  }
  return `#${params.toString()}`;
}
