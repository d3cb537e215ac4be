import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  AlignResult,
  AssemblyNode,
  BodySummary,
  CrossSectionResult,
  DeviationLabel,
  DeviationResult,
  DeviationStation,
  DisplayEdges,
  Feature,
  GraphQueryResult,
  GraphValidateResult,
  HistogramResult,
  KernelState,
  MetricsResult,
  OutputFile,
  ToolManifest,
  ToolName,
  ToolResult,
  TopologyEntry,
  Vec3,
} from '../engine';
import type { ViewMesh } from '../viewer/displayBuffers';
import type { FormValues } from './schemaForm';

/**
 * Every piece of the page's state, in vanilla zustand stores (React reads them through hooks).
 * Actions are plain functions over these stores (bodies.ts, toolRuns.ts, deviationReview.ts ...);
 * `resetStores` puts every store back to its start, for tests and for a fresh page.
 */

/** An error as the page shows it: the engine's codes plus the page's own (WORKER_CRASHED). */
export interface ShownError {
  code: string;
  message: string;
  details?: unknown;
}

/** A worker answer as the page sees it: a lost worker is one more error. */
export type UiOutcome<T> = { ok: true; value: T } | { ok: false; error: ShownError };

/** A body in the scene as the page knows it: the engine's summary plus what is drawn. */
export interface BodyEntry {
  bodyId: string;
  summary: BodySummary;
  color: string;
  visible: boolean;
  /** 0.1 to 1. */
  opacity: number;
  /** Where the file was downloaded from (share links), when it came from a URL. */
  sourceUrl?: string;
  /** Undefined until the worker sends the triangles (with the viewport's buffers, when a worker made them). */
  mesh?: ViewMesh;
  meshError?: ShownError;
  /** BREP bodies: the edges as line segments, once the worker sends them. */
  edges?: DisplayEdges;
  /** BREP bodies: every face's or edge's query_topology entry, asked once (at the first pick) and gone with the body. */
  topology?: Partial<Record<'face' | 'edge', TopologyEntry[]>>;
  /** The latest validation of the body (validate_geometry or graph_validate): the badge follows it, not the import's check. */
  validation?: BodyValidation;
}

/** A validation run's verdict on one body, as the body list's badge shows it. */
export interface BodyValidation {
  valid: boolean;
  by: 'validate_geometry' | 'graph_validate';
  /** Issues of severity error. */
  errors: number;
}

/** A file on its way into the scene. */
export interface PendingImport {
  key: number;
  fileName: string;
  stage: 'downloading' | 'reading' | 'importing' | 'drawing';
  /** Share of the bytes read or downloaded, when known. */
  fraction?: number;
}

/** A failed import (or demo download), shown next to the drop zone with its code. */
export interface AppError {
  key: number;
  fileName: string;
  code: string;
  message: string;
}

export type MetricsState = { status: 'running' } | { status: 'done'; result: MetricsResult } | { status: 'failed'; error: ShownError };

/** A successful run of tool N: its result and the files it wrote. */
export interface DoneRun<N extends ToolName> {
  tool: N;
  args: unknown;
  ok: true;
  result: ToolResult<N>;
  outputs: OutputFile[];
  /** Wall time in milliseconds. */
  ms: number;
}

export interface FailedRun<N extends ToolName> {
  tool: N;
  args: unknown;
  ok: false;
  error: ShownError;
  ms?: number;
}

/** A finished run, as a union over the tools: narrowing `tool` narrows `result`. */
export type ToolCallOf<N extends ToolName> = { [K in N]: DoneRun<K> | FailedRun<K> }[N];
export type DoneCallOf<N extends ToolName> = { [K in N]: DoneRun<K> }[N];
export type ToolCall = ToolCallOf<ToolName>;

/** Any finished call, whatever its tool: what the page reports as its last call (the test API reads it). */
export interface ToolCallRecord {
  tool: string;
  args: unknown;
  ok: boolean;
  result?: unknown;
  error?: ShownError;
  outputs?: OutputFile[];
  ms?: number;
}

/** A tool run in progress (one at a time from the tool panel). */
export interface ToolRun {
  tool: string;
  args: unknown;
  startedAt: number;
  /** Last progress report in [0, 1]; undefined while the tool reports none. */
  fraction?: number;
  message?: string;
}

/** The face (BREP) or triangle (mesh), or the BREP edge, picked in the viewport, with its query_topology entry. */
export interface PickedFace {
  bodyId: string;
  entity: 'face' | 'edge';
  /** face[N] (for a mesh body N is the triangle index) or edge[N]. */
  id: string;
  status: 'loading' | 'done' | 'failed';
  entry?: TopologyEntry;
  error?: ShownError;
}

/** What the cursor is over: a face (BREP face or mesh triangle) or a BREP edge. */
export interface HoveredEntity {
  bodyId: string;
  entity: 'face' | 'edge';
  index: number;
}

export type ViewDirection = 'current' | 'iso' | 'front' | 'back' | 'top' | 'bottom' | 'right' | 'left';

export interface SceneState {
  bodies: BodyEntry[];
  pending: PendingImport[];
  errors: AppError[];
  selectedId: string | null;
  metrics: Record<string, MetricsState>;
  lastToolResult: ToolCallRecord | null;
  /** Incremented to ask the viewport to fit the camera to the scene. */
  fitToken: number;
  /** How the next fit looks at the scene. */
  viewDirection: ViewDirection;
  showGrid: boolean;
  showAxes: boolean;
  /** BREP edges drawn (and pickable). */
  showEdges: boolean;
  /** Every triangle drawn at rest (else big scans are drawn at a level of detail: src/viewer/detail.ts). */
  fullDetail: boolean;
  picked: PickedFace | null;
  /** The face or edge under the cursor. */
  hovered: HoveredEntity | null;
  /** Test builds only (the test API): the viewport draws no frame while true. */
  holdFrames: boolean;
  /** Keys for pending imports and error cards, and the palette index of the next body: counters, kept here so a reset resets them. */
  nextKey: number;
  nextColor: number;
}

export interface ToolState {
  /** From the worker's tools(); empty until it answers. */
  manifests: ToolManifest[];
  selected: string | null;
  /** Form text per tool and field path (what the user typed, not yet converted). */
  forms: Record<string, FormValues>;
  running: ToolRun | null;
  /** The last tool-panel run per tool, shown under its form. */
  results: Partial<Record<string, ToolCall>>;
  /** The tool-panel run a share link would repeat. */
  lastRun: { tool: string; args: unknown } | null;
  /** Counts results the panel should bring into view (a form's run; not one the journey started). */
  reveal: number;
}

/** Messages about the engine itself (a worker crash and restart), shown at the top of the page. */
export interface EngineNotice {
  key: number;
  code: string;
  message: string;
}

export interface EngineState {
  /** Counts worker starts: 1 for the first worker. */
  generation: number;
  /** True while a new worker is loading the kept files back. */
  restoring: boolean;
  notices: EngineNotice[];
}

/** The arguments of the measure_deviation run a review shows, besides the pair (only those the run was given). */
export interface ReviewSettings {
  deflection?: number;
  signMode?: 'robust' | 'nearest';
  maxSamples?: number;
  surface?: 'exact' | 'tessellated';
  maxDistance?: number;
}

/** The heat map of one from-body against one reference, with what the deviation review shows. */
export interface HeatState {
  fromBodyId: string;
  toBodyId: string;
  /** The settings of the run the review shows: the heat map, statistics and histogram were computed with them. */
  settings: ReviewSettings;
  /** The statistics' sample budget (deviation_heatmap's answer): the tolerance reruns use the same samples. */
  maxSamples?: number;
  status: 'running' | 'done' | 'failed';
  error?: ShownError;
  /**
   * The triangles the heat map colours (deviation_heatmap's mesh: the display mesh refined so a
   * no-data patch has vertices), drawn in place of the body's display mesh while the colours show.
   */
  mesh?: ViewMesh;
  /** Per heat-map mesh vertex signed deviation (NaN ambiguous), from deviation_heatmap. */
  values?: Float32Array;
  /**
   * Half-width m of the symmetric colour range [-m, m]: the 99th percentile of |value|, so a few
   * outliers (a hole in the scan) do not wash every other colour out; beyond it colours saturate.
   * 0 when nothing had a sign.
   */
  range: number;
  /**
   * With the nominal coloured after the actual of the same pair: the actual, whose vertices gave
   * `range`, so both views (and the report's pictures, which colour the actual) share one colour
   * scale; unset when the range is the coloured body's own.
   */
  rangeFrom?: string;
  /** The covered heat-map vertex farthest from the reference (deviation_heatmap's worstVertex). */
  worstVertex?: { distance: number; point: Vec3 } | null;
  /** The largest |value| (the heat data's own symmetric range). */
  maxAbs: number;
  signedVertices: number;
  ambiguousVertices: number;
  /** Per heat-map mesh vertex, 1 where it has no counterpart on the reference (drawn NO_DATA; its value is NaN). */
  noData?: Uint8Array;
  noDataVertices?: number;
  /** The heat map's maximum search distance (the run's argument or the engine's default). */
  maxDistance?: number;
  tolerance: number;
  /** Linear-RGB vertex colours for the current tolerance. */
  colors?: Float32Array;
  /** The measure_deviation result that started the review (worst point). */
  deviation?: DeviationResult;
  histogram?: HistogramResult;
  histogramStatus: 'idle' | 'running' | 'done' | 'failed';
  /**
   * With the nominal coloured (`flip`): the share of the actual's samples within ±tolerance, the
   * verdict's figure (deviation_histogram actual -> nominal at the run's settings; undefined while it
   * is measured, null when it could not be). The colours and the stats card show the nominal's
   * coverage, but the verdict is always the actual's, as the report's: a defect of the actual (a
   * boss) has no counterpart on the nominal's surface, so its coverage can pass a part that fails.
   */
  actualWithin?: number | null | undefined;
  /** Why actualWithin is null: the verdict's statistics failed (shown where the verdict would be). */
  actualWithinError?: ShownError | undefined;
  histogramError?: ShownError;
  /** Deviation labels the user placed by clicking the coloured surface, measured by deviation_labels. */
  labels?: HeatLabels;
  /**
   * The nominal of the review (roles.ts) when one of the pair is; `flip` when the coloured body is the
   * nominal: every signed figure the page keeps (values, histogram, labels) was negated on arrival,
   * so all of them read actual minus nominal.
   */
  nominalBodyId?: string;
  flip: boolean;
  /** The review hid the reference (it would hide half the colours); Remove colours shows it again. */
  hidReference?: boolean;
}

export interface HeatLabels {
  /** While on, a click on the coloured body adds a label instead of picking a face. */
  adding: boolean;
  /** The clicked points, in label order. */
  points: Vec3[];
  status: 'idle' | 'running' | 'done' | 'failed';
  /** deviation_labels for `points` at the current tolerance. */
  result?: DeviationLabel[];
  error?: ShownError;
}

/**
 * "Align scan to part": align_bodies' answer (not applied yet: proposed), then applied through
 * set_placement on the user's confirmation; Undo resets the placement.
 */
export interface AlignmentState {
  /** An alignment run in this page (LinkPlacement is the other kind). */
  origin?: 'align';
  movingBodyId: string;
  fixedBodyId: string;
  status: 'proposed' | 'applying' | 'applied' | 'failed';
  result: AlignResult;
  /** The moving body's placement before the alignment was applied (Undo goes back to it); null: as read from its file. */
  previous?: number[][] | null;
  error?: ShownError;
  /** The applied alignment this answer (nothing better found) was asked from: back on show when the user dismisses it. */
  prior?: AlignmentState;
}

/** An actual align_bodies found already aligned to its nominal where it stands (InspectState.alignChecked). */
export interface AlignChecked {
  movingBodyId: string;
  fixedBodyId: string;
  /** RMS at the pose where it stands. */
  rms: number;
  transform: number[][] | null;
}

/**
 * A placement a share link set (its set_placement runs): shown in the alignment's place so the page
 * does not look unaligned, with Undo back to where the body stood before the link placed it.
 */
export interface LinkPlacement {
  origin: 'link';
  movingBodyId: string;
  status: 'applied';
  /** The body's placement before the link's runs; null: as read from its file. */
  previous: number[][] | null;
  error?: ShownError;
}

export interface SectionsState {
  fromBodyId: string;
  referenceBodyId: string;
  axis: Vec3;
  result: CrossSectionResult;
  /** PNG per station index, when the run wrote them. */
  images: Record<number, OutputFile>;
  focused: number | null;
  /** The run's arguments: a new tolerance cuts the same sections again with it (sections.ts followTolerance). */
  args?: Record<string, unknown>;
  /** This run cut the sections on screen again for a new tolerance (the dock keeps the tab the user looks at). */
  recut?: boolean;
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
  validate?: { bodyId: string; status: 'running' | 'done' | 'failed'; result?: GraphValidateResult; error?: ShownError };
  exporting: boolean;
  exportError?: ShownError;
  /** The last export's size and first bytes (what the test API reads back). */
  lastExport?: { bodyId: string; size: number; head: string };
  query?: { fileName: string; status: 'running' | 'done' | 'failed'; result?: GraphQueryResult; error?: ShownError };
}

/** recognize_features of one body, as the feature list shows it. */
export interface FeaturesState {
  bodyId: string;
  status: 'running' | 'done' | 'failed';
  features: Feature[];
  error?: ShownError;
  /** Index of the feature under the pointer (or keyboard focus): its faces glow in 3D. */
  hovered: number | null;
  /** Index of the feature clicked: its faces stay highlighted until another is clicked or it is clicked again. */
  selected: number | null;
}

export interface InspectState {
  heat: HeatState | null;
  features: FeaturesState | null;
  alignment: AlignmentState | LinkPlacement | null;
  /**
   * align_bodies found the actual already aligned where it stands and the user dismissed the answer
   * (OK): the Align step keeps saying so while the body stays at `transform` (its placement then;
   * null: as read from its file). Before, OK dropped the answer and the step said "not aligned" again.
   */
  alignChecked: AlignChecked | null;
  /** measure_deviation's stations along an axis, from the last run that asked for them. */
  deviationSections: { axis: Vec3; stations: DeviationStation[]; fromBodyId: string } | null;
  sections: SectionsState | null;
  assembly: AssemblyState | null;
  graph: GraphState;
  /** Asks the camera to fly to a point (the worst point, a station). */
  flyTo: { point: Vec3; token: number } | null;
  /**
   * Inspection roles (issue 29.1, roles.ts): the body the user marked as the nominal (null: the first
   * BREP body), and which side of the pair the heat map colours (the actual by default).
   */
  nominalMark: string | null;
  colorOn: 'actual' | 'nominal';
  /** The user's tolerance (issue 29.3): one value for colours, legend, labels, histogram, verdict, report and links. */
  tolerance: ToleranceSetting;
  /** The verdict rule: PASS when the share within ±tolerance is at least this. */
  passShare: number;
  /** The report's title block, editable in the review. */
  titleBlock: TitleBlock;
}

/** Where the tolerance came from: the stated default, the CAD's general tolerance (PMI), the user, a share link or session. */
export interface ToleranceSetting {
  value: number;
  source: 'default' | 'pmi' | 'user' | 'link';
}

/** The report's title block (inspection_report's `titleBlock`). */
export interface TitleBlock {
  part?: string;
  revision?: string;
  serial?: string;
  operator?: string;
  date?: string;
}

/** The stated default tolerance (±, in the nominal's unit) and verdict share, used when nothing else sets them. */
export const DEFAULT_TOLERANCE = 0.1;
export const DEFAULT_PASS_SHARE = 0.99;

export type { Vec3 };

/** The deviation under the cursor (NaN: ambiguous; 'noData': no counterpart on the reference), kept apart so pointer moves re-render only the readout. */
export type HoverValue = { bodyId: string; value: number | 'noData' } | null;

const initialScene = (): SceneState => ({
  bodies: [],
  pending: [],
  errors: [],
  selectedId: null,
  metrics: {},
  lastToolResult: null,
  fitToken: 0,
  viewDirection: 'current',
  showGrid: true,
  showAxes: true,
  showEdges: true,
  fullDetail: false,
  picked: null,
  hovered: null,
  holdFrames: false,
  nextKey: 0,
  nextColor: 0,
});
const initialTools = (): ToolState => ({ manifests: [], selected: null, forms: {}, running: null, results: {}, lastRun: null, reveal: 0 });
const initialEngine = (): EngineState => ({ generation: 0, restoring: false, notices: [] });
const initialKernel = (): KernelState => ({ status: 'idle' });
const initialInspect = (): InspectState => ({ heat: null, features: null, alignment: null, alignChecked: null, deviationSections: null, sections: null, assembly: null, graph: { exporting: false }, flyTo: null, nominalMark: null, colorOn: 'actual', tolerance: { value: DEFAULT_TOLERANCE, source: 'default' }, passShare: DEFAULT_PASS_SHARE, titleBlock: {} });

const resets: (() => void)[] = [];

/** A store reset with the others (resetStores). */
export function store<T>(initial: () => T): StoreApi<T> {
  const s = createStore<T>()(initial);
  resets.push(() => s.setState(initial(), true));
  return s;
}

export const sceneStore = store(initialScene);
export const toolStore = store(initialTools);
export const engineStore = store(initialEngine);
export const kernelStore = store(initialKernel);
export const inspectStore = store(initialInspect);
export const hoverValueStore = store<HoverValue>(() => null);

/** Every store back to its start. */
export function resetStores(): void {
  for (const reset of resets) reset();
}

/** A fresh key for a pending import or an error card. */
export function takeKey(): number {
  const key = sceneStore.getState().nextKey + 1;
  sceneStore.setState({ nextKey: key });
  return key;
}

/** Body colours: distinguishable, and not only by red versus green. */
const PALETTE = ['#7f9cc4', '#e0a458', '#8fbf9f', '#c98bb9', '#d9d27e', '#9aa5b1'];

/** The colour of the next body added to the scene. */
export function takeColor(): string {
  const index = sceneStore.getState().nextColor;
  sceneStore.setState({ nextColor: index + 1 });
  return PALETTE[index % PALETTE.length] ?? '#9aa5b1';
}
