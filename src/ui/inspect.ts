import { createStore } from 'zustand/vanilla';
import type { GraphQueryResult } from '../engine/graph/graphSqlite';
import type { GraphValidateResult } from '../engine/graph/graphValidate';
import type { CrossSectionResult } from '../engine/tools/crossSectionCompare';
import type { HistogramResult } from '../engine/tools/deviationHistogram';
import type { AssemblyNode } from '../engine/tools/inspectAssembly';
import type { DeviationResult, SectionStation as DeviationStation } from '../engine/tools/measureDeviation';
import type { HeatmapData, Outcome } from '../workers/client';
import { importFiles, lostError, openDemo, runTool, setVisible } from './actions';
import { downloadBytes } from './format';
import { colorVertices, defaultTolerance } from './heatColors';
import { call, keptFiles } from './session';
import { sceneStore, toolStore, type ShownError, type ToolCall, type ToolOutputFile, type UiOutcome } from './stores';
import { onPanelResult, runFromPanel, selectTool, setFormValue } from './toolActions';

export type Vec3 = [number, number, number];

/** The heat map of one from-body against one reference, with what the deviation review shows. */
export interface HeatState {
  fromBodyId: string;
  toBodyId: string;
  status: 'running' | 'done' | 'failed';
  error?: ShownError;
  /** Per display-mesh vertex signed deviation (NaN ambiguous), from the worker's deviationHeatmap. */
  values?: Float32Array;
  /**
   * Half-width m of the symmetric colour range [-m, m]: the 99th percentile of |value|, so a few
   * outliers (a hole in the scan) do not wash every other colour out; beyond it colours saturate.
   * 0 when nothing had a sign.
   */
  range: number;
  /** The largest |value| (the heat data's own symmetric range). */
  maxAbs: number;
  signedVertices: number;
  ambiguousVertices: number;
  tolerance: number;
  /** Linear-RGB vertex colours for the current tolerance. */
  colors?: Float32Array;
  /** The measure_deviation result that started the review (worst point). */
  deviation?: DeviationResult;
  histogram?: HistogramResult;
  histogramStatus: 'idle' | 'running' | 'done' | 'failed';
  histogramError?: ShownError;
  /** The review hid the reference (it would hide half the colours); Remove colours shows it again. */
  hidReference?: boolean;
}

export interface SectionsState {
  fromBodyId: string;
  referenceBodyId: string;
  axis: Vec3;
  result: CrossSectionResult;
  /** PNG per station index, when the run wrote them. */
  images: Record<number, ToolOutputFile>;
  focused: number | null;
}

export interface AssemblyState {
  tree: AssemblyNode;
  /** What was inspected: the file name (inputPath) or the bodyId. */
  source: string;
  /** The scene body made from that file, when there is one (hover highlights it). */
  bodyId: string | null;
  /** Path of the hovered or focused node ("0/2/1"). */
  hovered: string | null;
}

export interface GraphState {
  bodyId: string | null;
  validate?: { bodyId: string; status: 'running' | 'done' | 'failed'; result?: GraphValidateResult; error?: ShownError };
  exporting: boolean;
  exportError?: ShownError;
  /** The last export's size and first bytes (what the test API reads back). */
  lastExport?: { bodyId: string; size: number; head: string };
  query?: { fileName: string; status: 'running' | 'done' | 'failed'; result?: GraphQueryResult; error?: ShownError };
}

export interface InspectState {
  heat: HeatState | null;
  /** measure_deviation's stations along an axis, from the last run that asked for them. */
  deviationSections: { axis: Vec3; stations: DeviationStation[]; fromBodyId: string } | null;
  sections: SectionsState | null;
  assembly: AssemblyState | null;
  graph: GraphState;
  /** Asks the camera to fly to a point (the worst point, a station). */
  flyTo: { point: Vec3; token: number } | null;
}

export const inspectStore = createStore<InspectState>()(() => ({
  heat: null,
  deviationSections: null,
  sections: null,
  assembly: null,
  graph: { bodyId: null, exporting: false },
  flyTo: null,
}));

/** The deviation under the cursor (NaN: ambiguous), kept apart so pointer moves re-render only the readout. */
export const hoverValueStore = createStore<{ bodyId: string; value: number } | null>()(() => null);

function setHeat(patch: Partial<HeatState>): void {
  inspectStore.setState((s) => (s.heat ? { heat: { ...s.heat, ...patch } } : s));
}

/** The pair the deviation review offers: the first BREP body as candidate, the first mesh as reference. */
export function comparePair(): { from: string; to: string } | null {
  const bodies = sceneStore.getState().bodies;
  const brep = bodies.find((b) => b.summary.kind === 'brep');
  const mesh = bodies.find((b) => b.summary.kind === 'mesh');
  return brep && mesh ? { from: brep.bodyId, to: mesh.bodyId } : null;
}

/**
 * "Compare <model> with <scan>": measure_deviation with the spec's defaults from the tool panel
 * (progress, Cancel), then the heat map, histogram and stats (started by the result listener).
 */
export async function compareBodies(fromBodyId: string, toBodyId: string): Promise<void> {
  if (toolStore.getState().running) return;
  selectTool('measure_deviation');
  setFormValue('measure_deviation', 'fromBodyId', fromBodyId);
  setFormValue('measure_deviation', 'toBodyId', toBodyId);
  await runFromPanel('measure_deviation', { fromBodyId, toBodyId });
}

let heatRun = 0;

async function startHeatmap(fromBodyId: string, toBodyId: string, deviation: DeviationResult): Promise<void> {
  const run = ++heatRun;
  inspectStore.setState({
    heat: { fromBodyId, toBodyId, status: 'running', range: 0, maxAbs: 0, signedVertices: 0, ambiguousVertices: 0, tolerance: 0, deviation, histogramStatus: 'idle' },
  });
  const outcome = await workerCall<HeatmapData>((c) => c.api.deviationHeatmap(fromBodyId, toBodyId, {}) as Promise<Outcome<HeatmapData>>);
  if (run !== heatRun) return;
  if (!outcome.ok) {
    setHeat({ status: 'failed', error: outcome.error });
    return;
  }
  const data = outcome.result;
  const maxAbs = data.range ? data.range[1] : 0;
  const m = colourRange(data.values, maxAbs);
  const tolerance = defaultTolerance(m);
  setHeat({
    status: 'done',
    values: data.values,
    range: m,
    maxAbs,
    signedVertices: data.signedVertices,
    ambiguousVertices: data.ambiguousVertices,
    tolerance,
    colors: colorVertices(data.values, m, tolerance),
  });
  const reference = sceneStore.getState().bodies.find((b) => b.bodyId === toBodyId);
  if (reference?.visible && toBodyId !== fromBodyId) {
    setVisible(toBodyId, false);
    setHeat({ hidReference: true });
  }
  void refreshHistogram(run);
}

/** The 99th percentile of |value| over signed vertices (a typed-array sort: a few ms for 100k vertices). */
export function colourRange(values: Float32Array, maxAbs: number): number {
  const abs = new Float32Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === v) abs[n++] = v < 0 ? -v : v;
  }
  if (n === 0) return 0;
  const sorted = abs.subarray(0, n).sort();
  const p = sorted[Math.round((n - 1) * 0.99)]!;
  return p > 0 ? p : maxAbs;
}

let histogramRun = 0;

async function refreshHistogram(run: number): Promise<void> {
  const heat = inspectStore.getState().heat;
  if (!heat || run !== heatRun) return;
  const mine = ++histogramRun;
  setHeat({ histogramStatus: 'running' });
  const outcome: UiOutcome<HistogramResult> = await runTool<HistogramResult>('deviation_histogram', {
    fromBodyId: heat.fromBodyId,
    referenceBodyId: heat.toBodyId,
    tolerance: heat.tolerance,
  });
  if (run !== heatRun || mine !== histogramRun) return;
  if (outcome.ok) setHeat({ histogram: outcome.result, histogramStatus: 'done' });
  else setHeat({ histogramStatus: 'failed', histogramError: outcome.error });
}

let toleranceTimer: ReturnType<typeof setTimeout> | undefined;

/** Recolours at once; the histogram's share within tolerance follows after the slider rests. */
export function setTolerance(tolerance: number): void {
  const heat = inspectStore.getState().heat;
  if (!heat?.values || !(tolerance >= 0)) return;
  setHeat({ tolerance, colors: colorVertices(heat.values, heat.range, tolerance, new Float32Array(heat.values.length * 3)) });
  clearTimeout(toleranceTimer);
  const run = heatRun;
  toleranceTimer = setTimeout(() => void refreshHistogram(run), 400);
}

export function clearHeatmap(): void {
  heatRun++;
  const heat = inspectStore.getState().heat;
  if (heat?.hidReference && sceneStore.getState().bodies.some((b) => b.bodyId === heat.toBodyId)) setVisible(heat.toBodyId, true);
  inspectStore.setState({ heat: null });
  hoverValueStore.setState(null, true);
}

export function flyTo(point: Vec3): void {
  inspectStore.setState((s) => ({ flyTo: { point, token: (s.flyTo?.token ?? 0) + 1 } }));
}

/** measure_deviation with stations along an axis: the chart under the viewport. */
export async function plotDeviationSections(axis: Vec3, sections: number): Promise<void> {
  const heat = inspectStore.getState().heat;
  const pair = heat ? { from: heat.fromBodyId, to: heat.toBodyId } : comparePair();
  if (!pair || toolStore.getState().running) return;
  selectTool('measure_deviation');
  setFormValue('measure_deviation', 'sectionAxis', axis.map(String) as [string, string, string]);
  setFormValue('measure_deviation', 'sections', String(sections));
  await runFromPanel('measure_deviation', { fromBodyId: pair.from, toBodyId: pair.to, sectionAxis: axis, sections });
}

/** Where cross_section_compare writes its PNGs in the worker when run from the review. */
export const SECTIONS_DIR = 'sections';

export async function cutSections(axis: Vec3, stations: number): Promise<void> {
  const heat = inspectStore.getState().heat;
  const pair = heat ? { from: heat.fromBodyId, to: heat.toBodyId } : comparePair();
  if (!pair || toolStore.getState().running) return;
  const args = { fromBodyId: pair.from, referenceBodyId: pair.to, axis, stations, outputDir: SECTIONS_DIR };
  selectTool('cross_section_compare');
  setFormValue('cross_section_compare', 'fromBodyId', pair.from);
  setFormValue('cross_section_compare', 'referenceBodyId', pair.to);
  setFormValue('cross_section_compare', 'axis', axis.map(String) as [string, string, string]);
  setFormValue('cross_section_compare', 'stations', String(stations));
  setFormValue('cross_section_compare', 'outputDir', SECTIONS_DIR);
  await runFromPanel('cross_section_compare', args);
}

export function focusStation(station: number | null): void {
  inspectStore.setState((s) => (s.sections ? { sections: { ...s.sections, focused: station } } : s));
}

export function setAssemblyHover(path: string | null): void {
  inspectStore.setState((s) => (s.assembly && s.assembly.hovered !== path ? { assembly: { ...s.assembly, hovered: path } } : s));
}

/** The body an inspected file became: the kept file of that worker name, else a body of that id. */
function bodyForSource(source: string): string | null {
  const kept = keptFiles().find((f) => f.workerName === source);
  if (kept) return kept.bodyId;
  return sceneStore.getState().bodies.find((b) => b.bodyId === source)?.bodyId ?? null;
}

function asVec3(v: unknown): Vec3 | null {
  return Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number') ? (v as Vec3) : null;
}

/** Inspection views follow the tool panel's runs, from the Compare button, the forms and share links alike. */
onPanelResult((c: ToolCall) => {
  if (!c.ok) return;
  const args = (c.args ?? {}) as Record<string, unknown>;
  if (c.tool === 'measure_deviation') {
    const result = c.result as DeviationResult;
    const from = String(args.fromBodyId), to = String(args.toBodyId);
    const axis = asVec3(args.sectionAxis);
    if (result.sections && axis) inspectStore.setState({ deviationSections: { axis, stations: result.sections, fromBodyId: from } });
    const heat = inspectStore.getState().heat;
    if (heat && heat.fromBodyId === from && heat.toBodyId === to && heat.status !== 'failed') setHeat({ deviation: result });
    else void startHeatmap(from, to, result);
  } else if (c.tool === 'cross_section_compare') {
    const result = c.result as CrossSectionResult;
    const images: Record<number, ToolOutputFile> = {};
    for (const s of result.sections) {
      const file = s.imagePath ? c.outputs?.find((o) => o.path === s.imagePath) : undefined;
      if (file) images[s.station] = file;
    }
    inspectStore.setState({
      sections: {
        fromBodyId: String(args.fromBodyId),
        referenceBodyId: String(args.referenceBodyId),
        axis: asVec3(args.axis) ?? [0, 0, 1],
        result,
        images,
        focused: result.worstStation,
      },
    });
  } else if (c.tool === 'inspect_assembly') {
    const source = typeof args.inputPath === 'string' ? args.inputPath : String(args.bodyId);
    inspectStore.setState({ assembly: { tree: c.result as AssemblyNode, source, bodyId: bodyForSource(source), hovered: null } });
  }
});

/** Views of a removed body go with it. */
sceneStore.subscribe((s, prev) => {
  if (s.bodies === prev.bodies) return;
  const ids = new Set(s.bodies.map((b) => b.bodyId));
  const { heat, sections, assembly, deviationSections } = inspectStore.getState();
  if (heat && (!ids.has(heat.fromBodyId) || !ids.has(heat.toBodyId))) clearHeatmap();
  if (sections && (!ids.has(sections.fromBodyId) || !ids.has(sections.referenceBodyId))) inspectStore.setState({ sections: null });
  if (deviationSections && !ids.has(deviationSections.fromBodyId)) inspectStore.setState({ deviationSections: null });
  if (assembly?.bodyId && !ids.has(assembly.bodyId)) inspectStore.setState({ assembly: { ...assembly, bodyId: null } });
});

// ---- Graph panel ----

function setGraph(patch: Partial<GraphState>): void {
  inspectStore.setState((s) => ({ graph: { ...s.graph, ...patch } }));
}

async function workerCall<T>(fn: Parameters<typeof call<Outcome<T>>>[0]): Promise<UiOutcome<T>> {
  try {
    return await call(fn);
  } catch (e) {
    return { ok: false, error: lostError(e) };
  }
}

export async function validateGraph(bodyId: string): Promise<void> {
  setGraph({ validate: { bodyId, status: 'running' } });
  const outcome = await workerCall<GraphValidateResult>((c) => c.api.graphValidate(bodyId));
  setGraph({ validate: outcome.ok ? { bodyId, status: 'done', result: outcome.result } : { bodyId, status: 'failed', error: outcome.error } });
}

export async function exportGraph(bodyId: string): Promise<void> {
  setGraph({ exporting: true });
  const outcome = await workerCall<Uint8Array>((c) => c.api.graphExport(bodyId));
  if (!outcome.ok) {
    setGraph({ exporting: false, exportError: outcome.error });
    return;
  }
  const bytes = new Uint8Array(outcome.result);
  const head = String.fromCharCode(...bytes.subarray(0, 16));
  setGraph({ exporting: false, lastExport: { bodyId, size: bytes.byteLength, head } });
  downloadBytes(`${bodyId}.sqlite`, bytes, 'application/vnd.sqlite3');
}

const GRAPH_DB = /\.(sqlite|sqlite3|db)$/i;

export function isGraphDatabase(file: File): boolean {
  return GRAPH_DB.test(file.name);
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
  const outcome = await workerCall<GraphQueryResult>((c) => c.api.graphQuery(file.name, bytes));
  setGraph({ query: outcome.ok ? { fileName: file.name, status: 'done', result: outcome.result } : { fileName: file.name, status: 'failed', error: outcome.error } });
}

/** Files from a drop or the picker: graph databases go to the graph panel, everything else into the scene. */
export async function openFiles(files: readonly File[]): Promise<void> {
  const graphs = files.filter(isGraphDatabase);
  const models = files.filter((f) => !isGraphDatabase(f));
  await Promise.all([models.length ? importFiles(models) : Promise.resolve(), ...graphs.map((f) => queryGraphFile(f))]);
}

/** The demo, already compared: its reconstruction coloured against its scan. */
export async function openDemoCompared(): Promise<void> {
  const ids = await openDemo();
  const pair = comparePair();
  if (pair && ids.includes(pair.from) && ids.includes(pair.to)) await compareBodies(pair.from, pair.to);
}
