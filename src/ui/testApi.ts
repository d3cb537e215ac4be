import type { BodySummary, KernelState, ToolWarning } from '../engine';
import type { EngineClient, MeshWorkerStats } from '../workers/client';
import { worstOf } from './worstPoint';
import { countingClient, type EngineCallRecord } from './countingClient';
import { drawnAlignFaces, drawnEdgeSegments, drawnFeatureHighlights, drawnGdtHighlights, drawnGeometries } from '../viewer/BodyMesh';
import { Vector3, type Mesh, type Object3D } from 'three';
import { liveView } from '../viewer/CameraRig';
import { detail } from '../viewer/detail';
import { drawnGhosts, ghostCentre } from '../viewer/Ghost';
import { alignSetupStore } from './alignSetup';
import { gdtStore } from './gdt';
import { session, WorkerLost } from './session';
import { shareLink } from './shareLinks';
import { colorVertices } from './heatColors';
import { engineStore, inspectStore, kernelStore, sceneStore, toolStore, type AppError, type EngineNotice, type HoveredEntity, type PickedFace, type ToolCallRecord } from './stores';

/**
 * What end-to-end tests read from the page (`window.__brepscope`), in test builds only (vite build
 * --mode e2e): app state, not pixels. Every method returns a plain JSON snapshot, except the ones
 * that break the worker on purpose.
 */
export interface BrepscopeTestApi {
  /** Bodies in the scene, in list order (the engine's summaries). */
  bodies(): BodySummary[];
  /** Ids of the bodies whose triangles have arrived and are drawn. */
  drawnBodies(): string[];
  /** Ids of the bodies whose geometry the viewport has built (a frame may not be drawn yet). */
  viewGeometries(): string[];
  /** What the last frame drew of each body: its level of detail (-1 every triangle) and its triangles or points, and the measured cost per one. */
  viewDetail(): { bodies: Record<string, { level: number; count: number }>; msPerItem: number | null; frames: { ms: number; items: number }[] };
  /** Files still being imported. */
  pendingImports(): string[];
  kernel(): KernelState;
  /** The last tool call the page made (tool panel or metrics card), with its result or error; files as names and sizes. */
  lastToolResult(): (Omit<ToolCallRecord, 'outputs'> & { outputs?: { path: string; size: number; mimeType: string }[] }) | null;
  errors(): AppError[];
  /** Registry tool names the panel offers (scene tools). */
  panelTools(): string[];
  /** The tool running from the panel and how long it has run, or null. */
  runningTool(): { tool: string; fraction: number | null; elapsedMs: number } | null;
  /** Worker generation (1 = first worker), whether a restore is under way, and the notices shown. */
  engine(): { generation: number; restoring: boolean; notices: EngineNotice[] };
  /** BodyIds whose files the page keeps for a restore, in import order. */
  keptBodies(): string[];
  /** The picked face or edge (entity, id face[N] / edge[N]) with its query_topology entry. */
  picked(): PickedFace | null;
  hovered(): HoveredEntity | null;
  /** Edge line segments on screen by bodyId (BREP bodies with edges shown). */
  edgeSegments(): Record<string, number>;
  /** The share link the page would copy now, or why there is none. */
  shareLink(): { ok: true; url: string } | { ok: false; reason: string };
  /**
   * The deviation review: heat-map state and the drawn body's colour attribute classified per vertex
   * (proud: red clearly above blue; shy: blue clearly above red; the rest neutral or grey).
   */
  heatmap(): {
    status: string;
    fromBodyId: string;
    toBodyId: string;
    range: number;
    tolerance: number;
    signedVertices: number;
    ambiguousVertices: number;
    noDataVertices: number;
    worstPoint: number[] | null;
    histogramStatus: string;
    /** The search distance of the statistics (the run's, or the default the heat map derived). */
    maxDistance: number | null;
    /** The stats card's figures (actual minus nominal under roles), and the roles of the review. */
    histogram: { mean: number | null; p95: number; maxAbs: number; withinTolerance: number | null; noDataSamples: number; samples: number } | null;
    nominalBodyId: string | null;
    flip: boolean;
    /** noData: vertices drawn in the no-data colour, noDataBox the box around them (model units). */
    colorAttribute: { vertices: number; proud: number; shy: number; other: number; noData: number; noDataBox: { min: number[]; max: number[] } | null } | null;
  } | null;
  /** Align scan to part: the proposal or applied alignment shown, or null. */
  alignment(): { status: string; movingBodyId: string; fixedBodyId: string; rmsBefore: number; rmsAfter: number; rotationAngleDegrees: number; transform: number[][]; warnings: ToolWarning[] } | null;
  /**
   * The Align step's setup (method, datums, faces, the slot being picked) and what the viewport
   * draws for it: the ghost of a proposal (its body, the centre of its box where it is drawn) and
   * the picked faces highlighted on the nominal.
   */
  alignPreview(): {
    method: string;
    datums: Record<string, number>;
    faces: number[];
    picking: string | null;
    ghost: { bodyId: string; centre: number[]; transform: number[][] } | null;
    highlighted: Record<string, { faces: number[]; colors: string[]; triangles: number }>;
  };
  /** A placement a share link set, shown in the alignment's place (alignment() is then null), or null. */
  linkPlacement(): { status: string; movingBodyId: string; previous: number[][] | null } | null;
  /** The centre of each drawn body's triangles (its position attribute's box), by bodyId. */
  drawnCentres(): Record<string, number[]>;
  /** The triangles (or points: indices empty) drawn for each body, as plain arrays: e2e tests derive scans of a part from them. */
  drawnMeshes(): Record<string, { positions: number[]; indices: number[] }>;
  /** cross_section_compare's stations as drawn: count, worst, focused, images received. */
  sections(): { stations: number; worst: number | null; focused: number | null; images: number } | null;
  assembly(): { source: string; bodyId: string | null; hovered: string | null; rootChildren: number } | null;
  /** Graph panel: the validate state and the last SQLite export's size and first 16 bytes. */
  graph(): { validate: string | null; isValid: boolean | null; lastExport: { bodyId: string; size: number; head: string } | null; query: string | null };
  /** The feature list (recognize_features) and the faces it highlights in 3D, as drawn. */
  features(): {
    bodyId: string;
    status: string;
    kinds: string[];
    hovered: number | null;
    selected: number | null;
    drawn: { hovered: number; selected: number; triangles: number } | null;
  } | null;
  /** How many camera flights were asked for (the worst point button). */
  flights(): number;
  /**
   * Where each drawn body lies on screen: the 8 corners of its triangles' box projected with the live
   * camera, their extent in page CSS pixels; and the canvas's rectangle. Null without a view.
   */
  onScreen(): { canvas: ScreenRect; bodies: Record<string, ScreenRect> } | null;
  /** Every call the page made to the engine worker since the last reset, in order. */
  engineCalls(): EngineCallRecord[];
  resetEngineCalls(): void;
  /** How often the worker's engine did each kind of costly work (deviations), since the worker started. */
  traceCounts(): Promise<Record<string, number>>;
  /** The worker's mesh workers (how many, shared memory or not, jobs finished and failed); null without any. */
  meshWorkerStats(): Promise<MeshWorkerStats | null>;
  /** The worker holds the answer of each run of `tool` (its work done) until releaseTool: a run a test can Cancel without timing it. */
  holdTool(tool: string): Promise<void>;
  releaseTool(tool: string): Promise<void>;
  /** The worker answers the next run of `tool` on `bodyId` with KERNEL_ABORTED (WorkerTestHooks.abortNextRun). */
  abortNextRun(tool: string, bodyId: string): Promise<void>;
  /** The worker's next self-intersection check spins before its first check, as a kernel call that never returns; false without a self-check worker. */
  hangSelfCheck(): Promise<boolean>;
  /** Holds the viewport's frames (none drawn) or lets them go again. */
  holdFrames(): void;
  releaseFrames(): void;
  /** Terminates the worker without an event, as an out-of-memory kill would; the page restores. */
  killWorker(): void;
  /** Throws an uncaught error inside the worker: detected through the worker's error event. */
  crashWorker(): Promise<void>;
  /** GD&T (issue 30.4): the PMI read, the entry highlighted and what the view draws of it, the characteristics checked. */
  gdt(): {
    pmi: { bodyId: string; status: string; datums: string[]; tolerances: string[]; dimensions: number } | null;
    highlight: { bodyId: string; key: string; faces: number[]; tone: string; drawn: { faces: number; triangles: number; color: string } | null } | null;
    check: { status: string; alignment: { method: string; datums?: string[] } | null; rows: { id: string; kind: string; actual: number | null; pass: boolean | null; uncertainty?: number; withinUncertainty?: true }[] } | null;
  };
}

export interface ScreenRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

declare global {
  interface Window {
    __brepscope?: BrepscopeTestApi;
  }
}

/** Installs `window.__brepscope`; returns the client factory the page starts its session with (calls counted). */
export function installTestApi(createClient: () => EngineClient): () => EngineClient {
  const calls: EngineCallRecord[] = [];
  const api: BrepscopeTestApi = {
    bodies: () => sceneStore.getState().bodies.map((b) => b.summary),
    drawnBodies: () => sceneStore.getState().bodies.filter((b) => b.mesh && b.visible).map((b) => b.bodyId),
    viewGeometries: () => [...drawnGeometries.keys()],
    viewDetail: () => ({ bodies: Object.fromEntries(detail.drawn), msPerItem: detail.msPerItem ?? null, frames: [...detail.frames] }),
    pendingImports: () => sceneStore.getState().pending.map((p) => p.fileName),
    kernel: () => ({ ...kernelStore.getState() }),
    lastToolResult: () => {
      const call = sceneStore.getState().lastToolResult;
      // Files written are bytes: the test API reports their names and sizes.
      if (!call) return null;
      const { outputs, ...rest } = call;
      if (!outputs) return rest;
      return { ...rest, outputs: outputs.map((o) => ({ path: o.path, size: o.bytes.byteLength, mimeType: o.mimeType })) };
    },
    errors: () => [...sceneStore.getState().errors],
    panelTools: () => toolStore.getState().manifests.filter((m) => m.category === 'scene').map((m) => m.name),
    runningTool: () => {
      const r = toolStore.getState().running;
      return r ? { tool: r.tool, fraction: r.fraction ?? null, elapsedMs: performance.now() - r.startedAt } : null;
    },
    engine: () => {
      const s = engineStore.getState();
      return { generation: s.generation, restoring: s.restoring, notices: [...s.notices] };
    },
    keptBodies: () => session().keptFiles().map((f) => f.bodyId),
    picked: () => sceneStore.getState().picked,
    onScreen: () => {
      const { camera, scene, canvas } = liveView;
      if (!camera || !scene || !canvas) return null;
      const c = canvas.getBoundingClientRect();
      scene.updateMatrixWorld();
      camera.updateMatrixWorld();
      const bodies: Record<string, ScreenRect> = {};
      const visible = new Set(sceneStore.getState().bodies.filter((b) => b.visible).map((b) => b.bodyId));
      for (const [bodyId, geometry] of drawnGeometries) {
        if (!visible.has(bodyId)) continue;
        if (!geometry.boundingBox) geometry.computeBoundingBox();
        const box = geometry.boundingBox!;
        let owner: Object3D | null = null;
        scene.traverse((o) => void (!owner && (o as Mesh).geometry === geometry && (owner = o)));
        const world = (owner as Object3D | null)?.matrixWorld;
        const r = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
        for (let k = 0; k < 8; k++) {
          const p = new Vector3(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z);
          if (world) p.applyMatrix4(world);
          p.project(camera);
          const x = c.left + ((p.x + 1) / 2) * c.width, y = c.top + ((1 - p.y) / 2) * c.height;
          r.left = Math.min(r.left, x);
          r.right = Math.max(r.right, x);
          r.top = Math.min(r.top, y);
          r.bottom = Math.max(r.bottom, y);
        }
        bodies[bodyId] = r;
      }
      return { canvas: { left: c.left, top: c.top, right: c.right, bottom: c.bottom }, bodies };
    },
    hovered: () => sceneStore.getState().hovered,
    edgeSegments: () => Object.fromEntries(drawnEdgeSegments),
    shareLink: () => shareLink(window.location.href),
    heatmap: () => {
      const h = inspectStore.getState().heat;
      if (!h) return null;
      const geometry = drawnGeometries.get(h.fromBodyId);
      const attr = geometry?.getAttribute('color');
      let colorAttribute = null;
      if (geometry && attr) {
        const a = attr.array;
        const p = geometry.getAttribute('position').array;
        // Vertices drawn in the no-data colour, and the box around them.
        const absent = colorVertices(new Float32Array(1), 1, 0, undefined, [1]);
        const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
        let proud = 0, shy = 0, other = 0, noData = 0;
        for (let i = 0; i + 2 < a.length; i += 3) {
          const d = a[i]! - a[i + 2]!;
          if (d > 0.15) proud++;
          else if (d < -0.15) shy++;
          else other++;
          if (a[i] === absent[0] && a[i + 1] === absent[1] && a[i + 2] === absent[2]) {
            noData++;
            for (let k = 0; k < 3; k++) {
              lo[k] = Math.min(lo[k]!, p[i + k]!);
              hi[k] = Math.max(hi[k]!, p[i + k]!);
            }
          }
        }
        colorAttribute = { vertices: attr.count, proud, shy, other, noData, noDataBox: noData ? { min: lo, max: hi } : null };
      }
      return {
        status: h.status,
        fromBodyId: h.fromBodyId,
        toBodyId: h.toBodyId,
        range: h.range,
        tolerance: h.tolerance,
        signedVertices: h.signedVertices,
        ambiguousVertices: h.ambiguousVertices,
        noDataVertices: h.noDataVertices ?? 0,
        worstPoint: worstOf(h)?.point.slice() ?? null,
        histogramStatus: h.histogramStatus,
        maxDistance: h.maxDistance ?? null,
        histogram: h.histogram ? { mean: h.histogram.mean, p95: h.histogram.p95, maxAbs: h.histogram.maxAbs, withinTolerance: h.histogram.withinTolerance ?? null, noDataSamples: h.histogram.noDataSamples, samples: h.histogram.samples } : null,
        nominalBodyId: h.nominalBodyId ?? null,
        flip: h.flip,
        colorAttribute,
      };
    },
    alignment: () => {
      const a = inspectStore.getState().alignment;
      if (!a || a.origin === 'link') return null;
      const r = a.result;
      return { status: a.status, movingBodyId: a.movingBodyId, fixedBodyId: a.fixedBodyId, rmsBefore: r.rmsBefore, rmsAfter: r.rmsAfter, rotationAngleDegrees: r.rotationAngleDegrees, transform: r.transform.map((row) => [...row]), warnings: r.warnings.map((w) => ({ ...w })) };
    },
    alignPreview: () => {
      const s = alignSetupStore.getState();
      const ghost = [...drawnGhosts][0];
      return {
        method: s.method,
        datums: { ...s.datums } as Record<string, number>,
        faces: [...s.faces],
        picking: s.picking,
        ghost: ghost ? { bodyId: ghost[0], centre: ghostCentre(ghost[1]), transform: ghost[1].transform.map((r) => [...r]) } : null,
        highlighted: Object.fromEntries([...drawnAlignFaces].map(([id, h]) => [id, { faces: [...h.faces], colors: [...h.colors], triangles: h.triangles }])),
      };
    },
    linkPlacement: () => {
      const a = inspectStore.getState().alignment;
      return a?.origin === 'link' ? { status: a.status, movingBodyId: a.movingBodyId, previous: a.previous } : null;
    },
    drawnCentres: () => {
      const out: Record<string, number[]> = {};
      for (const [bodyId, geometry] of drawnGeometries) {
        geometry.computeBoundingBox();
        const b = geometry.boundingBox!;
        out[bodyId] = [(b.min.x + b.max.x) / 2, (b.min.y + b.max.y) / 2, (b.min.z + b.max.z) / 2];
      }
      return out;
    },
    drawnMeshes: () =>
      Object.fromEntries(
        [...drawnGeometries].map(([bodyId, g]) => [bodyId, { positions: [...(g.getAttribute('position').array as Float32Array)], indices: g.index ? [...(g.index.array as Uint32Array)] : [] }]),
      ),
    sections: () => {
      const s = inspectStore.getState().sections;
      return s ? { stations: s.result.sections.length, worst: s.result.worstStation, focused: s.focused, images: Object.keys(s.images).length } : null;
    },
    assembly: () => {
      const a = inspectStore.getState().assembly;
      return a ? { source: a.source, bodyId: a.bodyId, hovered: a.hovered, rootChildren: a.tree.children.length } : null;
    },
    graph: () => {
      const g = inspectStore.getState().graph;
      return {
        validate: g.validate?.status ?? null,
        isValid: g.validate?.result?.isValid ?? null,
        lastExport: g.lastExport ?? null,
        query: g.query?.status ?? null,
      };
    },
    features: () => {
      const f = inspectStore.getState().features;
      if (!f) return null;
      return { bodyId: f.bodyId, status: f.status, kinds: f.features.map((x) => x.kind), hovered: f.hovered, selected: f.selected, drawn: drawnFeatureHighlights.get(f.bodyId) ?? null };
    },
    flights: () => inspectStore.getState().flyTo?.token ?? 0,
    engineCalls: () => [...calls],
    resetEngineCalls: () => {
      calls.length = 0;
    },
    traceCounts: async () => (await session().client().testHooks?.traceCounts()) ?? {},
    meshWorkerStats: async () => (await session().client().testHooks?.meshWorkerStats()) ?? null,
    holdTool: async (tool) => {
      const hooks = session().client().testHooks;
      if (!hooks) throw new Error('holdTool: this engine client has no test hooks (a test build, vite --mode e2e, has them)');
      await hooks.holdTool(tool);
    },
    releaseTool: async (tool) => {
      await session().client().testHooks?.releaseTool(tool);
    },
    abortNextRun: async (tool, bodyId) => {
      const hooks = session().client().testHooks;
      if (!hooks) throw new Error('abortNextRun: this engine client has no test hooks (a test build, vite --mode e2e, has them)');
      await hooks.abortNextRun(tool, bodyId);
    },
    hangSelfCheck: async () => (await session().client().testHooks?.hangSelfCheckForTest(0)) ?? false,
    holdFrames: () => sceneStore.setState({ holdFrames: true }),
    releaseFrames: () => sceneStore.setState({ holdFrames: false }),
    killWorker: () => session().replaceWorker(new WorkerLost('WORKER_CRASHED', 'the engine worker was terminated')),
    crashWorker: async () => {
      await session().client().testHooks?.crashForTest();
    },
    gdt: () => {
      const { pmi, highlight, check } = gdtStore.getState();
      return {
        pmi: pmi ? { bodyId: pmi.bodyId, status: pmi.status, datums: pmi.result?.datums.map((d) => d.label) ?? [], tolerances: pmi.result?.tolerances.map((t) => t.kind) ?? [], dimensions: pmi.result?.dimensions.length ?? 0 } : null,
        highlight: highlight ? { ...highlight, drawn: drawnGdtHighlights.get(highlight.bodyId) ?? null } : null,
        check: check ? { status: check.status, alignment: check.result?.alignment ? { method: check.result.alignment.method, ...(check.result.alignment.datums ? { datums: check.result.alignment.datums } : {}) } : null, rows: check.result?.characteristics.map((c) => ({ id: c.id, kind: c.kind, actual: c.actual, pass: c.pass, ...(c.uncertainty !== undefined ? { uncertainty: c.uncertainty } : {}), ...(c.withinUncertainty ? { withinUncertainty: c.withinUncertainty } : {}) })) ?? [] } : null,
      };
    },
  };
  window.__brepscope = api;
  return () => countingClient(createClient(), calls);
}
