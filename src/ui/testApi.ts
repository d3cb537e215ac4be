import type { BodySummary } from '../engine';
import type { KernelState } from '../workers/client';
import { crashWorkerForTest, keptFiles, killWorkerForTest } from './session';
import { engineStore, kernelStore, sceneStore, toolStore, type AppError, type EngineNotice, type PickedFace, type ToolCall } from './stores';
import { shareLink } from './toolActions';

/**
 * What end-to-end tests read from the page (`window.__brepscope`): app state, not pixels. Every
 * method returns a plain JSON snapshot, except the two that break the worker on purpose.
 */
export interface BrepscopeTestApi {
  /** Bodies in the scene, in list order (the engine's summaries). */
  bodies(): BodySummary[];
  /** Ids of the bodies whose triangles have arrived and are drawn. */
  drawnBodies(): string[];
  /** Files still being imported. */
  pendingImports(): string[];
  kernel(): KernelState;
  /** The last tool call the page made (tool panel or metrics card), with its result or error; files as names and sizes. */
  lastToolResult(): (Omit<ToolCall, 'outputs'> & { outputs?: { path: string; size: number; mimeType: string }[] }) | null;
  errors(): AppError[];
  /** Registry tool names the panel offers (scene tools). */
  panelTools(): string[];
  /** The tool running from the panel, or null. */
  runningTool(): { tool: string; fraction: number | null } | null;
  /** Worker generation (1 = first worker), whether a restore is under way, and the notices shown. */
  engine(): { generation: number; restoring: boolean; notices: EngineNotice[] };
  /** BodyIds whose files the page keeps for a restore, in import order. */
  keptBodies(): string[];
  picked(): PickedFace | null;
  hovered(): { bodyId: string; face: number } | null;
  /** The share link the page would copy now, or why there is none. */
  shareLink(): { ok: true; url: string } | { ok: false; reason: string };
  /** Terminates the worker without an event, as an out-of-memory kill would; the page restores. */
  killWorker(): void;
  /** Throws an uncaught error inside the worker: detected through the worker's error event. */
  crashWorker(): void;
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
    lastToolResult: () => {
      const call = sceneStore.getState().lastToolResult;
      // Files written are bytes: the test API reports their names and sizes.
      if (!call) return null;
      const { outputs, ...rest } = call;
      return outputs ? { ...rest, outputs: outputs.map((o) => ({ path: o.path, size: o.bytes.byteLength, mimeType: o.mimeType })) } : rest;
    },
    errors: () => [...sceneStore.getState().errors],
    panelTools: () => toolStore.getState().manifests.filter((m) => m.category === 'scene').map((m) => m.name),
    runningTool: () => {
      const r = toolStore.getState().running;
      return r ? { tool: r.tool, fraction: r.fraction ?? null } : null;
    },
    engine: () => {
      const s = engineStore.getState();
      return { generation: s.generation, restoring: s.restoring, notices: [...s.notices] };
    },
    keptBodies: () => keptFiles().map((f) => f.bodyId),
    picked: () => sceneStore.getState().picked,
    hovered: () => sceneStore.getState().hovered,
    shareLink,
    killWorker: killWorkerForTest,
    crashWorker: crashWorkerForTest,
  };
  window.__brepscope = api;
}
