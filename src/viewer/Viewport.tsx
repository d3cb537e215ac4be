import { Canvas } from '@react-three/fiber';
import { useRef } from 'react';
import { BodyMesh, type ViewBody } from './BodyMesh';
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
  onPick?: (bodyId: string, face: number) => void;
  onHover?: (bodyId: string, face: number | null) => void;
  /** A BREP edge clicked (within a few pixels of its line; wins over the face under it). */
  onPickEdge?: (bodyId: string, edge: number) => void;
  onHoverEdge?: (bodyId: string, edge: number | null) => void;
  onMiss?: () => void;
  onHoverValue?: (bodyId: string, value: number | null) => void;
  markers?: ViewMarkers;
  flyTo?: FlyTarget | null;
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

/** Bounds of the drawn meshes, recomputed only when the set of meshes changes (not on hover). */
function useBounds(bodies: readonly ViewBody[]): ViewBounds | null {
  const cache = useRef<{ meshes: Float32Array[]; bounds: ViewBounds | null } | null>(null);
  const meshes = bodies.map((b) => b.mesh.positions);
  const same = cache.current && cache.current.meshes.length === meshes.length && cache.current.meshes.every((m, i) => m === meshes[i]);
  if (!same || !cache.current) cache.current = { meshes, bounds: boundsOf(meshes) };
  return cache.current.bounds;
}

/**
 * The 3D view: every body, grid and axes, orbit controls, a camera fit to the scene. Renders on
 * demand (no continuous frame loop), so an idle page costs no CPU next to the kernel worker.
 */
export function Viewport({ bodies, fitToken, direction, showGrid, showAxes, onPick, onHover, onPickEdge, onHoverEdge, onMiss, onHoverValue, markers, flyTo }: ViewportProps) {
  const bounds = useBounds(bodies);
  return (
    <Canvas
      frameloop="demand"
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
    </Canvas>
  );
}
