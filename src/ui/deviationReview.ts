import { colorVertices } from './heatColors';
import { setVisible } from './bodies';
import { session } from './session';
import { hoverValueStore, inspectStore, sceneStore, toolStore, type DoneCallOf, type HeatState, type Vec3 } from './stores';
import { runFromPanel, selectTool, setFormValue } from './toolRuns';

/**
 * The deviation review: Compare (measure_deviation), then one call for the heat map with its colour
 * range, tolerance and statistics (deviation_heatmap with statistics), the tolerance band, the
 * worst point, deviation along an axis.
 */

function setHeat(patch: Partial<HeatState>): void {
  inspectStore.setState((s) => (s.heat ? { heat: { ...s.heat, ...patch } } : s));
}

/**
 * The pairs the deviation review offers: the first BREP body as candidate against the first mesh as
 * reference, then every point cloud against the first BREP body (else the first mesh). A cloud is
 * always the measured side: it has no surface to be a reference.
 */
export function comparePairs(): { from: string; to: string }[] {
  const bodies = sceneStore.getState().bodies;
  const brep = bodies.find((b) => b.summary.kind === 'brep');
  const mesh = bodies.find((b) => b.summary.kind === 'mesh');
  const pairs = brep && mesh ? [{ from: brep.bodyId, to: mesh.bodyId }] : [];
  const part = brep ?? mesh;
  if (part) for (const cloud of bodies.filter((b) => b.summary.kind === 'points')) pairs.push({ from: cloud.bodyId, to: part.bodyId });
  return pairs;
}

/** The first pair the review offers (the Compare button), null when there is none. */
export function comparePair(): { from: string; to: string } | null {
  return comparePairs()[0] ?? null;
}

/**
 * "Compare <model> with <scan>": measure_deviation with the spec's defaults from the tool panel
 * (progress, Cancel), then the heat map (showDeviation, through the result registry).
 */
export async function compareBodies(fromBodyId: string, toBodyId: string): Promise<void> {
  if (toolStore.getState().running) return;
  selectTool('measure_deviation');
  setFormValue('measure_deviation', 'fromBodyId', fromBodyId);
  setFormValue('measure_deviation', 'toBodyId', toBodyId);
  await runFromPanel('measure_deviation', { fromBodyId, toBodyId });
}

/** measure_deviation finished (Compare, its form, a share link): stations, worst point, and the heat map of a new pair. */
export function showDeviation(call: DoneCallOf<'measure_deviation'>): void {
  const { result } = call;
  const args = objectArgs(call.args);
  const from = String(args.fromBodyId), to = String(args.toBodyId);
  const axis = asVec3(args.sectionAxis);
  if (result.sections && axis) inspectStore.setState({ deviationSections: { axis, stations: result.sections, fromBodyId: from } });
  const heat = inspectStore.getState().heat;
  if (heat && heat.fromBodyId === from && heat.toBodyId === to && heat.status !== 'failed') setHeat({ deviation: result });
  else void startHeatmap(from, to, result);
}

/** Runs of the review, so an answer that arrives after a newer request is dropped. */
let heatRun = 0;
let histogramRun = 0;
let toleranceTimer: ReturnType<typeof setTimeout> | undefined;

async function startHeatmap(fromBodyId: string, toBodyId: string, deviation: HeatState['deviation']): Promise<void> {
  const run = ++heatRun;
  inspectStore.setState({
    heat: { fromBodyId, toBodyId, status: 'running', range: 0, maxAbs: 0, signedVertices: 0, ambiguousVertices: 0, tolerance: 0, ...(deviation ? { deviation } : {}), histogramStatus: 'running' },
  });
  const outcome = await session().run('deviation_heatmap', { fromBodyId, toBodyId, statistics: true });
  if (run !== heatRun) return;
  if (!outcome.ok) {
    setHeat({ status: 'failed', error: outcome.error, histogramStatus: 'idle' });
    return;
  }
  const data = outcome.value.result;
  setHeat({
    status: 'done',
    values: data.values,
    range: data.colourRange,
    maxAbs: data.range ? data.range[1] : 0,
    signedVertices: data.signedVertices,
    ambiguousVertices: data.ambiguousVertices,
    tolerance: data.tolerance,
    colors: colorVertices(data.values, data.colourRange, data.tolerance),
    ...(data.statistics ? { histogram: data.statistics, histogramStatus: 'done' as const } : { histogramStatus: 'idle' as const }),
  });
  const reference = sceneStore.getState().bodies.find((b) => b.bodyId === toBodyId);
  if (reference?.visible && toBodyId !== fromBodyId) {
    setVisible(toBodyId, false);
    setHeat({ hidReference: true });
  }
}

/** The statistics at the current tolerance: deviation_histogram, whose deviations the engine already has. */
async function refreshHistogram(run: number): Promise<void> {
  const heat = inspectStore.getState().heat;
  if (!heat || run !== heatRun) return;
  const mine = ++histogramRun;
  setHeat({ histogramStatus: 'running' });
  const outcome = await session().run('deviation_histogram', { fromBodyId: heat.fromBodyId, referenceBodyId: heat.toBodyId, tolerance: heat.tolerance });
  if (run !== heatRun || mine !== histogramRun) return;
  if (outcome.ok) setHeat({ histogram: outcome.value.result, histogramStatus: 'done' });
  else setHeat({ histogramStatus: 'failed', histogramError: outcome.error });
}

/** Recolours at once; the share within tolerance follows after the slider rests. */
export function setTolerance(tolerance: number): void {
  const heat = inspectStore.getState().heat;
  if (!heat?.values || !(tolerance >= 0)) return;
  setHeat({ tolerance, colors: colorVertices(heat.values, heat.range, tolerance, new Float32Array(heat.values.length * 3)) });
  clearTimeout(toleranceTimer);
  const run = heatRun;
  toleranceTimer = setTimeout(() => void refreshHistogram(run), TOLERANCE_REST_MS);
}

/** How long the tolerance must rest before the statistics follow it. */
export const TOLERANCE_REST_MS = 400;

export function clearHeatmap(): void {
  heatRun++;
  clearTimeout(toleranceTimer);
  const heat = inspectStore.getState().heat;
  if (heat?.hidReference && sceneStore.getState().bodies.some((b) => b.bodyId === heat.toBodyId)) setVisible(heat.toBodyId, true);
  inspectStore.setState({ heat: null });
  hoverValueStore.setState(null, true);
}

export function flyTo(point: Vec3): void {
  inspectStore.setState((s) => ({ flyTo: { point, token: (s.flyTo?.token ?? 0) + 1 } }));
}

/** The pair the review shows, else the one it offers. */
export function reviewedPair(): { from: string; to: string } | null {
  const heat = inspectStore.getState().heat;
  return heat ? { from: heat.fromBodyId, to: heat.toBodyId } : comparePair();
}

/** measure_deviation with stations along an axis: the chart under the viewport. */
export async function plotDeviationSections(axis: Vec3, sections: number): Promise<void> {
  const pair = reviewedPair();
  if (!pair || toolStore.getState().running) return;
  selectTool('measure_deviation');
  setFormValue('measure_deviation', 'sectionAxis', [String(axis[0]), String(axis[1]), String(axis[2])]);
  setFormValue('measure_deviation', 'sections', String(sections));
  await runFromPanel('measure_deviation', { fromBodyId: pair.from, toBodyId: pair.to, sectionAxis: axis, sections });
}

/** Drops the review's timers and run counters (a reset page). */
export function resetDeviationReview(): void {
  heatRun++;
  histogramRun++;
  clearTimeout(toleranceTimer);
}

/** A run's arguments as the page passed them: an object, or nothing. */
export function objectArgs(args: unknown): Record<string, unknown> {
  return args !== null && typeof args === 'object' && !Array.isArray(args) ? Object.fromEntries(Object.entries(args)) : {};
}

export function asVec3(v: unknown): Vec3 | null {
  if (!Array.isArray(v) || v.length !== 3) return null;
  const [x, y, z] = v;
  return typeof x === 'number' && typeof y === 'number' && typeof z === 'number' ? [x, y, z] : null;
}
