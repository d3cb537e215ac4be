import type { Feature } from '../engine';
import { objectArgs } from './deviationReview';
import { inspectStore, toolStore, type DoneCallOf, type FeaturesState } from './stores';
import { runFromPanel, selectTool, setFormValue } from './toolRuns';

/** The feature list: recognize_features on a BREP body, its holes and pockets, their faces highlighted in 3D. */

function setFeatures(patch: Partial<FeaturesState>): void {
  inspectStore.setState((s) => (s.features ? { features: { ...s.features, ...patch } } : s));
}

/** "Find holes and pockets": recognize_features from the tool panel (progress, Cancel, its result under the form). */
export async function findFeatures(bodyId: string): Promise<void> {
  if (toolStore.getState().running) return;
  inspectStore.setState({ features: { bodyId, status: 'running', features: [], hovered: null, selected: null } });
  selectTool('recognize_features');
  setFormValue('recognize_features', 'bodyId', bodyId);
  const call = await runFromPanel('recognize_features', { bodyId });
  if (!call.ok && inspectStore.getState().features?.bodyId === bodyId) setFeatures({ status: 'failed', error: call.error });
}

/** recognize_features finished (its button, its form, a share link): the list of that body. */
export function showFeatures(call: DoneCallOf<'recognize_features'>): void {
  const args = objectArgs(call.args);
  if (typeof args.bodyId !== 'string') return;
  inspectStore.setState({ features: { bodyId: args.bodyId, status: 'done', features: call.result.features, hovered: null, selected: null } });
}

export function hoverFeature(index: number | null): void {
  const f = inspectStore.getState().features;
  if (f && f.hovered !== index) setFeatures({ hovered: index });
}

/** A click pins a feature's highlight; a second click on it lets it go. */
export function selectFeature(index: number): void {
  const f = inspectStore.getState().features;
  if (f) setFeatures({ selected: f.selected === index ? null : index });
}

/** The face indices of a feature (its `face[N]` ids). */
export function featureFaces(feature: Feature): number[] {
  return feature.faces.map((id) => Number(/\d+/.exec(id)?.[0])).filter((n) => Number.isInteger(n));
}

/** Which faces of a body the feature list highlights now: the hovered feature's, and the selected one's. */
export function highlightedFeatureFaces(bodyId: string): { hovered: number[]; selected: number[] } {
  const f = inspectStore.getState().features;
  if (!f || f.bodyId !== bodyId || f.status !== 'done') return { hovered: [], selected: [] };
  const of = (i: number | null) => (i === null || !f.features[i] ? [] : featureFaces(f.features[i]!));
  return { hovered: of(f.hovered), selected: of(f.selected) };
}

/** A removed body takes its feature list with it (`present`: the bodies still in the scene). */
export function dropFeaturesOfRemoved(present: ReadonlySet<string>): void {
  const f = inspectStore.getState().features;
  if (f && !present.has(f.bodyId)) inspectStore.setState({ features: null });
}
