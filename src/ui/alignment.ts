import { alignSetupStore, methodArgs } from './alignSetup';
import { redrawMovedBody } from './bodies';
import { clearHeatmap } from './deviationReview';
import { session } from './session';
import { inspectStore, sceneStore, toolStore, type AlignChecked, type AlignmentState, type DoneCallOf } from './stores';
import { runFromPanel, selectTool, setFormValue } from './toolRuns';

/**
 * "Align scan to part" in the deviation review: align_bodies from the tool panel (progress,
 * Cancel) without applying; the answer is shown (RMS before and after, the motion, warnings) and
 * applied only when the user confirms, through set_placement composed with where the scan stands.
 * Undo resets the scan's placement. Moving the scan invalidates a heat map of it, which goes.
 */

function setAlignment(patch: Partial<AlignmentState>): void {
  inspectStore.setState((s) => (s.alignment && s.alignment.origin !== 'link' ? { alignment: { ...s.alignment, ...patch } } : s));
}

/**
 * align_bodies with the method the Align step is set to (its datums or faces); a method whose faces
 * are not picked yet falls back to best fit (the Align button waits for them; "Align first" does not).
 */
export async function alignBodies(movingBodyId: string, fixedBodyId: string): Promise<void> {
  if (toolStore.getState().running) return;
  const method = methodArgs(alignSetupStore.getState());
  alignSetupStore.setState({ picking: null });
  selectTool('align_bodies');
  setFormValue('align_bodies', 'movingBodyId', movingBodyId);
  setFormValue('align_bodies', 'fixedBodyId', fixedBodyId);
  await runFromPanel('align_bodies', { movingBodyId, fixedBodyId, ...(method.ok ? method.args : {}) }, { reveal: false });
}

/** align_bodies finished (the button, its form): a proposal, or an applied alignment when the run applied it itself. */
export function showAlignment(call: DoneCallOf<'align_bodies'>): void {
  const r = call.result;
  const before = inspectStore.getState().alignment;
  // An answer asked from an applied alignment: dismissing it shows the applied one again (with its Undo).
  const prior = !r.applied && before && before.origin !== 'link' && before.status === 'applied' && before.movingBodyId === r.movingBodyId ? before : undefined;
  inspectStore.setState({ alignment: { movingBodyId: r.movingBodyId, fixedBodyId: r.fixedBodyId, status: r.applied ? 'applied' : 'proposed', result: r, ...(prior ? { prior } : {}) } });
  if (r.applied) follow(r.movingBodyId);
}

/** The user confirms: the scan moves by the proposed motion (on top of its current placement). */
export async function applyAlignment(): Promise<void> {
  const a = inspectStore.getState().alignment;
  if (a?.status !== 'proposed') return;
  const previous = sceneStore.getState().bodies.find((b) => b.bodyId === a.movingBodyId)?.summary.placement?.transform ?? null;
  setAlignment({ status: 'applying', previous });
  // The alignment's figures go with it, so the body (and a report) says it was aligned, not just placed.
  const record = { fixedBodyId: a.fixedBodyId, method: a.result.method, rmsBefore: a.result.rmsBefore, rmsAfter: a.result.rmsAfter, converged: a.result.converged };
  const outcome = await session().run('set_placement', { bodyId: a.movingBodyId, transform: a.result.transform, compose: true, alignment: record });
  if (!outcome.ok) {
    setAlignment({ status: 'failed', error: outcome.error });
    return;
  }
  setAlignment({ status: 'applied' });
  await afterMove(a.movingBodyId);
}

export function discardAlignment(): void {
  const a = inspectStore.getState().alignment;
  if (a?.status !== 'proposed') return;
  // "Already aligned" is a finding, not a proposal: OK keeps it (the step would say "not aligned" again).
  const checked: AlignChecked | null =
    a.result.outcome === 'alreadyAligned' && !a.prior
      ? { movingBodyId: a.movingBodyId, fixedBodyId: a.fixedBodyId, rms: a.result.rmsBefore, transform: placementOf(a.movingBodyId) }
      : null;
  inspectStore.setState({ alignment: a.prior ?? null, ...(checked ? { alignChecked: checked } : {}) });
}

function placementOf(bodyId: string): number[][] | null {
  return sceneStore.getState().bodies.find((b) => b.bodyId === bodyId)?.summary.placement?.transform ?? null;
}

/**
 * The actual's "already aligned" finding, while it holds: for this pair, with the actual still where
 * it stood then (a placement since, by an alignment, Undo, a link or set_placement, voids it).
 */
export function alignedAsPlaced(actualBodyId: string | undefined, nominalBodyId: string | undefined): AlignChecked | null {
  const c = inspectStore.getState().alignChecked;
  if (!c || c.movingBodyId !== actualBodyId || c.fixedBodyId !== nominalBodyId) return null;
  return JSON.stringify(placementOf(c.movingBodyId)) === JSON.stringify(c.transform) ? c : null;
}

/**
 * Back where the scan stood before the alignment (where its file put it, unless it had been placed
 * before); for a placement a share link set, where the body stood before the link's runs.
 */
export async function undoAlignment(): Promise<void> {
  const a = inspectStore.getState().alignment;
  if (!a || a.status !== 'applied') return;
  const previous = a.previous ?? null;
  const outcome = await session().run('set_placement', previous ? { bodyId: a.movingBodyId, transform: previous } : { bodyId: a.movingBodyId });
  if (!outcome.ok) {
    inspectStore.setState((s) => (s.alignment ? { alignment: { ...s.alignment, error: outcome.error } } : s));
    return;
  }
  inspectStore.setState({ alignment: null });
  await afterMove(a.movingBodyId);
}

/** set_placement from the tool panel: the page follows the body; an alignment shown for it is over. */
export function showPlacement(call: DoneCallOf<'set_placement'>): void {
  const a = inspectStore.getState().alignment;
  if (a && a.movingBodyId === call.result.bodyId) inspectStore.setState({ alignment: null });
  follow(call.result.bodyId);
}

/**
 * Share links: the placements the link's runs set, shown as the alignment card would (the last placed
 * body's), unless the runs left an alignment of their own on show. `previous`: where that body stood
 * before the link's runs, for Undo.
 */
export function showLinkPlacement(bodyId: string, previous: number[][] | null): void {
  if (inspectStore.getState().alignment) return;
  inspectStore.setState({ alignment: { origin: 'link', movingBodyId: bodyId, status: 'applied', previous } });
}

let following: Promise<void> = Promise.resolve();

function follow(bodyId: string): void {
  following = following.then(() => afterMove(bodyId)).catch(() => undefined);
}

/** Resolves once the page has followed every body moved so far (a share link's next run waits for it). */
export function movesFollowed(): Promise<void> {
  return following;
}

/**
 * The page follows a moved body: its kept placement (for restores), summary and triangles; a heat map
 * of it goes, and so does the last run a share link would repeat (it measured the old position).
 */
async function afterMove(bodyId: string): Promise<void> {
  toolStore.setState({ lastRun: null });
  const heat = inspectStore.getState().heat;
  if (heat && (heat.fromBodyId === bodyId || heat.toBodyId === bodyId)) clearHeatmap();
  const listed = await session().run('list_bodies', {});
  if (!listed.ok) return;
  const summary = listed.value.result.bodies.find((b) => b.bodyId === bodyId);
  if (!summary) return;
  session().setPlacement(bodyId, summary.placement ? { transform: summary.placement.transform, setBy: summary.placement.setBy } : undefined);
  await redrawMovedBody(summary);
}
