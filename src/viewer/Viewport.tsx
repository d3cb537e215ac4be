import { Canvas } from '@react-three/fiber';
import { useMemo } from 'react';
import { BodyMesh, type ViewBody } from './BodyMesh';
import { boundsOf } from './bounds';
import { CameraRig } from './CameraRig';

export type { ViewBody } from './BodyMesh';

/** The viewport background; e2e tests count pixels that differ from it. */
export const VIEWPORT_BACKGROUND = '#e9edf2';

interface ViewportProps {
  bodies: readonly ViewBody[];
  fitToken: number;
  onPick?: (bodyId: string) => void;
  onMiss?: () => void;
}

/**
 * The 3D view: every body, orbit controls, a camera fit to the scene. Renders on demand (no
 * continuous frame loop), so an idle page costs no CPU next to the kernel worker.
 */
export function Viewport({ bodies, fitToken, onPick, onMiss }: ViewportProps) {
  const bounds = useMemo(() => boundsOf(bodies.map((b) => b.mesh.positions)), [bodies]);
  return (
    <Canvas
      frameloop="demand"
      dpr={[1, 2]}
      camera={{ fov: 40, position: [100, -130, 90], near: 0.1, far: 10_000 }}
      gl={{ antialias: true, preserveDrawingBuffer: true }}
      onPointerMissed={() => onMiss?.()}
      data-testid="viewport-canvas"
    >
      <color attach="background" args={[VIEWPORT_BACKGROUND]} />
      <hemisphereLight args={['#ffffff', '#8a94a6', 1.4]} position={[0, 0, 1]} />
      <directionalLight position={[1, -2, 3]} intensity={1.6} />
      <directionalLight position={[-2, 1, -1]} intensity={0.5} />
      {bodies.map((b) => (
        <BodyMesh key={b.bodyId} body={b} onPick={onPick} />
      ))}
      <CameraRig bounds={bounds} fitToken={fitToken} />
    </Canvas>
  );
}
