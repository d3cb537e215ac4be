import { defaultBodyId, isKernelAbort, type BodySummary, type Outcome, type RunOutcome, type ScanUnit } from '../engine';
import type { FileData } from '../workers/client';
import { lostError, session, WorkerLost } from './session';
import { sceneStore, takeColor, takeKey, type BodyEntry, type BodyValidation, type MetricsState, type PendingImport, type ShownError } from './stores';

/** Actions on the scene's bodies: importing (files, URLs), drawing, selecting, removing. */

export function addError(fileName: string, code: string, message: string): void {
  const key = takeKey();
  sceneStore.setState((s) => ({ errors: [...s.errors, { key, fileName, code, message }] }));
}

export function dismissError(key: number): void {
  sceneStore.setState((s) => ({ errors: s.errors.filter((e) => e.key !== key) }));
}

export function dismissAllErrors(): void {
  sceneStore.setState({ errors: [] });
}

/** Bodies gone from the scene (removed, or lost in a restore) leave every page state that named them. */
export function dropBodies(bodyIds: readonly string[]): void {
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
}

/** The session lost bodies in a restore: they leave the list, with the reason as an error card. */
export function bodiesLost(bodyIds: string[], error: ShownError): void {
  dropBodies(bodyIds);
  addError(bodyIds.join(', '), error.code, error.message);
}

function setPending(key: number, patch: Partial<PendingImport>): void {
  sceneStore.setState((s) => ({ pending: s.pending.map((p) => (p.key === key ? { ...p, ...patch } : p)) }));
}

function addPending(pending: PendingImport): void {
  sceneStore.setState((s) => ({ pending: [...s.pending, pending] }));
}

function removePending(key: number): void {
  sceneStore.setState((s) => ({ pending: s.pending.filter((p) => p.key !== key) }));
}

/** The engine's default bodyId rule, applied when the import starts so concurrent imports cannot race for an id. */
function newBodyId(fileName: string): string {
  const bodies = sceneStore.getState().bodies;
  return session().reserveBodyId((taken) => defaultBodyId(fileName, (c) => taken(c) || bodies.some((b) => b.bodyId === c)));
}

/** Reads a download into one buffer, reporting the share read (when the size is known). */
async function readStream(stream: ReadableStream<Uint8Array>, size: number | undefined, onFraction: (fraction: number) => void): Promise<Uint8Array<ArrayBuffer>> {
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

/**
 * Loads files into the scene, all at once: an STL does not wait behind a STEP that needs the kernel.
 * A local file is read by the browser off the page's thread (`arrayBuffer`, one answer): reading it
 * in chunks here cost a 50 MB scan 140 ms of this thread in one task.
 */
export async function importFiles(files: Iterable<File>): Promise<void> {
  await Promise.all(
    [...files].map(async (file) => {
      const key = takeKey();
      addPending({ key, fileName: file.name, stage: 'reading' });
      // The File itself goes to the worker, which reads it (no 50 MB read or copy on the page's
      // thread), and the page keeps it for restores (a Blob does not change).
      await importBytes(file.name, file, { key });
    }),
  );
}

/**
 * Downloads models (share links, the demo) and imports them in the given order of ids: each body is
 * named after its URL's file name, made unique. Resolves with the bodyIds that arrived.
 */
export async function importUrls(urls: readonly string[], options: { onImported?: (bodyId: string) => void } = {}): Promise<string[]> {
  const jobs = urls.map((raw) => {
    const key = takeKey();
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
      addPending({ key, fileName, stage: 'downloading', fraction: 0 });
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        const response = await fetch(url);
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
        const length = Number(response.headers.get('content-length'));
        bytes = await readStream(response.body, length > 0 ? length : undefined, (fraction) => setPending(key, { fraction }));
      } catch (e) {
        session().releaseBodyId(bodyId);
        removePending(key);
        addError(fileName, 'FILE_NOT_FOUND', `could not download ${url.href}: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      }
      return importBytes(fileName, bytes, { key, bodyId, sourceUrl: url.href, ...(options.onImported ? { onImported: options.onImported } : {}) });
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
  bytes: FileData,
  options: {
    key?: number;
    bodyId?: string;
    sourceUrl?: string;
    /** Told once the body is in the scene and its drawing asked for (the worker's next calls queue behind it), before it is drawn. */
    onImported?: (bodyId: string) => void;
    /** The length unit of a scan file without one (import_file's `unit`). */
    unit?: ScanUnit;
  } = {},
): Promise<string | undefined> {
  const key = options.key ?? takeKey();
  if (options.key === undefined) addPending({ key, fileName, stage: 'importing' });
  else setPending(key, { stage: 'importing', fraction: 1 });
  const bodyId = options.bodyId ?? newBodyId(fileName);
  const s = session();
  const workerName = s.reserveWorkerName(fileName);
  try {
    let outcome: Outcome<RunOutcome<BodySummary>> | undefined;
    // A cancelled tool run takes the worker down with it; an import caught in that goes again.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        // A Blob (a dropped File) goes as a handle; bytes are copied in a task of their own and the copy moved.
        const moved = bytes instanceof Uint8Array ? await copyInOwnTask(bytes) : bytes;
        outcome = await s.call(async (c): Promise<Outcome<RunOutcome<BodySummary>>> => {
          try {
            await c.putFile(workerName, moved);
          } catch (e) {
            // The worker could not read the dropped file (moved or deleted since the drop).
            if (e instanceof WorkerLost) throw e;
            return { ok: false, error: { code: 'FILE_NOT_FOUND', message: `could not read ${fileName}: ${e instanceof Error ? e.message : String(e)}` } };
          }
          return c.run('import_file', { path: workerName, bodyId, ...(options.unit ? { unit: options.unit } : {}) });
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
      if (isKernelAbort(outcome.error)) s.replaceWorker(new WorkerLost('WORKER_CRASHED', `the CAD kernel aborted while importing ${fileName}`));
      addError(fileName, outcome.error.code, inUserTerms(outcome.error.message, workerName, fileName));
      return undefined;
    }
    const summary = outcome.value.result;
    s.keep({ bodyId: summary.bodyId, path: workerName, fileName, bytes, order: key, ...(options.sourceUrl ? { sourceUrl: options.sourceUrl } : {}), ...(options.unit ? { unit: options.unit } : {}) });
    const entry: BodyEntry = { bodyId: summary.bodyId, summary, color: takeColor(), visible: true, opacity: 1 };
    if (options.sourceUrl) entry.sourceUrl = options.sourceUrl;
    sceneStore.setState((st) => ({ bodies: [...st.bodies, entry] }));
    setPending(key, { stage: 'drawing' });
    if (sceneStore.getState().selectedId === null) selectBody(summary.bodyId);
    const drawn = drawBody(summary);
    options.onImported?.(summary.bodyId);
    await drawn;
    return summary.bodyId;
  } finally {
    s.releaseBodyId(bodyId);
    removePending(key);
  }
}

/** A copy of the bytes, made after the page had a turn (a 50 MB copy takes 30 ms: not in the task that showed the import). */
async function copyInOwnTask(bytes: Uint8Array): Promise<Uint8Array> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  return bytes.slice();
}

/**
 * An engine message about a file in the names the user knows: the worker's file table may hold it as
 * `2/part.step` (a second file of the same name), which is the page's business, not the user's.
 */
export function inUserTerms(message: string, workerName: string, fileName: string): string {
  return workerName === fileName ? message : message.split(workerName).join(fileName);
}

/**
 * A body that moved (an alignment applied or undone): its new summary (placement) and its triangles
 * where it now stands; the camera stays where it is.
 */
export async function redrawMovedBody(summary: BodySummary): Promise<void> {
  sceneStore.setState((s) => ({ bodies: s.bodies.map((b) => (b.bodyId === summary.bodyId ? { ...b, summary } : b)), metrics: withoutKey(s.metrics, summary.bodyId) }));
  const mesh = await session().run('display_mesh', { bodyId: summary.bodyId });
  updateBody(summary.bodyId, mesh.ok ? { mesh: mesh.value.result } : { meshError: mesh.error });
  if (summary.kind !== 'brep') return;
  const edges = await session().run('display_edges', { bodyId: summary.bodyId });
  if (edges.ok) updateBody(summary.bodyId, { edges: edges.value.result });
}

function withoutKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  const out = { ...record };
  delete out[key];
  return out;
}

/** The body's triangles (and a BREP body's edge lines after them) for the viewport. */
async function drawBody(summary: BodySummary): Promise<void> {
  const meshCall = session().run('display_mesh', { bodyId: summary.bodyId });
  // Asked for at once, so the worker computes the edge lines right after the faces while the page
  // draws the faces (not after a round trip through the page: 0.15 to 0.2 s of a cold demo).
  const edgesCall = summary.kind === 'brep' ? session().run('display_edges', { bodyId: summary.bodyId }) : undefined;
  const mesh = await meshCall;
  updateBody(summary.bodyId, mesh.ok ? { mesh: mesh.value.result } : { meshError: mesh.error });
  if (mesh.ok) sceneStore.setState((s) => ({ fitToken: s.fitToken + 1 }));
  // Edge lines come after the faces (the body is drawn meanwhile); without them edges are not pickable.
  if (!edgesCall) return;
  const edges = await edgesCall;
  // A lost worker: the body keeps its faces; the restore does not re-fetch display data.
  if (edges.ok) updateBody(summary.bodyId, { edges: edges.value.result });
}

function updateBody(bodyId: string, patch: Partial<Pick<BodyEntry, 'mesh' | 'meshError' | 'edges' | 'visible' | 'color' | 'opacity' | 'validation'>>): void {
  sceneStore.setState((s) => ({ bodies: s.bodies.map((b) => (b.bodyId === bodyId ? { ...b, ...patch } : b)) }));
}

/** A validation finished: the body's badge shows its verdict from now on (the latest validation wins). */
export function recordValidation(bodyId: string, validation: BodyValidation): void {
  updateBody(bodyId, { validation });
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

/** After a restore: compute_metrics calls that died with the old worker run again for the selected body. */
export function restored(): void {
  const { selectedId, metrics } = sceneStore.getState();
  if (selectedId && !metrics[selectedId]) void refreshMetrics(selectedId);
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
  // The tight box as well as the spec's: the card's box size is the part's, not its B-spline control hull's.
  const args: { bodyId: string; metrics: ('volume' | 'surfaceArea' | 'centerOfMass' | 'boundingBox' | 'boundingBoxOptimal' | 'principalAxes')[] } = { bodyId, metrics: ['volume', 'surfaceArea', 'centerOfMass', 'boundingBox', 'boundingBoxOptimal', 'principalAxes'] };
  const outcome = await session().run('compute_metrics', args);
  if (!outcome.ok && (outcome.error.code === 'CANCELLED' || outcome.error.code === 'WORKER_CRASHED')) {
    // Lost with its worker: asked again once the scene is back (session `restored`).
    setMetrics(undefined);
    return;
  }
  if (!sceneStore.getState().bodies.some((b) => b.bodyId === bodyId)) return;
  if (outcome.ok) {
    setMetrics({ status: 'done', result: outcome.value.result });
    sceneStore.setState({ lastToolResult: { tool: 'compute_metrics', args, ok: true, result: outcome.value.result, outputs: outcome.value.outputs, ms: 0 } });
  } else {
    setMetrics({ status: 'failed', error: outcome.error });
    sceneStore.setState({ lastToolResult: { tool: 'compute_metrics', args, ok: false, error: outcome.error } });
  }
}

/**
 * A scan read again from its file in another length unit (its file declares none): the body is
 * removed and imported again under the same id, so alignments and results made with the old size go.
 */
export async function readInUnit(bodyId: string, unit: ScanUnit): Promise<void> {
  const file = session().keptFiles().find((f) => f.bodyId === bodyId);
  if (!file) return;
  await removeBody(bodyId);
  if (sceneStore.getState().bodies.some((b) => b.bodyId === bodyId)) return;
  await importBytes(file.fileName ?? file.path, file.bytes, { bodyId, unit, ...(file.sourceUrl ? { sourceUrl: file.sourceUrl } : {}) });
}

export async function removeBody(bodyId: string): Promise<void> {
  const outcome = await session().run('remove_body', { bodyId });
  if (!outcome.ok) {
    addError(bodyId, outcome.error.code, outcome.error.message);
    return;
  }
  session().forget([bodyId]);
  dropBodies([bodyId]);
}
