import { objectArgs } from './deviationReview';
import { session } from './session';
import { inspectStore, sceneStore, toolStore, type DoneCallOf } from './stores';
import { runFromPanel, selectTool, setFormValue } from './toolRuns';

/** The assembly tree of inspect_assembly, and which scene body it highlights. */

/** inspect_assembly finished: the tree, and the scene body made from the same file (if any). */
export function showAssembly(call: DoneCallOf<'inspect_assembly'>): void {
  const args = objectArgs(call.args);
  const source = typeof args.inputPath === 'string' ? args.inputPath : String(args.bodyId);
  const kept = session()
    .keptFiles()
    .find((f) => f.path === source);
  inspectStore.setState({ assembly: { tree: call.result, source: kept?.fileName ?? source, bodyId: bodyForSource(source), hovered: null } });
}

/** Formats whose files carry an assembly structure (inspect_assembly reads them). */
const ASSEMBLY_FORMATS = new Set(['step', 'iges', 'xbf']);

/** The file a body was imported from, when inspect_assembly can read its tree. */
export function assemblyFileOf(bodyId: string): string | null {
  const body = sceneStore.getState().bodies.find((b) => b.bodyId === bodyId);
  if (!body || !ASSEMBLY_FORMATS.has(body.summary.sourceFormat)) return null;
  return (
    session()
      .keptFiles()
      .find((f) => f.bodyId === bodyId)?.path ?? null
  );
}

/** The body's button: inspect_assembly on the file it came from (no file name to type), from the tool panel. */
export async function openAssemblyOf(bodyId: string): Promise<void> {
  const inputPath = assemblyFileOf(bodyId);
  if (!inputPath || toolStore.getState().running) return;
  selectTool('inspect_assembly');
  setFormValue('inspect_assembly', 'inputPath', inputPath);
  await runFromPanel('inspect_assembly', { inputPath });
}

export function setAssemblyHover(path: string | null): void {
  inspectStore.setState((s) => (s.assembly && s.assembly.hovered !== path ? { assembly: { ...s.assembly, hovered: path } } : s));
}

/** The body an inspected file became: the kept file of that worker name, else a body of that id. */
function bodyForSource(source: string): string | null {
  const kept = session()
    .keptFiles()
    .find((f) => f.path === source);
  if (kept) return kept.bodyId;
  return sceneStore.getState().bodies.find((b) => b.bodyId === source)?.bodyId ?? null;
}
