import { recordValidation } from './bodies';
import { lostError, session } from './session';
import { downloadBytes } from './format';
import { inspectStore, type GraphState } from './stores';

/** The graph panel: graph_validate and graph_export on a scene body, graph_query on a dropped database. */

function setGraph(patch: Partial<GraphState>): void {
  inspectStore.setState((s) => ({ graph: { ...s.graph, ...patch } }));
}

export async function validateGraph(bodyId: string): Promise<void> {
  setGraph({ validate: { bodyId, status: 'running' } });
  const outcome = await session().run('graph_validate', { bodyId });
  setGraph({ validate: outcome.ok ? { bodyId, status: 'done', result: outcome.value.result } : { bodyId, status: 'failed', error: outcome.error } });
  if (outcome.ok) recordValidation(bodyId, { valid: outcome.value.result.isValid, by: 'graph_validate', errors: outcome.value.result.errorCount });
}

/** graph_export writes `<bodyId>.sqlite` in the worker; the file comes back as the call's output and is downloaded. */
export async function exportGraph(bodyId: string): Promise<void> {
  setGraph({ exporting: true });
  const outputPath = `${bodyId}.sqlite`;
  const outcome = await session().run('graph_export', { bodyId, outputPath });
  const file = outcome.ok ? outcome.value.outputs.find((o) => o.path === outputPath) : undefined;
  if (!file) {
    setGraph({ exporting: false, exportError: outcome.ok ? { code: 'INTERNAL_ERROR', message: `graph_export wrote no ${outputPath}` } : outcome.error });
    return;
  }
  const head = String.fromCharCode(...file.bytes.subarray(0, 16));
  setGraph({ exporting: false, lastExport: { bodyId, size: file.bytes.byteLength, head } });
  downloadBytes(outputPath, file.bytes.slice(), file.mimeType);
}

/** graph-query on a dropped graph database (docs/graph.md); the file does not enter the scene. */
export async function queryGraphFile(file: File): Promise<void> {
  setGraph({ query: { fileName: file.name, status: 'running' } });
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (e) {
    setGraph({ query: { fileName: file.name, status: 'failed', error: { code: 'FILE_NOT_FOUND', message: `could not read ${file.name}: ${e instanceof Error ? e.message : String(e)}` } } });
    return;
  }
  const s = session();
  const path = s.reserveWorkerName(file.name);
  let outcome;
  try {
    outcome = await s.call(async (c) => {
      await c.putFile(path, bytes);
      return c.run('graph_query', { path });
    });
  } catch (e) {
    outcome = { ok: false as const, error: lostError(e) };
  }
  setGraph({ query: outcome.ok ? { fileName: file.name, status: 'done', result: outcome.value.result } : { fileName: file.name, status: 'failed', error: outcome.error } });
}
