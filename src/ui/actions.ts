import type { BodySummary } from '../engine';
import type { MetricsResult } from '../engine/tools/computeMetrics';
import { createEngineClient, type EngineClient, type Outcome } from '../workers/client';
import { kernelStore, nextColor, sceneStore, type BodyEntry, type MetricsState, type ToolCall } from './stores';

let client: EngineClient | undefined;
let keyCounter = 0;
let colorCounter = 0;

/** The engine worker, started on first use; the kernel starts loading in it at once. */
export function engineClient(): EngineClient {
  if (!client) {
    client = createEngineClient();
    void client.subscribeKernelStatus((state) => kernelStore.setState(state, true));
  }
  return client;
}

async function runTool<T>(tool: string, args: unknown): Promise<Outcome<T>> {
  const outcome = await engineClient().runTool<T>(tool, args);
  const call: ToolCall = outcome.ok ? { tool, args, ok: true, result: outcome.result } : { tool, args, ok: false, error: outcome.error };
  sceneStore.setState({ lastToolResult: call });
  return outcome;
}

function addError(fileName: string, code: string, message: string): void {
  sceneStore.setState((s) => ({ errors: [...s.errors, { key: ++keyCounter, fileName, code, message }] }));
}

export function dismissError(key: number): void {
  sceneStore.setState((s) => ({ errors: s.errors.filter((e) => e.key !== key) }));
}

/** Loads files into the scene, all at once: an STL does not wait behind a STEP that needs the kernel. */
export async function importFiles(files: Iterable<File>): Promise<void> {
  await Promise.all([...files].map(async (file) => importBytes(file.name, new Uint8Array(await file.arrayBuffer()))));
}

/** One file -> one body: bytes to the worker, import_file, then its triangles for the viewport. */
export async function importBytes(fileName: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
  const key = ++keyCounter;
  sceneStore.setState((s) => ({ pending: [...s.pending, { key, fileName }] }));
  try {
    const engine = engineClient();
    await engine.putFile(fileName, bytes);
    const outcome = await runTool<BodySummary>('import_file', { path: fileName });
    if (!outcome.ok) {
      addError(fileName, outcome.error.code, outcome.error.message);
      return;
    }
    const summary = outcome.result;
    sceneStore.setState((s) => ({
      bodies: [...s.bodies, { bodyId: summary.bodyId, summary, color: nextColor(colorCounter++), visible: true }],
    }));
    if (sceneStore.getState().selectedId === null) selectBody(summary.bodyId);
    const mesh = await engine.api.displayMesh(summary.bodyId);
    updateBody(summary.bodyId, mesh.ok ? { mesh: mesh.result } : { meshError: mesh.error });
    if (mesh.ok) sceneStore.setState((s) => ({ fitToken: s.fitToken + 1 }));
  } catch (e) {
    // Only a broken worker channel lands here; the worker itself answers with values.
    addError(fileName, 'INTERNAL_ERROR', e instanceof Error ? e.message : String(e));
  } finally {
    sceneStore.setState((s) => ({ pending: s.pending.filter((p) => p.key !== key) }));
  }
}

function updateBody(bodyId: string, patch: Partial<Pick<BodyEntry, 'mesh' | 'meshError' | 'visible'>>): void {
  sceneStore.setState((s) => ({ bodies: s.bodies.map((b) => (b.bodyId === bodyId ? { ...b, ...patch } : b)) }));
}

export function setVisible(bodyId: string, visible: boolean): void {
  updateBody(bodyId, { visible });
}

/** Selects a body and shows its compute_metrics result (run once per body). */
export function selectBody(bodyId: string | null): void {
  sceneStore.setState({ selectedId: bodyId });
  if (bodyId === null || sceneStore.getState().metrics[bodyId]) return;
  void refreshMetrics(bodyId);
}

async function refreshMetrics(bodyId: string): Promise<void> {
  const setMetrics = (m: MetricsState) => sceneStore.setState((s) => ({ metrics: { ...s.metrics, [bodyId]: m } }));
  setMetrics({ status: 'running' });
  const outcome = await runTool<MetricsResult>('compute_metrics', { bodyId });
  setMetrics(outcome.ok ? { status: 'done', result: outcome.result } : { status: 'failed', error: outcome.error });
}

export async function removeBody(bodyId: string): Promise<void> {
  const outcome = await runTool('remove_body', { bodyId });
  if (!outcome.ok) {
    addError(bodyId, outcome.error.code, outcome.error.message);
    return;
  }
  sceneStore.setState((s) => {
    const { [bodyId]: _gone, ...metrics } = s.metrics;
    return { bodies: s.bodies.filter((b) => b.bodyId !== bodyId), metrics, selectedId: s.selectedId === bodyId ? null : s.selectedId };
  });
}

export function fitView(): void {
  sceneStore.setState((s) => ({ fitToken: s.fitToken + 1 }));
}

export const DEMO_FILES = ['part.brep', 'scan.stl'] as const;

/** The built-in demo: a CAD part and a scan-like mesh of it, served from public/demo. */
export async function openDemo(): Promise<void> {
  await Promise.all(
    DEMO_FILES.map(async (name) => {
      const url = `${import.meta.env.BASE_URL}demo/${name}`;
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        bytes = new Uint8Array(await response.arrayBuffer());
      } catch (e) {
        addError(name, 'FILE_NOT_FOUND', `could not download the demo file ${url}: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      await importBytes(name, bytes);
    }),
  );
}
