import type { BodySummary } from '../engine';
import type { KernelState } from '../workers/client';
import { kernelStore, sceneStore, type AppError, type ToolCall } from './stores';

/**
 * What end-to-end tests read from the page (`window.__brepscope`): app state, not pixels. Every
 * method returns a plain JSON snapshot.
 */
export interface BrepscopeTestApi {
  /** Bodies in the scene, in list order (the engine's summaries). */
  bodies(): BodySummary[];
  /** Ids of the bodies whose triangles have arrived and are drawn. */
  drawnBodies(): string[];
  /** Files still being imported. */
  pendingImports(): string[];
  kernel(): KernelState;
  /** The last tool call the page made, with its result or error. */
  lastToolResult(): ToolCall | null;
  errors(): AppError[];
}

declare global {
  interface Window {
    __brepscope?: BrepscopeTestApi;
  }
}

export function installTestApi(): void {
  const api: BrepscopeTestApi = {
    bodies: () => sceneStore.getState().bodies.map((b) => b.summary),
    drawnBodies: () => sceneStore.getState().bodies.filter((b) => b.mesh && b.visible).map((b) => b.bodyId),
    pendingImports: () => sceneStore.getState().pending.map((p) => p.fileName),
    kernel: () => ({ ...kernelStore.getState() }),
    lastToolResult: () => sceneStore.getState().lastToolResult,
    errors: () => [...sceneStore.getState().errors],
  };
  window.__brepscope = api;
}
