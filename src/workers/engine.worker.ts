import * as Comlink from 'comlink';
import wasmUrl from 'opencascade.js/dist/opencascade.full.wasm?url';
import {
  BrepscopeError,
  displayMesh,
  Engine,
  getKernel,
  kernelStatus,
  onKernelStatus,
  setKernelLoader,
  toErrorPayload,
  type DisplayMesh,
  type ErrorPayload,
  type FileAccess,
  type KernelStatus,
  type ToolManifest,
} from '../engine';
import { createBrowserKernelLoader } from '../engine/kernel/loadBrowserKernel';

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
  },
};

setKernelLoader(createBrowserKernelLoader(wasmUrl));
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

  async runTool(name: string, args: unknown): Promise<Outcome<unknown>> {
    try {
      return { ok: true, result: await engine.run(name, args) };
    } catch (e) {
      return fail(e);
    }
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
