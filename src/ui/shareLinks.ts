import type { PlacementRecord, ToolManifest, ToolName } from '../engine';
import { movesFollowed, showLinkPlacement } from './alignment';
import { addError, importUrls } from './bodies';
import { fieldsOf, valuesOf } from './schemaForm';
import { session } from './session';
import { buildShareHash, MAX_SHARED_RUNS, parseShareHash, type SharedInspection, type ShareRun } from './shareLink';
import { queueLabels, setPassShare, setTolerance } from './deviationReview';
import { inspectStore, sceneStore, toolStore } from './stores';
import { isToolName, loadManifests, runFromPanel, showRefusedRun } from './toolRuns';

/** Share links applied to the page, and the link for the page's current scene and last run. */

/** Tools that move bodies: a link carries where the bodies stand (set_placement runs), never these runs again. */
const MOVING_TOOLS: ReadonlySet<string> = new Set(['set_placement', 'align_bodies']);

/** A run of the link, checked: its tool is a scene tool of this engine. */
interface CheckedRun {
  tool: ToolName;
  args: Record<string, unknown>;
}

/**
 * Applies a share link in the location hash: load its models, then its runs in order, each in the
 * tool panel. Every run is checked against its tool's schema in the engine before any of them runs;
 * a refused run stops them all, and a failed run stops the ones after it (each may build on the one
 * before: a measurement after a placement). The models load either way.
 */
export async function openShareLink(hash: string): Promise<void> {
  const parsed = parseShareHash(hash);
  if (!parsed) return;
  for (const e of parsed.errors) addError('share link', e.code, e.message);
  const { link } = parsed;
  // The inspection's settings first: the link's measure_deviation colours at its tolerance and roles.
  if (link.inspection) applyInspection(link.inspection);
  const [manifests] = await Promise.all([loadManifests(), importUrls(link.models)]);
  if (link.runs.length === 0) return;
  const runs = await checkRuns(link.runs, manifests);
  if (!runs) return;
  const placed = placedBefore(runs);
  for (const [i, run] of runs.entries()) {
    const last = i === runs.length - 1;
    // Labels wait for the heat map the last run starts (a measure_deviation link).
    if (last && link.labels) queueLabels(link.labels);
    toolStore.setState((s) => ({ selected: run.tool, forms: { ...s.forms, [run.tool]: valuesOf(fieldsOf(manifestOf(manifests, run.tool).inputSchema), run.args) } }));
    const call = await runFromPanel(run.tool, run.args);
    await movesFollowed();
    if (!call.ok) {
      if (!last) addError('share link', call.error.code, `${where(i, runs.length)}${run.tool} failed (${call.error.message}); the ${runs.length - i - 1} run(s) after it were not run`);
      return;
    }
  }
  const moved = [...placed].filter(([bodyId]) => sceneStore.getState().bodies.some((b) => b.bodyId === bodyId && b.summary.placement));
  const shown = moved.at(-1);
  if (shown) showLinkPlacement(shown[0], shown[1]);
}

/** A link's or a session's inspection settings into the page (tolerance, verdict rule, roles, title block). */
export function applyInspection(i: SharedInspection): void {
  if (i.tolerance !== undefined) setTolerance(i.tolerance, 'link');
  if (i.passShare !== undefined) setPassShare(i.passShare);
  inspectStore.setState((s) => ({
    ...(i.nominal ? { nominalMark: i.nominal } : {}),
    ...(i.colorOn ? { colorOn: i.colorOn } : {}),
    ...(i.titleBlock ? { titleBlock: { ...s.titleBlock, ...i.titleBlock } } : {}),
  }));
}

/** The page's inspection settings as a link or a session carries them. */
export function currentInspection(): SharedInspection {
  const s = inspectStore.getState();
  return {
    tolerance: s.tolerance.value,
    passShare: s.passShare,
    ...(s.nominalMark ? { nominal: s.nominalMark } : {}),
    colorOn: s.colorOn,
    ...(Object.keys(s.titleBlock).length ? { titleBlock: { ...s.titleBlock } } : {}),
  };
}

const where = (i: number, n: number) => (n > 1 ? `run ${i + 1} of ${n}: ` : '');

function manifestOf(manifests: readonly ToolManifest[], tool: string): ToolManifest {
  return manifests.find((m) => m.name === tool)!;
}

/**
 * The runs, each a scene tool of this engine whose schema takes its args (the engine checks them;
 * nothing runs), or null with an error for each one that is not. The first run a schema refuses shows
 * in the tool panel with its error, as a run from its form would.
 */
async function checkRuns(runs: readonly ShareRun[], manifests: readonly ToolManifest[]): Promise<CheckedRun[] | null> {
  const checked: CheckedRun[] = [];
  let refusedShown = false;
  for (const [i, run] of runs.entries()) {
    const manifest = manifests.find((m) => m.name === run.tool);
    if (!manifest || manifest.category !== 'scene' || !isToolName(manifest.name)) {
      const known = manifests.filter((m) => m.category === 'scene').map((m) => m.name);
      addError('share link', manifest ? 'INVALID_ARGUMENT' : 'UNKNOWN_TOOL', `${where(i, runs.length)}tool: '${run.tool}' ${manifest ? 'changes the scene and cannot run from a link' : 'is not a tool'}; tools: ${known.join(', ')}`);
      continue;
    }
    const args = run.args ?? {};
    const valid = await session().validate(manifest.name, args);
    if (valid.ok) {
      checked.push({ tool: manifest.name, args });
      continue;
    }
    if (!refusedShown) {
      toolStore.setState((s) => ({ forms: { ...s.forms, [manifest.name]: valuesOf(fieldsOf(manifest.inputSchema), args) } }));
      showRefusedRun(manifest.name, args, valid.error);
      refusedShown = true;
    }
    // A single run's error stands under its form, as before links carried several.
    if (runs.length > 1) addError('share link', valid.error.code, `${where(i, runs.length)}${valid.error.message}`);
  }
  if (checked.length === runs.length) return checked;
  if (runs.length > 1) addError('share link', 'INVALID_ARGUMENT', `tool: none of the link's ${runs.length} runs was run (each may build on the one before)`);
  return null;
}

/** For each body the runs place, where it stood before them (Undo of the link's placement goes back there). */
function placedBefore(runs: readonly CheckedRun[]): Map<string, number[][] | null> {
  const before = new Map<string, number[][] | null>();
  for (const run of runs) {
    const bodyId = run.tool === 'set_placement' ? run.args.bodyId : undefined;
    if (typeof bodyId !== 'string') continue;
    const summary = sceneStore.getState().bodies.find((b) => b.bodyId === bodyId)?.summary.placement;
    before.delete(bodyId);
    before.set(bodyId, summary ? summary.transform.map((row) => [...row]) : null);
  }
  return before;
}

/**
 * A link that rebuilds the scene and repeats the last tool run, or why there is none: every body
 * must have come from a URL. The runs: each placed body's set_placement with its exact transform (in
 * import order), then the last successful panel run made since a body last moved, unless it moved a
 * body itself (set_placement, align_bodies: its effect is in the placements; an alignment not applied
 * is left out).
 */
export function shareLink(pageUrl: string): { ok: true; url: string } | { ok: false; reason: string } {
  const files = session().keptFiles();
  if (files.length === 0) return { ok: false, reason: 'the scene is empty' };
  const local = files.filter((f) => !f.sourceUrl).map((f) => f.bodyId);
  if (local.length) return { ok: false, reason: `${local.join(', ')} came from local files, which a link cannot carry` };
  const placements = files.flatMap((f) => (f.placement ? [{ tool: 'set_placement', args: { bodyId: f.bodyId, transform: f.placement.transform, ...alignmentOf(f.placement.setBy) } }] : []));
  if (placements.length >= MAX_SHARED_RUNS) return { ok: false, reason: `${placements.length} bodies are placed; a link carries at most ${MAX_SHARED_RUNS - 1} placements` };
  const last = toolStore.getState().lastRun;
  const labels = inspectStore.getState().heat?.labels?.points;
  const hash = buildShareHash({
    models: files.map((f) => f.sourceUrl ?? ''),
    runs: [...placements, ...(last && !MOVING_TOOLS.has(last.tool) ? [last] : [])],
    ...(labels?.length ? { labels: labels.map((p) => [p[0], p[1], p[2]] as [number, number, number]) } : {}),
    inspection: currentInspection(),
  });
  return { ok: true, url: `${pageUrl.split('#')[0]}${hash}` };
}

/** An alignment's figures, carried with the placement it made so the opened link says "aligned" too. */
function alignmentOf(setBy: PlacementRecord): { alignment?: { fixedBodyId: string; method: string; rmsBefore: number; rmsAfter: number; converged: boolean } } {
  if (setBy.tool !== 'align_bodies') return {};
  return { alignment: { fixedBodyId: setBy.fixedBodyId, method: setBy.method ?? setBy.mode, rmsBefore: setBy.rmsBefore, rmsAfter: setBy.rmsAfter, converged: setBy.converged } };
}
