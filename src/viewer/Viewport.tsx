import { Canvas, useThree } from '@react-three/fiber';
import { useEffect, useRef } from 'react';
import { BodyMesh, type ViewBody } from './BodyMesh';
import type { ViewMesh } from './displayBuffers';
import { BodyPoints } from './BodyPoints';
import { boundsOf, gridStep, type ViewBounds } from './bounds';
import { CameraRig, type FlyTarget, type ViewDirection } from './CameraRig';
import { Markers, type ViewMarkers } from './Overlays';

export type { ViewBody } from './BodyMesh';
export type { FlyTarget, ViewDirection } from './CameraRig';
export type { StationPlanes, ViewMarkers } from './Overlays';
export { boundsOf } from './bounds';

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
  flyTo?: FlyTarget | null;
  /**
   * No frame is drawn while true (test builds: a long-task measurement of an import apart from
   * the frame that draws it, which headless Chromium renders in software for seconds).
   */
  holdFrames?: boolean;
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
export function Viewport({ bodies, fitToken, direction, showGrid, showAxes, onPick, onHover, onPickEdge, onHoverEdge, onMiss, onHoverValue, markers, flyTo, holdFrames }: ViewportProps) {
  const bounds = useBounds(bodies);
  return (
    <Canvas
      frameloop={holdFrames ? 'never' : 'demand'}
      dpr={[1, 2]}
      camera={{ fov: 40, position: [100, -130, 90], near: 0.1, far: 10_000 }}
      gl={{ antialias: true, preserveDrawingBuffer: true }}
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
      {markers && <Markers markers={markers} bounds={bounds} />}
      <CameraRig bounds={bounds} fitToken={fitToken} direction={direction} flyTo={flyTo ?? null} />
      <ResumeFrames held={!!holdFrames} />
    </Canvas>
  );
}
