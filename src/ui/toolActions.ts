import type { ToolManifest } from '../engine';
import { importUrls, lostError, runTool } from './actions';
import { fieldsOf, valuesOf, type FieldValue } from './schemaForm';
import { call, cancelRun, keptFiles } from './session';
import { buildShareHash, parseShareHash } from './shareLink';
import { sceneStore, toolStore, type ToolCall, type ToolOutputFile } from './stores';

let manifestsLoading: Promise<ToolManifest[]> | undefined;

/** Told of every finished panel run (inspection views pick up their tool's results here). */
const resultListeners: ((call: ToolCall) => void)[] = [];

export function onPanelResult(listener: (call: ToolCall) => void): void {
  resultListeners.push(listener);
}

/** The registry's tools (name, description, category, JSON Schema), asked once from the worker. */
export function loadManifests(): Promise<ToolManifest[]> {
  manifestsLoading ??= call((c) => c.api.listTools()).then(
    (manifests) => {
      toolStore.setState((s) => ({ manifests, selected: s.selected ?? manifests.find((m) => m.category === 'scene')?.name ?? null }));
      return manifests;
    },
    (e: unknown) => {
      manifestsLoading = undefined;
      throw e;
    },
  );
  return manifestsLoading;
}

export function selectTool(name: string): void {
  toolStore.setState({ selected: name });
}

export function setFormValue(tool: string, path: string, value: FieldValue): void {
  toolStore.setState((s) => ({ forms: { ...s.forms, [tool]: { ...s.forms[tool], [path]: value } } }));
}

const MIME: Record<string, string> = { png: 'image/png', json: 'application/json', svg: 'image/svg+xml', csv: 'text/csv', txt: 'text/plain' };

function mimeOf(path: string): string {
  return MIME[path.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** Newest write sequence of the worker's output files, to tell which files a run wrote. */
async function outputSeq(): Promise<number> {
  try {
    const list = await call((c) => c.api.listOutputs());
    return list.reduce((m, o) => Math.max(m, o.seq), 0);
  } catch {
    return 0;
  }
}

async function outputsSince(seq: number): Promise<ToolOutputFile[]> {
  const list = await call((c) => c.api.listOutputs());
  const files: ToolOutputFile[] = [];
  for (const o of list.filter((x) => x.seq > seq).sort((a, b) => a.seq - b.seq)) {
    const bytes = await call((c) => c.api.readOutput(o.path));
    if (bytes) files.push({ path: o.path, bytes: new Uint8Array(bytes), mimeType: mimeOf(o.path) });
  }
  return files;
}

/**
 * Runs a tool from the panel (or a share link) in the worker, with progress; Cancel (or Escape)
 * terminates the worker. The result, with any files written, is kept per tool.
 */
export async function runFromPanel(tool: string, args: unknown): Promise<ToolCall> {
  if (toolStore.getState().running) throw new Error('a tool is already running');
  const startedAt = performance.now();
  toolStore.setState({ running: { tool, args, startedAt } });
  let frame = 0;
  let latest: { fraction: number; message?: string } | undefined;
  const onProgress = (fraction: number, message?: string) => {
    latest = message === undefined ? { fraction } : { fraction, message };
    // One store update per animation frame at most.
    frame ||= requestAnimationFrame(() => {
      frame = 0;
      const running = toolStore.getState().running;
      if (running && running.startedAt === startedAt && latest) toolStore.setState({ running: { ...running, ...latest } });
    });
  };
  let result: ToolCall;
  try {
    const seq = await outputSeq();
    const outcome = await runTool(tool, args, onProgress);
    const ms = Math.round(performance.now() - startedAt);
    if (outcome.ok) {
      let outputs: ToolOutputFile[] = [];
      try {
        outputs = await outputsSince(seq);
      } catch {
        // The worker went away after the run: the numbers are still worth showing.
      }
      result = { tool, args, ok: true, result: outcome.result, outputs, ms };
    } else {
      result = { tool, args, ok: false, error: outcome.error, ms };
    }
  } catch (e) {
    result = { tool, args, ok: false, error: lostError(e) };
  } finally {
    if (frame) cancelAnimationFrame(frame);
    toolStore.setState({ running: null });
  }
  toolStore.setState((s) => ({
    results: { ...s.results, [tool]: result },
    lastRun: result.ok ? { tool, args } : s.lastRun,
  }));
  sceneStore.setState({ lastToolResult: result });
  for (const l of resultListeners) l(result);
  return result;
}

/** Stops the running tool: its worker is terminated and the scene restored in a new one. */
export function cancelTool(): boolean {
  if (!toolStore.getState().running) return false;
  cancelRun();
  return true;
}

/** Applies a share link in the location hash: load its models, fill and run its tool. */
export async function openShareLink(hash: string): Promise<void> {
  const parsed = parseShareHash(hash);
  if (!parsed) return;
  if (!parsed.ok) {
    addLinkError(parsed.error.code, parsed.error.message);
    return;
  }
  const { link } = parsed;
  const [manifests] = await Promise.all([loadManifests(), importUrls(link.models)]);
  if (link.tool === undefined) return;
  const manifest = manifests.find((m) => m.name === link.tool);
  if (!manifest || manifest.category !== 'scene') {
    const known = manifests.filter((m) => m.category === 'scene').map((m) => m.name);
    addLinkError(manifest ? 'INVALID_ARGUMENT' : 'UNKNOWN_TOOL', `tool: '${link.tool}' ${manifest ? 'changes the scene and cannot run from a link' : 'is not a tool'}; tools: ${known.join(', ')}`);
    return;
  }
  const args = link.args ?? {};
  toolStore.setState((s) => ({ selected: manifest.name, forms: { ...s.forms, [manifest.name]: valuesOf(fieldsOf(manifest.inputSchema), args) } }));
  await runFromPanel(manifest.name, args);
}

function addLinkError(code: string, message: string): void {
  sceneStore.setState((s) => ({ errors: [...s.errors, { key: Date.now() + Math.random(), fileName: 'share link', code, message }] }));
}

/**
 * A link that rebuilds the scene and repeats the last tool run, or why there is none: every body
 * must have come from a URL.
 */
export function shareLink(): { ok: true; url: string } | { ok: false; reason: string } {
  const files = keptFiles();
  if (files.length === 0) return { ok: false, reason: 'the scene is empty' };
  const local = files.filter((f) => !f.sourceUrl).map((f) => f.bodyId);
  if (local.length) return { ok: false, reason: `${local.join(', ')} came from local files, which a link cannot carry` };
  const last = toolStore.getState().lastRun;
  const hash = buildShareHash({
    models: files.map((f) => f.sourceUrl ?? ''),
    ...(last ? { tool: last.tool, args: (last.args ?? {}) as Record<string, unknown> } : {}),
  });
  return { ok: true, url: `${window.location.href.split('#')[0]}${hash}` };
}
