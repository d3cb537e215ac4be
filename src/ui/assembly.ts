import { objectArgs } from './deviationReview';
import { session } from './session';
import { inspectStore, sceneStore, type DoneCallOf } from './stores';

/** The assembly tree of inspect_assembly, and which scene body it highlights. */

/** inspect_assembly finished: the tree, and the scene body made from the same file (if any). */
export function showAssembly(call: DoneCallOf<'inspect_assembly'>): void {
  const args = objectArgs(call.args);
  const source = typeof args.inputPath === 'string' ? args.inputPath : String(args.bodyId);
  inspectStore.setState({ assembly: { tree: call.result, source, bodyId: bodyForSource(source), hovered: null } });
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
