import * as Comlink from 'comlink';
import wasmUrl from 'opencascade.js/dist/opencascade.full.wasm?url';
import {
  BrepscopeError,
  deviationHeatmap,
  displayEdges,
  displayMesh,
  Engine,
  getKernel,
  kernelStatus,
  onKernelStatus,
  setKernelLoader,
  toErrorPayload,
  type DisplayEdges,
  type DisplayMesh,
  type ErrorPayload,
  type FileAccess,
  type HeatmapData,
  type HeatmapOptions,
  type KernelStatus,
  type RunOptions,
  type ToolManifest,
} from '../engine';
import { createBrowserKernelLoader } from '../engine/kernel/loadBrowserKernel';
import sqlWasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';
import { graphSqliteBytes } from '../engine/graph/commands';
import { queryGraphSqlite, type GraphQueryResult } from '../engine/graph/graphSqlite';
import { graphValidate, type GraphValidateResult } from '../engine/graph/graphValidate';
import { getSqlJs, setSqlJsLoader } from '../engine/graph/sqlJs';
import { buildTopologyGraph } from '../engine/graph/topologyGraph';
import { kernelShape } from '../engine/scene/facetShape';

/** Every call that can fail answers with a value: exceptions never cross the worker boundary. */
export type Outcome<T> = { ok: true; result: T } | { ok: false; error: ErrorPayload };

export interface KernelState {
  status: KernelStatus;
  error?: string;
  /** Milliseconds from the start of loading to ready (or failure). */
  loadMs?: number;
}

/** Files the page handed over (read by name) and files tools wrote (kept for download). */
const inputs = new Map<string, Uint8Array>();
const outputs = new Map<string, Uint8Array>();
/** When each output was last written, so the page can tell which files one tool run wrote. */
const outputSeq = new Map<string, number>();
let outputCounter = 0;

const files: FileAccess = {
  async read(path) {
    const bytes = inputs.get(path);
    if (!bytes) {
      const known = [...inputs.keys()];
      throw new BrepscopeError('FILE_NOT_FOUND', `no loaded file named '${path}' (${known.length ? `files: ${known.join(', ')}` : 'no files loaded'})`);
    }
    return bytes;
  },
  async write(path, bytes) {
    outputs.set(path, bytes);
    outputSeq.set(path, ++outputCounter);
  },
};

setKernelLoader(createBrowserKernelLoader(wasmUrl));
// sql.js (1 MB wasm) loads only when a graph database is first asked for.
setSqlJsLoader(() => import('sql.js').then((m) => m.default({ locateFile: () => sqlWasmUrl })));
const engine = new Engine({ files, kernel: getKernel });

let loadStarted: number | undefined;
let loadMs: number | undefined;

function currentKernelState(): KernelState {
  const { status, error } = kernelStatus();
  const state: KernelState = { status };
  if (error !== undefined) state.error = error;
  if (loadMs !== undefined) state.loadMs = loadMs;
  return state;
}

onKernelStatus((status) => {
  if (status === 'loading') loadStarted = performance.now();
  else if ((status === 'ready' || status === 'failed') && loadStarted !== undefined) loadMs = Math.round(performance.now() - loadStarted);
});

/** At most one progress message per 100 ms (and always the last, 1), so a tight loop does not flood the page. */
function throttleProgress(report: (fraction: number, message?: string) => void): (fraction: number, message?: string) => void {
  let last = 0;
  return (fraction, message) => {
    const now = performance.now();
    if (fraction < 1 && now - last < 100) return;
    last = now;
    void Promise.resolve(report(fraction, message)).catch(() => undefined);
  };
}

function fail(e: unknown): { ok: false; error: ErrorPayload } {
  return { ok: false, error: toErrorPayload(e) };
}

const api = {
  /** Stores a file the page loaded; tools read it by this name (`import_file {path: name}`). */
  putFile(name: string, bytes: Uint8Array): void {
    inputs.set(name, bytes);
  },

  /** A file a tool wrote, for download. */
  readOutput(name: string): Uint8Array | undefined {
    return outputs.get(name);
  },

  /**
   * Runs a tool. `onProgress` (a Comlink proxy) receives the tool's progress reports; cancelling
   * is the page's job (it terminates the worker), so no signal is passed.
   */
  async runTool(name: string, args: unknown, onProgress?: (fraction: number, message?: string) => void): Promise<Outcome<unknown>> {
    try {
      const options: RunOptions = {};
      if (onProgress) options.progress = throttleProgress(onProgress);
      return { ok: true, result: await engine.run(name, args, options) };
    } catch (e) {
      return fail(e);
    }
  },

  /** Files tools wrote, with a sequence number that grows with every write (newest write wins). */
  listOutputs(): { path: string; size: number; seq: number }[] {
    return [...outputs].map(([path, bytes]) => ({ path, size: bytes.byteLength, seq: outputSeq.get(path) ?? 0 }));
  },

  /** For the e2e tests of crash recovery: an uncaught error in the worker, as a kernel abort would give. */
  crashForTest(): void {
    setTimeout(() => {
      throw new Error('brepscope: worker crash requested by a test');
    }, 0);
  },

  listTools(): ToolManifest[] {
    return engine.tools();
  },

  /** Triangles to draw a body; the buffers are transferred, not copied. Mesh bodies need no kernel. */
  async displayMesh(bodyId: string): Promise<Outcome<DisplayMesh>> {
    try {
      const body = engine.scene.get(bodyId);
      const mesh = displayMesh(body.kind === 'brep' ? await getKernel() : undefined, body);
      const buffers: ArrayBuffer[] = [mesh.positions.buffer, mesh.indices.buffer];
      if (mesh.faceIds) buffers.push(mesh.faceIds.buffer);
      return Comlink.transfer({ ok: true, result: mesh }, buffers);
    } catch (e) {
      return fail(e);
    }
  },

  /** A BREP body's edges as line segments with their edge[N] per segment (empty for meshes); transferred. */
  async displayEdges(bodyId: string): Promise<Outcome<DisplayEdges>> {
    try {
      const body = engine.scene.get(bodyId);
      const edges = displayEdges(body.kind === 'brep' ? await getKernel() : undefined, body);
      return Comlink.transfer({ ok: true, result: edges }, [edges.positions.buffer, edges.edgeIds.buffer]);
    } catch (e) {
      return fail(e);
    }
  },

  /**
   * Signed deviation per vertex of fromBodyId's display mesh (same vertex order as displayMesh;
   * NaN = ambiguous) against toBodyId, with its symmetric range; the array is transferred.
   */
  async deviationHeatmap(fromBodyId: string, toBodyId: string, options: HeatmapOptions = {}): Promise<Outcome<HeatmapData>> {
    try {
      const data = await deviationHeatmap({ scene: engine.scene, kernel: getKernel }, fromBodyId, toBodyId, options);
      return Comlink.transfer({ ok: true, result: data }, [data.values.buffer]);
    } catch (e) {
      return fail(e);
    }
  },

  /** The body's topology graph as a SQLite graph database (graph-export; docs/graph.md), for download. */
  async graphExport(bodyId: string): Promise<Outcome<Uint8Array>> {
    try {
      const body = engine.scene.get(bodyId);
      const oc = await getKernel();
      const bytes = graphSqliteBytes(await getSqlJs(), buildTopologyGraph(oc, kernelShape(oc, body)), body.source ?? body.name);
      return Comlink.transfer({ ok: true, result: bytes }, [bytes.buffer as ArrayBuffer]);
    } catch (e) {
      return fail(e);
    }
  },

  /**
   * graph-validate's health record for a scene body (docs/graph.md), on the body's own shape (an STL
   * as its facet compound). Self-intersection runs as the command's default ('auto': small shapes only).
   */
  async graphValidate(bodyId: string): Promise<Outcome<GraphValidateResult>> {
    try {
      const body = engine.scene.get(bodyId);
      const oc = await getKernel();
      return { ok: true, result: graphValidate(oc, kernelShape(oc, body), { selfIntersection: 'auto' }) };
    } catch (e) {
      return fail(e);
    }
  },

  /** graph-query on the bytes of a graph database (a dropped .sqlite file); needs no kernel. */
  async graphQuery(name: string, bytes: Uint8Array): Promise<Outcome<GraphQueryResult>> {
    try {
      return { ok: true, result: queryGraphSqlite(await getSqlJs(), bytes, name) };
    } catch (e) {
      return fail(e);
    }
  },

  kernelStatus(): KernelState {
    return currentKernelState();
  },

  /** Calls `listener` (a Comlink proxy) now and on every kernel status change. */
  subscribeKernelStatus(listener: (state: KernelState) => void): void {
    onKernelStatus(() => listener(currentKernelState()));
    listener(currentKernelState());
  },
};

export type EngineApi = typeof api;

Comlink.expose(api);

// Start loading the 55 MB kernel at once, in the background; failures are reported through the status.
// Mesh work (STL import and display) never awaits it.
setTimeout(() => {
  getKernel().catch(() => undefined);
}, 0);
