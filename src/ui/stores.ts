import { createStore } from 'zustand/vanilla';
import type { BodySummary, DisplayEdges, DisplayMesh, ToolManifest } from '../engine';
import type { MetricsResult } from '../engine/tools/computeMetrics';
import type { KernelState } from '../workers/client';
import type { FormValues } from './schemaForm';

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
  /** Undefined until the worker sends the triangles. */
  mesh?: DisplayMesh;
  meshError?: ShownError;
  /** BREP bodies: the edges as line segments, once the worker sends them. */
  edges?: DisplayEdges;
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

/** An error as the page shows it: the engine's codes plus the page's own (WORKER_CRASHED). */
export interface ShownError {
  code: string;
  message: string;
  details?: unknown;
}

/** A worker answer as the page sees it: a lost worker is one more error. */
export type UiOutcome<T> = { ok: true; result: T } | { ok: false; error: ShownError };

export type MetricsState =
  | { status: 'running' }
  | { status: 'done'; result: MetricsResult }
  | { status: 'failed'; error: ShownError };


/** A file a tool wrote (a PNG), copied to the page so it survives a worker restart. */
export interface ToolOutputFile {
  path: string;
  bytes: Uint8Array<ArrayBuffer>;
  mimeType: string;
}

export interface ToolCall {
  tool: string;
  args: unknown;
  ok: boolean;
  result?: unknown;
  error?: ShownError;
  /** Files written during the run. */
  outputs?: ToolOutputFile[];
  /** Wall time of the run in milliseconds. */
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
  entry?: unknown;
  error?: ShownError;
}

/** What the cursor is over: a face (BREP face or mesh triangle) or a BREP edge. */
export interface HoveredEntity {
  bodyId: string;
  entity: 'face' | 'edge';
  index: number;
}

export interface SceneState {
  bodies: BodyEntry[];
  pending: PendingImport[];
  errors: AppError[];
  selectedId: string | null;
  metrics: Record<string, MetricsState>;
  lastToolResult: ToolCall | null;
  /** Incremented to ask the viewport to fit the camera to the scene. */
  fitToken: number;
  /** How the next fit looks at the scene. */
  viewDirection: 'current' | 'iso' | 'front' | 'back' | 'top' | 'bottom' | 'right' | 'left';
  showGrid: boolean;
  showAxes: boolean;
  /** BREP edges drawn (and pickable). */
  showEdges: boolean;
  picked: PickedFace | null;
  /** The face or edge under the cursor. */
  hovered: HoveredEntity | null;
}

export const sceneStore = createStore<SceneState>()(() => ({
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
  picked: null,
  hovered: null,
}));

export interface ToolState {
  /** From the worker's listTools(); empty until it answers. */
  manifests: ToolManifest[];
  selected: string | null;
  /** Form text per tool and field path (what the user typed, not yet converted). */
  forms: Record<string, FormValues>;
  running: ToolRun | null;
  /** The last tool-panel run per tool, shown under its form. */
  results: Record<string, ToolCall>;
  /** The tool-panel run a share link would repeat. */
  lastRun: { tool: string; args: unknown } | null;
}

export const toolStore = createStore<ToolState>()(() => ({ manifests: [], selected: null, forms: {}, running: null, results: {}, lastRun: null }));

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

export const engineStore = createStore<EngineState>()(() => ({ generation: 0, restoring: false, notices: [] }));

export const kernelStore = createStore<KernelState>()(() => ({ status: 'idle' }));

/** Body colours: distinguishable, and not only by red versus green. */
const PALETTE = ['#7f9cc4', '#e0a458', '#8fbf9f', '#c98bb9', '#d9d27e', '#9aa5b1'];

export function nextColor(index: number): string {
  return PALETTE[index % PALETTE.length] ?? '#9aa5b1';
}
