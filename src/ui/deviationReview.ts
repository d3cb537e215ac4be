import { downloadBytes } from './format';
import { colorVertices } from './heatColors';
import { setVisible } from './bodies';
import { session } from './session';
import { hoverValueStore, inspectStore, sceneStore, toolStore, type DoneCallOf, type HeatLabels, type HeatState, type ReviewSettings, type ShownError, type Vec3 } from './stores';
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
 * The pairs the deviation review offers: the first BREP body and the first mesh, the model measured
 * against the scan (the spec's framing) or, after a swap, the scan against the model; then every
 * point cloud against the first BREP body (else the first mesh). A cloud is always the measured
 * side: it has no surface to be a reference.
 */
export function comparePairs(): { from: string; to: string }[] {
  const bodies = sceneStore.getState().bodies;
  const brep = bodies.find((b) => b.summary.kind === 'brep');
  const mesh = bodies.find((b) => b.summary.kind === 'mesh');
  const pairs = brep && mesh ? [inspectStore.getState().measured === 'scan' ? { from: mesh.bodyId, to: brep.bodyId } : { from: brep.bodyId, to: mesh.bodyId }] : [];
  const part = brep ?? mesh;
  if (part) for (const cloud of bodies.filter((b) => b.summary.kind === 'points')) pairs.push({ from: cloud.bodyId, to: part.bodyId });
  return pairs;
}

/**
 * Which body of a compared pair an alignment moves: the scan (a point cloud, else the mesh) onto
 * the part, whichever side of the comparison it is measured on. A cloud is never the fixed body
 * (align_bodies refuses it: it has no surface to align to).
 */
export function alignRoles(pair: { from: string; to: string }): { moving: string; fixed: string } {
  const kind = (id: string) => sceneStore.getState().bodies.find((b) => b.bodyId === id)?.summary.kind;
  const from = kind(pair.from), to = kind(pair.to);
  const fromIsScan = from === 'points' || (from === 'mesh' && to === 'brep');
  return fromIsScan ? { moving: pair.from, fixed: pair.to } : { moving: pair.to, fixed: pair.from };
}

/** The first pair the review offers (the Compare button), null when there is none. */
export function comparePair(): { from: string; to: string } | null {
  return comparePairs()[0] ?? null;
}

/**
 * "Compare <model> with <scan>": measure_deviation with the spec's defaults (or a review's settings)
 * from the tool panel (progress, Cancel), then the heat map (showDeviation, through the result registry).
 */
export async function compareBodies(fromBodyId: string, toBodyId: string, settings: ReviewSettings = {}): Promise<void> {
  if (toolStore.getState().running) return;
  selectTool('measure_deviation');
  setFormValue('measure_deviation', 'fromBodyId', fromBodyId);
  setFormValue('measure_deviation', 'toBodyId', toBodyId);
  await runFromPanel('measure_deviation', { fromBodyId, toBodyId, ...settings });
}

/**
 * Swaps which body is measured and which is the reference, in one click: before a run it changes
 * the offer; after one it measures the reviewed pair the other way round with the same settings, so
 * the heat map, legend, statistics and histogram all follow the new roles.
 */
export async function swapRoles(): Promise<void> {
  if (toolStore.getState().running) return;
  const heat = inspectStore.getState().heat;
  if (!heat) {
    inspectStore.setState((s) => ({ measured: s.measured === 'scan' ? 'model' : 'scan' }));
    return;
  }
  const kind = (bodyId: string) => sceneStore.getState().bodies.find((b) => b.bodyId === bodyId)?.summary.kind;
  if (kind(heat.toBodyId) === 'mesh' && kind(heat.fromBodyId) !== 'mesh') inspectStore.setState({ measured: 'scan' });
  else if (kind(heat.toBodyId) !== 'mesh' && kind(heat.fromBodyId) === 'mesh') inspectStore.setState({ measured: 'model' });
  await compareBodies(heat.toBodyId, heat.fromBodyId, heat.settings);
}

/**
 * The arguments of a measure_deviation run that decide its figures, besides the pair: the heat map,
 * the stats card, the histogram and the worst point of a review are all computed with them, so every
 * view shows the latest run's settings. Only what the run was given: the engine applies the same
 * defaults in every deviation tool.
 */
export function settingsOf(args: unknown): ReviewSettings {
  const a = objectArgs(args);
  const out: ReviewSettings = {};
  if (typeof a.deflection === 'number') out.deflection = a.deflection;
  if (a.signMode === 'robust' || a.signMode === 'nearest') out.signMode = a.signMode;
  if (typeof a.maxSamples === 'number') out.maxSamples = a.maxSamples;
  if (a.surface === 'exact' || a.surface === 'tessellated') out.surface = a.surface;
  if (typeof a.maxDistance === 'number') out.maxDistance = a.maxDistance;
  return out;
}

function sameSettings(a: ReviewSettings, b: ReviewSettings): boolean {
  return (
    a.deflection === b.deflection &&
    (a.signMode ?? 'robust') === (b.signMode ?? 'robust') &&
    a.maxSamples === b.maxSamples &&
    (a.surface ?? 'exact') === (b.surface ?? 'exact') &&
    a.maxDistance === b.maxDistance
  );
}

/**
 * measure_deviation finished (Compare, its form, a share link): stations, worst point, and the heat
 * map, histogram and statistics of a new pair or of new settings (all recomputed with the run's
 * settings, so no view keeps an older run's figures).
 */
export function showDeviation(call: DoneCallOf<'measure_deviation'>): void {
  const { result } = call;
  const args = objectArgs(call.args);
  const from = String(args.fromBodyId), to = String(args.toBodyId);
  const settings = settingsOf(args);
  const axis = asVec3(args.sectionAxis);
  if (result.sections && axis) inspectStore.setState({ deviationSections: { axis, stations: result.sections, fromBodyId: from } });
  const heat = inspectStore.getState().heat;
  if (heat && heat.fromBodyId === from && heat.toBodyId === to && heat.status !== 'failed' && sameSettings(heat.settings, settings)) setHeat({ deviation: result });
  else void startHeatmap(from, to, settings, result);
}

/** Runs of the review, so an answer that arrives after a newer request is dropped. */
let heatRun = 0;
let histogramRun = 0;
let toleranceTimer: ReturnType<typeof setTimeout> | undefined;

async function startHeatmap(fromBodyId: string, toBodyId: string, settings: ReviewSettings, deviation: HeatState['deviation']): Promise<void> {
  const run = ++heatRun;
  const previous = inspectStore.getState().heat;
  const hidReference = !!previous?.hidReference && previous.toBodyId === toBodyId;
  // A new pair: the reference the last review hid comes back (unless it stays the reference).
  if (previous?.hidReference && !hidReference && sceneStore.getState().bodies.some((b) => b.bodyId === previous.toBodyId)) setVisible(previous.toBodyId, true);
  inspectStore.setState({
    heat: {
      fromBodyId,
      toBodyId,
      settings,
      status: 'running',
      range: 0,
      maxAbs: 0,
      signedVertices: 0,
      ambiguousVertices: 0,
      tolerance: 0,
      ...(deviation ? { deviation } : {}),
      histogramStatus: 'running',
      ...(hidReference ? { hidReference } : {}),
    },
  });
  const outcome = await session().run('deviation_heatmap', { fromBodyId, toBodyId, statistics: true, ...settings });
  if (run !== heatRun) return;
  if (!outcome.ok) {
    setHeat({ status: 'failed', error: outcome.error, histogramStatus: 'idle' });
    return;
  }
  const data = outcome.value.result;
  setHeat({
    status: 'done',
    ...(data.mesh ? { mesh: data.mesh } : {}),
    values: data.values,
    range: data.colorRange,
    maxAbs: data.range ? data.range[1] : 0,
    signedVertices: data.signedVertices,
    ambiguousVertices: data.ambiguousVertices,
    noData: data.noData,
    noDataVertices: data.noDataVertices,
    maxDistance: data.maxDistance,
    tolerance: data.tolerance,
    maxSamples: data.maxSamples,
    colors: colorVertices(data.values, data.colorRange, data.tolerance, undefined, data.noData),
    ...(data.statistics ? { histogram: data.statistics, histogramStatus: 'done' as const } : { histogramStatus: 'idle' as const }),
  });
  if (queuedLabels) {
    setLabels({ points: queuedLabels });
    queuedLabels = null;
    void measureLabels();
  }
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
  const outcome = await session().run('deviation_histogram', {
    fromBodyId: heat.fromBodyId,
    referenceBodyId: heat.toBodyId,
    tolerance: heat.tolerance,
    ...heat.settings,
    ...(heat.maxSamples ? { maxSamples: heat.maxSamples } : {}),
    // The heat map's search distance (the run's, or the default it derived): the same covered samples.
    ...(heat.maxDistance !== undefined ? { maxDistance: heat.maxDistance } : {}),
  });
  if (run !== heatRun || mine !== histogramRun) return;
  void measureLabels();
  if (outcome.ok) setHeat({ histogram: outcome.value.result, histogramStatus: 'done' });
  else setHeat({ histogramStatus: 'failed', histogramError: outcome.error });
}

/** Recolours at once; the share within tolerance follows after the slider rests. */
export function setTolerance(tolerance: number): void {
  const heat = inspectStore.getState().heat;
  if (!heat?.values || !(tolerance >= 0)) return;
  setHeat({ tolerance, colors: colorVertices(heat.values, heat.range, tolerance, new Float32Array(heat.values.length * 3), heat.noData) });
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
  // With the review's settings, so the stations and the heat map come from one kind of run.
  const settings = inspectStore.getState().heat?.settings ?? {};
  selectTool('measure_deviation');
  setFormValue('measure_deviation', 'sectionAxis', [String(axis[0]), String(axis[1]), String(axis[2])]);
  setFormValue('measure_deviation', 'sections', String(sections));
  await runFromPanel('measure_deviation', { fromBodyId: pair.from, toBodyId: pair.to, ...settings, sectionAxis: axis, sections });
}

let labelRun = 0;
/** Labels from a share link, placed when the next heat map is done. */
let queuedLabels: Vec3[] | null = null;

export function queueLabels(points: readonly Vec3[]): void {
  queuedLabels = points.map((p) => [p[0], p[1], p[2]]);
}

function setLabels(patch: Partial<HeatLabels>): void {
  setHeat({ labels: { adding: false, points: [], status: 'idle', ...inspectStore.getState().heat?.labels, ...patch } });
}

/** "Add labels": while on, a click on the coloured body adds a label there (SceneView). */
export function setLabelAdding(adding: boolean): void {
  setLabels({ adding });
}

export function addLabel(point: Vec3): void {
  const heat = inspectStore.getState().heat;
  if (!heat) return;
  setLabels({ points: [...(heat.labels?.points ?? []), point] });
  void measureLabels();
}

export function removeLabel(index: number): void {
  const points = inspectStore.getState().heat?.labels?.points ?? [];
  setLabels({ points: points.filter((_, i) => i !== index) });
  void measureLabels();
}

/** deviation_labels for the placed points with the review's tolerance and measure_deviation's sign mode and surfaces. */
async function measureLabels(): Promise<void> {
  const heat = inspectStore.getState().heat;
  const points = heat?.labels?.points ?? [];
  const run = ++labelRun;
  if (!heat || points.length === 0) {
    if (heat?.labels) setLabels({ status: 'idle', result: [] });
    return;
  }
  setLabels({ status: 'running' });
  const deviation = heat.deviation;
  const outcome = await session().run('deviation_labels', {
    fromBodyId: heat.fromBodyId,
    referenceBodyId: heat.toBodyId,
    points,
    tolerance: heat.tolerance,
    ...(deviation ? { signMode: deviation.signMode, surface: deviation.surface } : {}),
  });
  if (run !== labelRun) return;
  if (outcome.ok) setLabels({ status: 'done', result: outcome.value.result.labels });
  else setLabels({ status: 'failed', error: outcome.error });
}

/** The report's file name for a pair: letters, digits, dot, underscore and hyphen only. */
export function reportFileName(fromBodyId: string, toBodyId: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_');
  return `inspection-report-${safe(fromBodyId)}-vs-${safe(toBodyId)}.html`;
}

/**
 * "Download report": inspection_report for the pair on screen with its settings (the tolerance band,
 * measure_deviation's sign mode and surfaces), then the HTML file as a download. Returns the
 * error, if any, for the panel to show.
 */
export async function downloadReport(): Promise<ShownError | null> {
  const heat = inspectStore.getState().heat;
  if (!heat || heat.status !== 'done') return null;
  const name = reportFileName(heat.fromBodyId, heat.toBodyId);
  const deviation = heat.deviation;
  const outcome = await session().run('inspection_report', {
    fromBodyId: heat.fromBodyId,
    referenceBodyId: heat.toBodyId,
    outputPath: name,
    tolerance: heat.tolerance,
    ...(deviation ? { signMode: deviation.signMode, surface: deviation.surface } : {}),
    // The user's labels, else the report's automatic ones.
    ...(heat.labels?.points.length ? { labels: { points: heat.labels.points } } : {}),
  });
  if (!outcome.ok) return outcome.error;
  const file = outcome.value.outputs.find((o) => o.path === name);
  if (!file) return { code: 'INTERNAL', message: 'the report was not written' };
  downloadBytes(name, file.bytes as Uint8Array<ArrayBuffer>, 'text/html');
  return null;
}

/** Drops the review's timers and run counters (a reset page). */
export function resetDeviationReview(): void {
  heatRun++;
  labelRun++;
  queuedLabels = null;
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
