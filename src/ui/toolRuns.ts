import type { ToolManifest, ToolName } from '../engine';
import type { FieldValue } from './schemaForm';
import { session } from './session';
import { sceneStore, toolStore, type DoneCallOf, type DoneRun, type FailedRun, type ShownError, type ToolCall, type ToolCallOf } from './stores';

/** The tool panel: the registry's tools, their forms, one run at a time with progress and Cancel. */

let manifestsLoading: Promise<ToolManifest[]> | undefined;

/**
 * The tools a new user reaches for first (the facts of a part, its validity, the comparison), then
 * the registry's order; the ones that move or change the scene (set_placement's "4x4 row-major")
 * come last, after every other tool (issue 29).
 */
const FIRST: readonly string[] = ['compute_metrics', 'validate_geometry', 'measure_deviation', 'inspection_report', 'recognize_features', 'read_pmi'];
const LAST: readonly string[] = ['set_placement'];

/** The scene tools the panel offers, in the order it lists them. */
export function sceneTools(manifests: readonly ToolManifest[]): ToolManifest[] {
  const rank = (name: string) => (FIRST.includes(name) ? FIRST.indexOf(name) - FIRST.length : LAST.includes(name) ? 1 + LAST.indexOf(name) : 0);
  // Array.prototype.sort is stable: tools of equal rank keep the registry's order.
  return manifests.filter((m) => m.category === 'scene').sort((a, b) => rank(a.name) - rank(b.name));
}

/** The registry's tools (name, description, category, JSON Schema), asked once from the worker. */
export function loadManifests(): Promise<ToolManifest[]> {
  manifestsLoading ??= session()
    .call((c) => c.tools())
    .then(
      (manifests) => {
        toolStore.setState((s) => ({ manifests, selected: s.selected ?? sceneTools(manifests)[0]?.name ?? null }));
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

/** What a finished run changes beyond the panel (the result registry's `apply`, wired at start-up). */
type AfterRun = <N extends ToolName>(call: DoneCallOf<N>) => void;
let afterRun: AfterRun = () => undefined;

export function setAfterRun(apply: AfterRun): void {
  afterRun = apply;
}

/**
 * Runs a tool from the panel (its form, a button that fills it, a share link) in the worker, with
 * progress; Cancel (or Escape) terminates the worker. The result and the files it wrote are kept per
 * tool; the result registry then updates the inspection views.
 */
export async function runFromPanel(tool: ToolName, args: unknown, { reveal = true }: { reveal?: boolean } = {}): Promise<ToolCall> {
  if (toolStore.getState().running) throw new Error('a tool is already running');
  const call = await execute(tool, args);
  // A run the journey started (Compare, Align) keeps the journey in view; a form's run brings its result into view.
  toolStore.setState((s) => ({ results: { ...s.results, [tool]: call }, lastRun: call.ok ? { tool, args } : s.lastRun, reveal: reveal ? s.reveal + 1 : s.reveal }));
  sceneStore.setState({ lastToolResult: call });
  if (call.ok) afterRun(call);
  return call;
}

/**
 * A run refused before it started (a share link's args its schema rejects), shown as a run from the
 * form would be: the form holds its arguments and the error stands under it.
 */
export function showRefusedRun(tool: ToolName, args: unknown, error: ShownError): void {
  const call = { tool, args, ok: false, error, ms: 0 } as ToolCall;
  toolStore.setState((s) => ({ selected: tool, results: { ...s.results, [tool]: call }, reveal: s.reveal + 1 }));
  sceneStore.setState({ lastToolResult: call });
}

/** One run with the panel's progress; its call record keeps the tool's result type. */
async function execute<N extends ToolName>(tool: N, args: unknown): Promise<ToolCallOf<N>> {
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
  try {
    const outcome = await session().runJson(tool, args, onProgress);
    const ms = Math.round(performance.now() - startedAt);
    const call: DoneRun<N> | FailedRun<N> = outcome.ok
      ? { tool, args, ok: true, result: outcome.value.result, outputs: outcome.value.outputs, ms }
      : { tool, args, ok: false, error: outcome.error, ms };
    return call;
  } finally {
    if (frame) cancelAnimationFrame(frame);
    toolStore.setState({ running: null });
  }
}

/**
 * Whether the worker's registry has a tool of this name (its manifests, asked once): the page
 * checks names against the engine it talks to rather than bundling the registry.
 */
export function isToolName(name: string): name is ToolName {
  return toolStore.getState().manifests.some((m) => m.name === name);
}

/** The form's Run: the selected tool with the form's arguments (the engine checks them). */
export function runSelected(name: string, args: unknown): void {
  if (!isToolName(name) || toolStore.getState().running) return;
  void runFromPanel(name, args);
}

/** Stops the running tool: its worker is terminated and the scene restored in a new one. */
export function cancelTool(): boolean {
  if (!toolStore.getState().running) return false;
  session().cancelRun();
  return true;
}

/** Forgets the manifests asked for (a new session asks again). */
export function forgetManifests(): void {
  manifestsLoading = undefined;
}
