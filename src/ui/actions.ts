import type { BodySummary, DisplayEdges, DisplayMesh } from '../engine';
import type { MetricsResult } from '../engine/tools/computeMetrics';
import type { Outcome } from '../workers/client';
import { call, forget, isKernelAbort, keep, replaceWorker, reserveWorkerName, setSessionListeners, WorkerLost } from './session';
import { nextColor, sceneStore, type BodyEntry, type HoveredEntity, type MetricsState, type PendingImport, type SceneState, type ShownError, type ToolCall, type UiOutcome } from './stores';

let keyCounter = 0;
let colorCounter = 0;

/**
 * One worker call through the session; a lost worker (cancel, crash) and a kernel abort become
 * ordinary error outcomes. A kernel abort also replaces the worker, since its kernel is unusable.
 */
export async function runTool<T>(tool: string, args: unknown, onProgress?: (fraction: number, message?: string) => void): Promise<UiOutcome<T>> {
  let outcome: Outcome<T>;
  try {
    outcome = await call((c) => c.runTool<T>(tool, args, onProgress));
  } catch (e) {
    return { ok: false, error: lostError(e) };
  }
  if (isKernelAbort(outcome)) replaceWorker(new WorkerLost('WORKER_CRASHED', `the CAD kernel aborted in ${tool}`));
  return outcome;
}

export function lostError(e: unknown): ShownError {
  if (e instanceof WorkerLost) return { code: e.code, message: e.message };
  return { code: 'INTERNAL_ERROR', message: e instanceof Error ? e.message : String(e) };
}

function addError(fileName: string, code: string, message: string): void {
  sceneStore.setState((s) => ({ errors: [...s.errors, { key: ++keyCounter, fileName, code, message }] }));
}

export function dismissError(key: number): void {
  sceneStore.setState((s) => ({ errors: s.errors.filter((e) => e.key !== key) }));
}

setSessionListeners({
  bodiesLost(bodyIds, error) {
    dropBodies(bodyIds);
    addError(bodyIds.join(', '), error.code, error.message);
  },
  restored() {
    // compute_metrics calls that died with the old worker run again for the selected body.
    const { selectedId, metrics } = sceneStore.getState();
    if (selectedId && !metrics[selectedId]) void refreshMetrics(selectedId);
  },
});

function dropBodies(bodyIds: readonly string[]): void {
  sceneStore.setState((s) => {
    const metrics = { ...s.metrics };
    for (const id of bodyIds) delete metrics[id];
    return {
      bodies: s.bodies.filter((b) => !bodyIds.includes(b.bodyId)),
      metrics,
      selectedId: s.selectedId && bodyIds.includes(s.selectedId) ? null : s.selectedId,
      picked: s.picked && bodyIds.includes(s.picked.bodyId) ? null : s.picked,
      hovered: s.hovered && bodyIds.includes(s.hovered.bodyId) ? null : s.hovered,
    };
  });
  for (const id of bodyIds) {
    faceEntries.delete(id);
    edgeEntries.delete(id);
  }
}

function setPending(key: number, patch: Partial<PendingImport>): void {
  sceneStore.setState((s) => ({ pending: s.pending.map((p) => (p.key === key ? { ...p, ...patch } : p)) }));
}

/** Ids given out to imports still in flight, so two files named alike get box and box_2. */
const reservedIds = new Set<string>();

/**
 * The engine's default bodyId rule (the file name without folders and extension, made unique with
 * _2, _3 ...), applied on the page so concurrent imports cannot race for the same id.
 */
export function defaultBodyId(fileName: string, taken: (id: string) => boolean): string {
  const last = (fileName.split(/[?#]/)[0] ?? '').split(/[\\/]/).pop() ?? '';
  const dot = last.lastIndexOf('.');
  let base = dot > 0 ? last.slice(0, dot) : last;
  try {
    base = decodeURIComponent(base);
  } catch {
    // Not percent-encoded after all: keep it as it is.
  }
  const clean = base.trim() || 'body';
  if (!taken(clean)) return clean;
  for (let i = 2; ; i++) if (!taken(`${clean}_${i}`)) return `${clean}_${i}`;
}

function newBodyId(fileName: string): string {
  const bodies = sceneStore.getState().bodies;
  const id = defaultBodyId(fileName, (c) => reservedIds.has(c) || bodies.some((b) => b.bodyId === c));
  reservedIds.add(id);
  return id;
}

/** Reads a stream into one buffer, reporting the share read (when the size is known). */
async function readStream(
  stream: ReadableStream<Uint8Array>,
  size: number | undefined,
  onFraction: (fraction: number) => void,
): Promise<Uint8Array<ArrayBuffer>> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  let lastReport = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    const now = performance.now();
    if (size && now - lastReport > 100) {
      lastReport = now;
      onFraction(Math.min(1, received / size));
    }
  }
  const out = new Uint8Array(received);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** Loads files into the scene, all at once: an STL does not wait behind a STEP that needs the kernel. */
export async function importFiles(files: Iterable<File>): Promise<void> {
  await Promise.all(
    [...files].map(async (file) => {
      const key = ++keyCounter;
      sceneStore.setState((s) => ({ pending: [...s.pending, { key, fileName: file.name, stage: 'reading', fraction: 0 }] }));
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        bytes = await readStream(file.stream(), file.size, (fraction) => setPending(key, { fraction }));
      } catch (e) {
        sceneStore.setState((s) => ({ pending: s.pending.filter((p) => p.key !== key) }));
        addError(file.name, 'FILE_NOT_FOUND', `could not read ${file.name}: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      await importBytes(file.name, bytes, { key });
    }),
  );
}

/**
 * Downloads models (share links, the demo) and imports them in the given order of ids: each body is
 * named after its URL's file name, made unique. Resolves with the bodyIds that arrived.
 */
export async function importUrls(urls: readonly string[]): Promise<string[]> {
  const jobs = urls.map((raw) => {
    const key = ++keyCounter;
    let url: URL | undefined;
    try {
      url = new URL(raw, document.baseURI);
    } catch {
      url = undefined;
    }
    const fileName = url ? decodeSafe(url.pathname.split('/').pop() ?? '') || 'model' : raw;
    // Ids are handed out in link order, before any download finishes.
    const bodyId = url && (url.protocol === 'http:' || url.protocol === 'https:') ? newBodyId(fileName) : undefined;
    return { key, raw, url, fileName, bodyId };
  });
  const ids = await Promise.all(
    jobs.map(async ({ key, raw, url, fileName, bodyId }) => {
      if (!url || bodyId === undefined) {
        addError(raw, 'INVALID_ARGUMENT', `model: '${raw}' is not an http(s) URL`);
        return undefined;
      }
      sceneStore.setState((s) => ({ pending: [...s.pending, { key, fileName, stage: 'downloading', fraction: 0 }] }));
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        const response = await fetch(url);
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
        const length = Number(response.headers.get('content-length'));
        bytes = await readStream(response.body, length > 0 ? length : undefined, (fraction) => setPending(key, { fraction }));
      } catch (e) {
        reservedIds.delete(bodyId);
        sceneStore.setState((s) => ({ pending: s.pending.filter((p) => p.key !== key) }));
        addError(fileName, 'FILE_NOT_FOUND', `could not download ${url.href}: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      }
      return importBytes(fileName, bytes, { key, bodyId, sourceUrl: url.href });
    }),
  );
  return ids.filter((id): id is string => id !== undefined);
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * One file -> one body: bytes to the worker, import_file, then its triangles for the viewport. The
 * bytes are kept for restoring the scene in a new worker. Resolves with the bodyId, or undefined.
 */
export async function importBytes(
  fileName: string,
  bytes: Uint8Array<ArrayBuffer>,
  options: { key?: number; bodyId?: string; sourceUrl?: string } = {},
): Promise<string | undefined> {
  const key = options.key ?? ++keyCounter;
  if (options.key === undefined) sceneStore.setState((s) => ({ pending: [...s.pending, { key, fileName, stage: 'importing' }] }));
  else setPending(key, { stage: 'importing', fraction: 1 });
  const bodyId = options.bodyId ?? newBodyId(fileName);
  const workerName = reserveWorkerName(fileName);
  try {
    let outcome: Outcome<BodySummary> | undefined;
    // A cancelled tool run takes the worker down with it; an import caught in that goes again.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        outcome = await call(async (c) => {
          await c.putFile(workerName, bytes.slice());
          return c.runTool<BodySummary>('import_file', { path: workerName, bodyId });
        });
        break;
      } catch (e) {
        if (e instanceof WorkerLost && e.code === 'CANCELLED' && attempt === 0) continue;
        const err = lostError(e);
        addError(fileName, err.code, err.code === 'WORKER_CRASHED' ? `the engine crashed while importing this file: ${err.message}` : err.message);
        return undefined;
      }
    }
    if (!outcome) return undefined;
    if (!outcome.ok) {
      if (isKernelAbort(outcome)) replaceWorker(new WorkerLost('WORKER_CRASHED', `the CAD kernel aborted while importing ${fileName}`));
      addError(fileName, outcome.error.code, outcome.error.message);
      return undefined;
    }
    const summary = outcome.result;
    keep({ workerName, bytes, tool: 'import_file', options: {}, bodyId: summary.bodyId, order: key, ...(options.sourceUrl ? { sourceUrl: options.sourceUrl } : {}) });
    const entry: BodyEntry = { bodyId: summary.bodyId, summary, color: nextColor(colorCounter++), visible: true, opacity: 1 };
    if (options.sourceUrl) entry.sourceUrl = options.sourceUrl;
    sceneStore.setState((s) => ({ bodies: [...s.bodies, entry] }));
    setPending(key, { stage: 'drawing' });
    if (sceneStore.getState().selectedId === null) selectBody(summary.bodyId);
    try {
      const mesh: Outcome<DisplayMesh> = await call((c) => c.api.displayMesh(summary.bodyId) as Promise<Outcome<DisplayMesh>>);
      updateBody(summary.bodyId, mesh.ok ? { mesh: mesh.result } : { meshError: mesh.error });
      if (mesh.ok) sceneStore.setState((s) => ({ fitToken: s.fitToken + 1 }));
    } catch (e) {
      updateBody(summary.bodyId, { meshError: lostError(e) });
    }
    // Edge lines come after the faces (the body is drawn meanwhile); without them edges are not pickable.
    if (summary.kind === 'brep') {
      try {
        const edges: Outcome<DisplayEdges> = await call((c) => c.api.displayEdges(summary.bodyId) as Promise<Outcome<DisplayEdges>>);
        if (edges.ok) updateBody(summary.bodyId, { edges: edges.result });
      } catch {
        // A lost worker: the body keeps its faces; the restore does not re-fetch display data.
      }
    }
    return summary.bodyId;
  } finally {
    reservedIds.delete(bodyId);
    sceneStore.setState((s) => ({ pending: s.pending.filter((p) => p.key !== key) }));
  }
}

function updateBody(bodyId: string, patch: Partial<Pick<BodyEntry, 'mesh' | 'meshError' | 'edges' | 'visible' | 'color' | 'opacity'>>): void {
  sceneStore.setState((s) => ({ bodies: s.bodies.map((b) => (b.bodyId === bodyId ? { ...b, ...patch } : b)) }));
}

export function setVisible(bodyId: string, visible: boolean): void {
  updateBody(bodyId, { visible });
}

export function setColor(bodyId: string, color: string): void {
  updateBody(bodyId, { color });
}

export function setOpacity(bodyId: string, opacity: number): void {
  updateBody(bodyId, { opacity: Math.min(1, Math.max(0.1, opacity)) });
}

/** Selects a body and shows its compute_metrics result (run once per body). */
export function selectBody(bodyId: string | null): void {
  sceneStore.setState({ selectedId: bodyId });
  if (bodyId === null || sceneStore.getState().metrics[bodyId]) return;
  void refreshMetrics(bodyId);
}

async function refreshMetrics(bodyId: string): Promise<void> {
  const setMetrics = (m: MetricsState | undefined) =>
    sceneStore.setState((s) => {
      const metrics = { ...s.metrics };
      if (m) metrics[bodyId] = m;
      else delete metrics[bodyId];
      return { metrics };
    });
  setMetrics({ status: 'running' });
  // The tight box instead of the spec's default one: the card's box size is the part's, not its B-spline control hull's.
  const args = { bodyId, metrics: ['volume', 'surfaceArea', 'centerOfMass', 'boundingBoxOptimal', 'principalAxes'] };
  const outcome = await runTool<MetricsResult>('compute_metrics', args);
  if (!outcome.ok && (outcome.error.code === 'CANCELLED' || outcome.error.code === 'WORKER_CRASHED')) {
    // Lost with its worker: asked again once the scene is back (session `restored`).
    setMetrics(undefined);
    return;
  }
  if (!sceneStore.getState().bodies.some((b) => b.bodyId === bodyId)) return;
  setMetrics(outcome.ok ? { status: 'done', result: outcome.result } : { status: 'failed', error: outcome.error });
  const call: ToolCall = outcome.ok ? { tool: 'compute_metrics', args, ok: true, result: outcome.result } : { tool: 'compute_metrics', args, ok: false, error: outcome.error };
  sceneStore.setState({ lastToolResult: call });
}

export async function removeBody(bodyId: string): Promise<void> {
  const outcome = await runTool('remove_body', { bodyId });
  if (!outcome.ok) {
    addError(bodyId, outcome.error.code, outcome.error.message);
    return;
  }
  forget([bodyId]);
  dropBodies([bodyId]);
}

/** Fits the camera to the scene, looking along `direction` (default: the current one). */
export function fitView(direction: SceneState['viewDirection'] = 'current'): void {
  sceneStore.setState((s) => ({ fitToken: s.fitToken + 1, viewDirection: direction }));
}

/** The face or edge under the cursor (`index` null: the cursor left that body's faces or edges). */
export function setHovered(bodyId: string, index: number | null, entity: HoveredEntity['entity'] = 'face'): void {
  const h = sceneStore.getState().hovered;
  if (index === null) {
    if (h?.bodyId === bodyId && h.entity === entity) sceneStore.setState({ hovered: null });
  } else if (!h || h.bodyId !== bodyId || h.entity !== entity || h.index !== index) {
    sceneStore.setState({ hovered: { bodyId, entity, index } });
  }
}

export const DEMO_FILES = ['part.brep', 'scan.stl'] as const;

/** The built-in demo: a CAD part and a scan-like mesh of it, served from public/demo. */
export async function openDemo(): Promise<string[]> {
  return importUrls(DEMO_FILES.map((name) => `${import.meta.env.BASE_URL}demo/${name}`));
}

/** Faces and edges of a BREP body as query_topology lists them, asked once per body (the first pick). */
const faceEntries = new Map<string, Promise<UiOutcome<unknown[]>>>();
const edgeEntries = new Map<string, Promise<UiOutcome<unknown[]>>>();

/**
 * Shows the picked face (`face[N]`: a BREP face from the display mesh's faceIds, or an STL
 * triangle) with its query_topology entry.
 */
export function pickFace(bodyId: string, index: number): Promise<void> {
  return pickEntity(bodyId, 'face', index);
}

/** Shows the picked BREP edge (`edge[N]`, from the display edges' edgeIds) with its query_topology entry. */
export function pickEdge(bodyId: string, index: number): Promise<void> {
  return pickEntity(bodyId, 'edge', index);
}

async function pickEntity(bodyId: string, entity: 'face' | 'edge', index: number): Promise<void> {
  const body = sceneStore.getState().bodies.find((b) => b.bodyId === bodyId);
  if (!body) return;
  const id = `${entity}[${index}]`;
  sceneStore.setState({ picked: { bodyId, entity, id, status: 'loading' } });
  let outcome: UiOutcome<unknown[]>;
  if (body.summary.kind === 'brep') {
    const cache = entity === 'face' ? faceEntries : edgeEntries;
    let all = cache.get(bodyId);
    if (!all) {
      all = runTool<unknown[]>('query_topology', { bodyId, entity });
      cache.set(bodyId, all);
    }
    outcome = await all;
    if (!outcome.ok) cache.delete(bodyId);
  } else {
    // A mesh has a face per triangle: ask only for the first index + 1.
    outcome = await runTool<unknown[]>('query_topology', { bodyId, entity, limit: index + 1 });
  }
  const still = sceneStore.getState().picked;
  if (!still || still.bodyId !== bodyId || still.id !== id) return;
  if (!outcome.ok) {
    sceneStore.setState({ picked: { bodyId, entity, id, status: 'failed', error: outcome.error } });
    return;
  }
  const entry = outcome.result.find((e) => (e as { id?: unknown }).id === id);
  sceneStore.setState({ picked: { bodyId, entity, id, status: 'done', entry } });
}

export function clearPick(): void {
  sceneStore.setState({ picked: null });
}
