import { createStore } from 'zustand/vanilla';
import type { BodySummary, DisplayMesh, ErrorPayload } from '../engine';
import type { MetricsResult } from '../engine/tools/computeMetrics';
import type { KernelState } from '../workers/client';

/** A body in the scene as the page knows it: the engine's summary plus what is drawn. */
export interface BodyEntry {
  bodyId: string;
  summary: BodySummary;
  color: string;
  visible: boolean;
  /** Undefined until the worker sends the triangles. */
  mesh?: DisplayMesh;
  meshError?: ErrorPayload;
}

/** A file on its way into the scene. */
export interface PendingImport {
  key: number;
  fileName: string;
}

/** A failed import (or demo download), shown next to the drop zone with its code. */
export interface AppError {
  key: number;
  fileName: string;
  code: string;
  message: string;
}

export type MetricsState =
  | { status: 'running' }
  | { status: 'done'; result: MetricsResult }
  | { status: 'failed'; error: ErrorPayload };

export interface ToolCall {
  tool: string;
  args: unknown;
  ok: boolean;
  result?: unknown;
  error?: ErrorPayload;
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
}

export const sceneStore = createStore<SceneState>()(() => ({
  bodies: [],
  pending: [],
  errors: [],
  selectedId: null,
  metrics: {},
  lastToolResult: null,
  fitToken: 0,
}));

export const kernelStore = createStore<KernelState>()(() => ({ status: 'idle' }));

/** Body colours: distinguishable, and not only by red versus green. */
const PALETTE = ['#7f9cc4', '#e0a458', '#8fbf9f', '#c98bb9', '#d9d27e', '#9aa5b1'];

export function nextColor(index: number): string {
  return PALETTE[index % PALETTE.length] ?? '#9aa5b1';
}
