import { reportCharacteristics } from './gdt';
import { downloadBytes } from './format';
import { colorVertices, colorSpan } from './heatColors';
import { colorVerticesSliced, SLICED_COLOURING } from './sliceColors';
import { setVisible } from './bodies';
import { session } from './session';
import { hoverValueStore, inspectStore, sceneStore, toolStore, type DoneCallOf, type HeatLabels, type HeatState, type ReviewSettings, type ShownError, type TitleBlock, type ToleranceSetting, type Vec3 } from './stores';
import { runFromPanel, selectTool, setFormValue } from './toolRuns';
import { canColorNominal, measuredPair, negateHistogram, negateLabels, negateStations, negateValues, nominalOf, rolePairs, type ColourOn, type InspectionRoles } from './roles';

/**
 * The deviation review: Compare (measure_deviation), then one call for the heat map with its colour
 * range, tolerance and statistics (deviation_heatmap with statistics), the tolerance band, the
 * worst point, deviation along an axis.
 */

function setHeat(patch: Partial<HeatState>): void {
  inspectStore.setState((s) => (s.heat ? { heat: { ...s.heat, ...patch } } : s));
}

/** The scene's inspection roles (roles.ts): every actual against the nominal, the first the one Compare offers. */
export function inspectionPairs(): InspectionRoles[] {
  return rolePairs(sceneStore.getState().bodies, inspectStore.getState().nominalMark);
}

/**
 * The measure_deviation pairs the review offers, one per actual: the first coloured where the user
 * chose (the actual by default, or the nominal), the others on the actual. A cloud is always the
 * measured side: it has no surface to be a reference.
 */
export function comparePairs(): { from: string; to: string; flip: boolean }[] {
  const { colorOn } = inspectStore.getState();
  const bodies = sceneStore.getState().bodies;
  return inspectionPairs().map((roles, i) => measuredPair(roles, i === 0 && colorOn === 'nominal' && canColorNominal(bodies, roles) ? 'nominal' : 'actual'));
}

/**
 * Which body of a compared pair an alignment moves: the actual onto the nominal, whichever side is
 * coloured (a cloud is never the nominal: it has no surface to align to).
 */
export function alignRoles(pair: { from: string; to: string }): { moving: string; fixed: string } {
  const nominal = nominalOf(sceneStore.getState().bodies, inspectStore.getState().nominalMark);
  return pair.from === nominal ? { moving: pair.to, fixed: pair.from } : { moving: pair.from, fixed: pair.to };
}

/** The first pair the review offers (the Compare button), null when there is none. */
export function comparePair(): { from: string; to: string } | null {
  const p = comparePairs()[0];
  return p ? { from: p.from, to: p.to } : null;
}

/**
 * Compare: measure_deviation with the spec's defaults (or a review's settings) from the tool panel
 * (progress, Cancel), then the heat map (showDeviation, through the result registry).
 */
export async function compareBodies(fromBodyId: string, toBodyId: string, settings: ReviewSettings = {}): Promise<void> {
  if (toolStore.getState().running) return;
  selectTool('measure_deviation');
  setFormValue('measure_deviation', 'fromBodyId', fromBodyId);
  setFormValue('measure_deviation', 'toBodyId', toBodyId);
  await runFromPanel('measure_deviation', { fromBodyId, toBodyId, ...settings }, { reveal: false });
}

/**
 * "On actual" / "on nominal": which surface the heat map colours. Before a run it changes the offer;
 * after one it measures the reviewed roles the other way round with the same settings, so the heat
 * map, legend, statistics and histogram follow, every signed figure still actual minus nominal.
 */
export async function setColorOn(on: ColourOn): Promise<void> {
  if (toolStore.getState().running) return;
  inspectStore.setState({ colorOn: on });
  const heat = inspectStore.getState().heat;
  if (!heat?.nominalBodyId) return;
  const actual = heat.fromBodyId === heat.nominalBodyId ? heat.toBodyId : heat.fromBodyId;
  const pair = measuredPair({ nominal: heat.nominalBodyId, actual }, on);
  if (pair.from === heat.fromBodyId) return;
  await compareBodies(pair.from, pair.to, heat.settings);
}

/** Marks a body as the nominal (issue 29.1): the offer follows; a shown review is dropped (its roles changed). */
export function markNominal(bodyId: string): void {
  inspectStore.setState({ nominalMark: bodyId });
  const heat = inspectStore.getState().heat;
  if (heat && heat.nominalBodyId !== nominalOf(sceneStore.getState().bodies, bodyId)) clearHeatmap();
}

/** The review's roles for a measured pair: the scene's nominal when it is one of the two. */
function reviewRoles(from: string, to: string): { nominalBodyId?: string; flip: boolean } {
  const nominal = nominalOf(sceneStore.getState().bodies, inspectStore.getState().nominalMark);
  if (nominal === from) return { nominalBodyId: from, flip: true };
  if (nominal === to) return { nominalBodyId: to, flip: false };
  return { flip: false };
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
  if (result.sections && axis) {
    // Stations read actual minus nominal too: negated when the nominal was measured.
    const stations = reviewRoles(from, to).flip ? negateStations(result.sections) : result.sections;
    inspectStore.setState({ deviationSections: { axis, stations, fromBodyId: from } });
  }
  const heat = inspectStore.getState().heat;
  if (heat && heat.fromBodyId === from && heat.toBodyId === to && heat.status !== 'failed' && sameSettings(heat.settings, settings)) {
    setHeat({ deviation: result });
    // The same review; only a verdict share that failed is asked for again.
    if (heat.status === 'done' && heat.actualWithinError) void refreshActualWithin(heatRun);
  } else void startHeatmap(from, to, settings, result);
}

/** Runs of the review, so an answer that arrives after a newer request is dropped. */
let heatRun = 0;
let histogramRun = 0;
let verdictRun = 0;
let toleranceTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * The colour range the nominal's view takes from the actual's view of the same pair (the review
 * before this one, or the one it carried over), so that one deviation has one colour in both views:
 * the 99th percentile of |d| differs between the two surfaces' vertices (the actual's, the nominal's
 * refined tessellation), and with it where the colours saturate (an assembly's pushed face read
 * full red on the actual at ±0.2 and mid red on the nominal at ±0.298). Undefined: the view's own.
 */
function sharedRange(previous: HeatState | null | undefined, fromBodyId: string, toBodyId: string, flip: boolean): { range: number; from: string } | undefined {
  if (!flip || previous?.status !== 'done') return undefined;
  if (!previous.flip && previous.fromBodyId === toBodyId && previous.toBodyId === fromBodyId) return { range: previous.range, from: previous.fromBodyId };
  if (previous.flip && previous.rangeFrom && previous.fromBodyId === fromBodyId && previous.toBodyId === toBodyId) return { range: previous.range, from: previous.rangeFrom };
  return undefined;
}

async function startHeatmap(fromBodyId: string, toBodyId: string, settings: ReviewSettings, deviation: HeatState['deviation']): Promise<void> {
  const run = ++heatRun;
  const previous = inspectStore.getState().heat;
  const hidReference = !!previous?.hidReference && previous.toBodyId === toBodyId;
  // A new pair: the reference the last review hid comes back (unless it stays the reference).
  if (previous?.hidReference && !hidReference && sceneStore.getState().bodies.some((b) => b.bodyId === previous.toBodyId)) setVisible(previous.toBodyId, true);
  const roles = reviewRoles(fromBodyId, toBodyId);
  const tolerance = inspectStore.getState().tolerance.value;
  inspectStore.setState({
    heat: {
      fromBodyId,
      toBodyId,
      ...roles,
      settings,
      status: 'running',
      range: 0,
      maxAbs: 0,
      signedVertices: 0,
      ambiguousVertices: 0,
      tolerance,
      ...(deviation ? { deviation } : {}),
      histogramStatus: 'running',
      ...(hidReference ? { hidReference } : {}),
    },
  });
  // The user's tolerance, never one derived from the data (issue 29.3).
  const outcome = await session().run('deviation_heatmap', { fromBodyId, toBodyId, statistics: true, tolerance, ...settings });
  if (run !== heatRun) return;
  if (!outcome.ok) {
    // The user removed one of the pair while it was measured: the review ends, nothing failed.
    const present = new Set(sceneStore.getState().bodies.map((b) => b.bodyId));
    if (outcome.error.code === 'BODY_NOT_FOUND' && (!present.has(fromBodyId) || !present.has(toBodyId))) clearHeatmap();
    else setHeat({ status: 'failed', error: outcome.error, histogramStatus: 'idle' });
    return;
  }
  const data = outcome.value.result;
  const values = roles.flip ? negateValues(data.values) : data.values;
  const histogram = data.statistics && roles.flip ? negateHistogram(data.statistics) : data.statistics;
  const shared = sharedRange(previous, fromBodyId, toBodyId, roles.flip);
  const range = shared?.range ?? data.colorRange;
  const span = colorSpan(range, data.tolerance);
  const colors = values.length > SLICED_COLOURING ? await colorVerticesSliced(values, span, data.tolerance, data.noData, () => run === heatRun) : colorVertices(values, span, data.tolerance, undefined, data.noData);
  if (!colors || run !== heatRun) return;
  setHeat({
    status: 'done',
    ...(data.mesh ? { mesh: data.mesh } : {}),
    values,
    range,
    ...(shared ? { rangeFrom: shared.from } : {}),
    worstVertex: data.worstVertex,
    maxAbs: data.range ? data.range[1] : 0,
    signedVertices: data.signedVertices,
    ambiguousVertices: data.ambiguousVertices,
    noData: data.noData,
    noDataVertices: data.noDataVertices,
    maxDistance: data.maxDistance,
    tolerance: data.tolerance,
    maxSamples: data.maxSamples,
    colors,
    ...(histogram ? { histogram, histogramStatus: 'done' as const } : { histogramStatus: 'idle' as const }),
  });
  if (roles.flip) void refreshActualWithin(run);
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
    ...statisticsArgs(heat, heat.fromBodyId, heat.toBodyId),
    // The heat map's search distance (the run's, or the default it derived): the same covered samples.
    ...(heat.maxDistance !== undefined ? { maxDistance: heat.maxDistance } : {}),
  });
  if (run !== heatRun || mine !== histogramRun) return;
  void measureLabels();
  if (outcome.ok) setHeat({ histogram: heat.flip ? negateHistogram(outcome.value.result) : outcome.value.result, histogramStatus: 'done' });
  else setHeat({ histogramStatus: 'failed', histogramError: outcome.error });
  if (heat.flip) void refreshActualWithin(run);
}

/**
 * With the nominal coloured: the actual's share within the tolerance, which the verdict reads (the
 * report's forward direction, at the same settings and search distance: the user's, else the
 * actual's own default, never the coverage direction's tighter one).
 */
async function refreshActualWithin(run: number): Promise<void> {
  const heat = inspectStore.getState().heat;
  if (!heat?.flip || run !== heatRun) return;
  const mine = ++verdictRun;
  setHeat({ actualWithin: undefined, actualWithinError: undefined });
  const outcome = await session().run('deviation_histogram', statisticsArgs(heat, heat.toBodyId, heat.fromBodyId));
  if (run !== heatRun || mine !== verdictRun) return;
  setHeat(outcome.ok ? { actualWithin: outcome.value.result.withinTolerance ?? null } : { actualWithin: null, actualWithinError: outcome.error });
}

/** deviation_histogram of `from` against `to` at the review's tolerance, run settings and sample budget. */
function statisticsArgs(heat: HeatState, from: string, to: string) {
  return { fromBodyId: from, referenceBodyId: to, tolerance: heat.tolerance, ...heat.settings, ...(heat.maxSamples ? { maxSamples: heat.maxSamples } : {}) };
}

/** Recolours at once; the share within tolerance follows after the slider rests. */
export function setTolerance(tolerance: number, source: ToleranceSetting['source'] = 'user'): void {
  if (!(tolerance >= 0) || !Number.isFinite(tolerance)) return;
  inspectStore.setState({ tolerance: { value: tolerance, source } });
  const heat = inspectStore.getState().heat;
  if (!heat?.values) {
    if (heat) setHeat({ tolerance });
    return;
  }
  if (heat.values.length > SLICED_COLOURING) {
    setHeat({ tolerance });
    const values = heat.values, wanted = () => inspectStore.getState().heat?.values === values && inspectStore.getState().tolerance.value === tolerance;
    void colorVerticesSliced(values, colorSpan(heat.range, tolerance), tolerance, heat.noData, wanted).then((colors) => {
      if (colors && wanted()) setHeat({ colors });
    });
  } else setHeat({ tolerance, colors: colorVertices(heat.values, colorSpan(heat.range, tolerance), tolerance, new Float32Array(heat.values.length * 3), heat.noData) });
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
  // The review goes first: showing the reference again changes the scene, whose listeners (a removed
  // body's views go with it) would otherwise find the review still there and clear it again, for ever.
  inspectStore.setState({ heat: null });
  hoverValueStore.setState(null, true);
  if (heat?.hidReference && sceneStore.getState().bodies.some((b) => b.bodyId === heat.toBodyId)) setVisible(heat.toBodyId, true);
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
  await runFromPanel('measure_deviation', { fromBodyId: pair.from, toBodyId: pair.to, ...settings, sectionAxis: axis, sections }, { reveal: false });
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
  if (outcome.ok) setLabels({ status: 'done', result: heat.flip ? negateLabels(outcome.value.result.labels) : outcome.value.result.labels });
  else setLabels({ status: 'failed', error: outcome.error });
}

/** The report's file name for a pair: letters, digits, dot, underscore and hyphen only. */
export function reportFileName(fromBodyId: string, toBodyId: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_');
  return `inspection-report-${safe(fromBodyId)}-vs-${safe(toBodyId)}.html`;
}

/** The verdict rule's required share (0 to 1]; the verdict on screen follows at once. */
export function setPassShare(share: number): void {
  if (share > 0 && share <= 1) inspectStore.setState({ passShare: share });
}

/** One field of the report's title block (empty clears it). */
export function setTitleField(key: keyof TitleBlock, value: string): void {
  inspectStore.setState((s) => {
    const next: TitleBlock = { ...s.titleBlock };
    if (value.trim() === '') delete next[key];
    else next[key] = value;
    return { titleBlock: next };
  });
}

/**
 * inspection_report's arguments for the review on screen: its roles (actual and nominal when the pair
 * has them), the user's tolerance and verdict rule, the title block, the statistics' own sample
 * budget and the run's settings, so the report's figures are the stats card's (issue 29.5) and its
 * verdict the page's (the actual's, whichever surface is coloured).
 */
export function reportArgs(heat: HeatState, outputPath: string): { outputPath: string } & Record<string, unknown> {
  const { passShare, titleBlock, sections: cut } = inspectStore.getState();
  const deviation = heat.deviation;
  const actual = heat.nominalBodyId ? (heat.fromBodyId === heat.nominalBodyId ? heat.toBodyId : heat.fromBodyId) : null;
  return {
    ...(heat.nominalBodyId && actual ? { actualBodyId: actual, nominalBodyId: heat.nominalBodyId } : { fromBodyId: heat.fromBodyId, referenceBodyId: heat.toBodyId }),
    outputPath,
    tolerance: heat.tolerance,
    passShare,
    ...(Object.keys(titleBlock).length ? { titleBlock } : {}),
    ...(deviation ? { signMode: deviation.signMode, surface: deviation.surface } : {}),
    ...(heat.settings.deflection !== undefined ? { deflection: heat.settings.deflection } : {}),
    ...(heat.maxSamples ? { maxSamples: heat.maxSamples } : {}),
    // The user's search distance only: the report applies it to both directions, and the coloured
    // direction's default (the heat map's) is the other direction's wrong one whenever the nominal is
    // coloured: the coverage default (scan noise) left a 1.5 mm boss of the actual out as no data.
    // Each direction's own default is what the screen showed for it.
    ...(heat.settings.maxDistance !== undefined ? { maxDistance: heat.settings.maxDistance } : {}),
    // The sections the user cut on this pair (the report's table and overlays; at most 50 stations there).
    ...(cut && [cut.fromBodyId, cut.referenceBodyId].sort().join() === [heat.fromBodyId, heat.toBodyId].sort().join()
      ? { sections: { axis: cut.axis, stations: Math.min(50, cut.result.sections.length) } }
      : {}),
    // The user's labels (placed on the coloured surface, which the report colours too), else the report's automatic ones.
    ...(heat.labels?.points.length && !heat.flip ? { labels: { points: heat.labels.points } } : {}),
    // The GD&T table of the last Check characteristics on this pair (issue 30.4).
    ...(heat.nominalBodyId && actual ? reportCharacteristics(actual, heat.nominalBodyId) : {}),
  };
}

async function writeReport(): Promise<{ name: string; bytes: Uint8Array } | ShownError | null> {
  const heat = inspectStore.getState().heat;
  if (!heat || heat.status !== 'done') return null;
  const name = reportFileName(heat.fromBodyId, heat.toBodyId);
  const outcome = await session().run('inspection_report', reportArgs(heat, name));
  if (!outcome.ok) return outcome.error;
  const file = outcome.value.outputs.find((o) => o.path === name);
  if (!file) return { code: 'INTERNAL', message: 'the report was not written' };
  return { name, bytes: file.bytes };
}

/**
 * "Download report": inspection_report for the review on screen, then the HTML file as a download.
 * Returns the error, if any, for the panel to show.
 */
export async function downloadReport(): Promise<ShownError | null> {
  const r = await writeReport();
  if (!r || !('bytes' in r)) return r;
  downloadBytes(r.name, r.bytes as Uint8Array<ArrayBuffer>, 'text/html');
  return null;
}

/**
 * "Print / PDF": the same HTML in a hidden frame, printed by the browser (its dialog saves a PDF).
 * The frame stays until the next print, so the dialog keeps its document.
 */
export async function printReport(): Promise<ShownError | null> {
  const r = await writeReport();
  if (!r || !('bytes' in r)) return r;
  document.getElementById('brepscope-print-frame')?.remove();
  const frame = document.createElement('iframe');
  frame.id = 'brepscope-print-frame';
  frame.setAttribute('aria-hidden', 'true');
  frame.style.cssText = 'position:fixed;width:0;height:0;border:0;right:0;bottom:0';
  frame.srcdoc = new TextDecoder().decode(r.bytes);
  frame.addEventListener('load', () => frame.contentWindow?.print(), { once: true });
  document.body.appendChild(frame);
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
