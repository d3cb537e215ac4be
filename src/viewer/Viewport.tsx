import { Canvas, useFrame, useThree } from '@react-three/fiber';
import { useEffect, useMemo, useRef } from 'react';
import { BufferAttribute, BufferGeometry, DoubleSide, Group, LineBasicMaterial, LineSegments, Mesh, MeshStandardMaterial, OrthographicCamera, Points, PointsMaterial, Scene, type Material } from 'three';
import { BodyMesh, type ViewBody } from './BodyMesh';
import type { ViewMesh } from './displayBuffers';
import { BodyPoints } from './BodyPoints';
import { boundsOf, gridStep, type ViewBounds } from './bounds';
import { CameraRig, type FlyTarget, type ViewDirection } from './CameraRig';
import { applyLevels, detail, MOVING_BUDGET_MS, recordFrame, REST_BUDGET_MS, wantsOtherLevels } from './detail';
import { Ghost, type ViewGhost } from './Ghost';
import { LabelAnchors, Markers, type LabelSpots, type ViewMarkers } from './Overlays';
import { softwareRenderer } from './renderer';
import type { ViewRect } from './viewFrame';

export type { ViewBody } from './BodyMesh';
export type { FlyTarget, ViewDirection } from './CameraRig';
export type { LabelSpots, StationPlanes, ViewMarkers } from './Overlays';
export type { ViewGhost } from './Ghost';
export { boundsOf } from './bounds';
export { freeRect, type ViewRect } from './viewFrame';
export { liveView } from './CameraRig';

/** The viewport background; e2e tests count pixels that differ from it. */
export const VIEWPORT_BACKGROUND = '#e9edf2';

interface ViewportProps {
  bodies: readonly ViewBody[];
  fitToken: number;
  direction: ViewDirection;
  showGrid: boolean;
  showAxes: boolean;
  onPick?: (bodyId: string, face: number, point: readonly [number, number, number]) => void;
  onHover?: (bodyId: string, face: number | null) => void;
  /** A BREP edge clicked (within a few pixels of its line; wins over the face under it). */
  onPickEdge?: (bodyId: string, edge: number) => void;
  onHoverEdge?: (bodyId: string, edge: number | null) => void;
  onMiss?: () => void;
  onHoverValue?: (bodyId: string, value: number | 'noData' | null) => void;
  markers?: ViewMarkers;
  /** Where the labels' points (markers.labels) lie on the canvas, after each frame that moved them. */
  onLabelSpots?: (spots: LabelSpots) => void;
  flyTo?: FlyTarget | null;
  /** A body drawn translucent at a proposed pose (an alignment's preview), beside the body itself. */
  ghost?: ViewGhost | null;
  /**
   * No frame is drawn while true (test builds: a long-task measurement of an import apart from
   * the frame that draws it, which headless Chromium renders in software for seconds).
   */
  holdFrames?: boolean;
  /** The part of the view no overlay covers (CSS pixels from its top-left): the scene is drawn in it. */
  frame?: ViewRect | null;
  /** Every triangle of every body drawn at rest (else big bodies are drawn at a level of detail the renderer keeps up with). */
  fullDetail?: boolean;
}

/** A grid under the scene on its lowest z, in round steps, and the world axes at the origin. */
function Guides({ bounds, showGrid, showAxes }: { bounds: ViewBounds; showGrid: boolean; showAxes: boolean }) {
  const span = Math.max(bounds.max[0] - bounds.min[0], bounds.max[1] - bounds.min[1], bounds.radius) * 2;
  const step = gridStep(span);
  const divisions = Math.max(2, Math.ceil(span / step));
  const size = divisions * step;
  const cx = Math.round(bounds.center[0] / step) * step;
  const cy = Math.round(bounds.center[1] / step) * step;
  return (
    <>
      {showGrid && (
        <gridHelper
          args={[size, divisions, '#9aa6b8', '#c6ced9']}
          position={[cx, cy, bounds.min[2] - bounds.radius * 1e-3]}
          rotation={[Math.PI / 2, 0, 0]}
          raycast={() => undefined}
        />
      )}
      {showAxes && <axesHelper args={[bounds.radius * 0.6]} raycast={() => undefined} renderOrder={1} />}
    </>
  );
}

/** Draws a frame when held frames are let go (the demand loop would wait for the next change). */
function ResumeFrames({ held }: { held: boolean }) {
  const invalidate = useThree((s) => s.invalidate);
  useEffect(() => {
    if (!held) invalidate();
  }, [held, invalidate]);
  return null;
}

/**
 * Renders each frame itself (a useFrame of priority 1 takes over from the canvas): picks each big
 * body's level of detail for the frame (detail.ts), draws, and records what the frame cost the
 * page's thread, up to a message posted as it was drawn: the message runs once the frame is on its
 * way to the screen, which a software renderer holds up for as long as it draws (`gl.finish()` does
 * not: Chromium answers it before SwiftShader has drawn). At rest, one or two more frames refine
 * the view when the cost leaves room.
 */
function DetailFrames({ fullDetail }: { fullDetail: boolean }) {
  const invalidate = useThree((s) => s.invalidate);
  const channel = useMemo(() => new MessageChannel(), []);
  useEffect(() => () => channel.port1.close(), [channel]);
  useEffect(() => {
    detail.fullDetail = fullDetail;
    detail.refine = 2;
    invalidate();
  }, [fullDetail, invalidate]);
  useFrame(({ gl, scene, camera }) => {
    const budget = detail.moving ? MOVING_BUDGET_MS : REST_BUDGET_MS;
    const items = applyLevels(budget);
    const t0 = performance.now();
    gl.render(scene, camera);
    channel.port1.onmessage = () => {
      recordFrame(performance.now() - t0, items);
      if (!detail.moving && detail.refine > 0) {
        detail.refine--;
        if (wantsOtherLevels(REST_BUDGET_MS)) invalidate();
      }
    };
    channel.port2.postMessage(null);
  }, 1);
  return null;
}

/**
 * The bodies' shaders compiled when the view is made (at the page's first idle moment), not in the
 * frame that first draws a scan: a software renderer takes 0.2 to 2.5 s to compile one here.
 * Materials as BodyMesh, BodyPoints and the grid and axes make them (flat for scans, smooth for BREP
 * faces, with and without heat-map colours; lines with vertex colours); kept alive while the view
 * lives, since three.js frees a program when its last material goes. `compileAsync` does not hold
 * the page's thread where the browser compiles in parallel (KHR_parallel_shader_compile). Then each
 * is drawn once into one pixel of the canvas (the next frame clears it): SwiftShader builds its
 * pipeline for a program at its first draw, not at compile (a trace of a scan's first frame showed
 * the page's thread waiting for the GPU process through it).
 */
function WarmShaders() {
  const gl = useThree((s) => s.gl);
  const camera = useThree((s) => s.camera);
  const scene = useThree((s) => s.scene);
  const invalidate = useThree((s) => s.invalidate);
  useEffect(() => {
    // One triangle over the whole view of an orthographic camera looking down -z.
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(new Float32Array([-3, -3, -1, 3, -3, -1, 0, 3, -1]), 3));
    g.setAttribute('normal', new BufferAttribute(new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]), 3));
    g.setAttribute('color', new BufferAttribute(new Float32Array(9).fill(1), 3));
    const materials: Material[] = [];
    for (const flatShading of [true, false])
      for (const vertexColors of [true, false]) materials.push(new MeshStandardMaterial({ flatShading, vertexColors, side: DoubleSide, metalness: 0.1, roughness: 0.65, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 }));
    for (const vertexColors of [true, false]) materials.push(new PointsMaterial({ vertexColors, sizeAttenuation: false }));
    // GridHelper's and AxesHelper's material.
    materials.push(new LineBasicMaterial({ vertexColors: true, toneMapped: false }));
    const group = new Group();
    for (const m of materials) group.add(m instanceof PointsMaterial ? new Points(g, m) : m instanceof LineBasicMaterial ? new LineSegments(g, m) : new Mesh(g, m));
    let live = true;
    void gl
      .compileAsync(group, camera, scene)
      .then(() => {
        if (!live) return;
        const view = new OrthographicCamera(-1, 1, 1, -1, 0, 2);
        const lights = scene.children.filter((c) => (c as { isLight?: boolean }).isLight);
        const warm = new Scene();
        // The scene's lights (their number is part of a program's key), borrowed for one draw.
        for (const l of lights) warm.add(l.clone());
        warm.add(group);
        gl.setScissorTest(true);
        gl.setScissor(0, 0, 1, 1);
        gl.render(warm, view);
        gl.setScissorTest(false);
        invalidate();
      })
      .catch(() => undefined);
    return () => {
      live = false;
      g.dispose();
      for (const m of materials) m.dispose();
    };
  }, [gl, camera, scene, invalidate]);
  return null;
}

/** Bounds of the drawn meshes, recomputed only when the set of meshes changes (not on hover). */
function useBounds(bodies: readonly ViewBody[]): ViewBounds | null {
  const cache = useRef<{ meshes: ViewMesh[]; bounds: ViewBounds | null } | null>(null);
  const meshes = bodies.map((b) => b.mesh);
  const same = cache.current && cache.current.meshes.length === meshes.length && cache.current.meshes.every((m, i) => m === meshes[i]);
  if (!same || !cache.current) cache.current = { meshes, bounds: boundsOf(meshes) };
  return cache.current.bounds;
}

/**
 * The 3D view: every body, grid and axes, orbit controls, a camera fit to the scene. Renders on
 * demand (no continuous frame loop), so an idle page costs no CPU next to the kernel worker.
 */
export function Viewport({ bodies, fitToken, direction, showGrid, showAxes, onPick, onHover, onPickEdge, onHoverEdge, onMiss, onHoverValue, markers, onLabelSpots, flyTo, ghost, holdFrames, fullDetail, frame }: ViewportProps) {
  const bounds = useBounds(bodies);
  const ghostBody = ghost ? bodies.find((b) => b.bodyId === ghost.bodyId) : undefined;
  return (
    <Canvas
      frameloop={holdFrames ? 'never' : 'demand'}
      dpr={[1, 2]}
      camera={{ fov: 40, position: [100, -130, 90], near: 0.1, far: 10_000 }}
      gl={{ antialias: !softwareRenderer(), preserveDrawingBuffer: true }}
      onPointerMissed={() => onMiss?.()}
      data-testid="viewport.canvas"
    >
      <color attach="background" args={[VIEWPORT_BACKGROUND]} />
      <hemisphereLight args={['#ffffff', '#8a94a6', 1.4]} position={[0, 0, 1]} />
      <directionalLight position={[1, -2, 3]} intensity={1.6} />
      <directionalLight position={[-2, 1, -1]} intensity={0.5} />
      {bounds && <Guides bounds={bounds} showGrid={showGrid} showAxes={showAxes} />}
      {bodies.map((b) =>
        b.kind === 'points' ? (
          <BodyPoints key={b.bodyId} body={b} />
        ) : (
          <BodyMesh key={b.bodyId} body={b} onPick={onPick} onHover={onHover} onHoverValue={onHoverValue} onPickEdge={onPickEdge} onHoverEdge={onHoverEdge} />
        ),
      )}
      {ghost && ghostBody && <Ghost ghost={ghost} body={ghostBody} />}
      {markers && <Markers markers={markers} bounds={bounds} />}
      {markers?.labels && onLabelSpots && <LabelAnchors points={markers.labels} onSpots={onLabelSpots} />}
      <CameraRig bounds={bounds} fitToken={fitToken} direction={direction} flyTo={flyTo ?? null} frame={frame ?? null} />
      <ResumeFrames held={!!holdFrames} />
      <DetailFrames fullDetail={!!fullDetail} />
      <WarmShaders />
    </Canvas>
  );
}
