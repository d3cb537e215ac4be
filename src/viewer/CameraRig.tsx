import { useThree } from '@react-three/fiber';
import { useEffect, useState } from 'react';
import { PerspectiveCamera, Vector3 } from 'three';
import { OrbitControls as ThreeOrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { ViewBounds } from './bounds';

/** Standard views (z is up, as in most CAD files); `current` keeps the direction the user orbited to. */
export type ViewDirection = 'current' | 'iso' | 'front' | 'back' | 'top' | 'bottom' | 'right' | 'left';

/** Camera position relative to the target, per standard view. Top and bottom lean a hair off the up axis. */
const DIRECTIONS: Record<Exclude<ViewDirection, 'current'>, Vector3> = {
  iso: new Vector3(1, -1.3, 0.9).normalize(),
  front: new Vector3(0, -1, 0),
  back: new Vector3(0, 1, 0),
  right: new Vector3(1, 0, 0),
  left: new Vector3(-1, 0, 0),
  top: new Vector3(0, -1e-4, 1).normalize(),
  bottom: new Vector3(0, -1e-4, -1).normalize(),
};

/** A point to fly the camera to; a new token starts a new flight. */
export interface FlyTarget {
  point: readonly [number, number, number];
  token: number;
}

/** Flight duration in milliseconds. */
const FLY_MS = 600;

interface CameraRigProps {
  flyTo: FlyTarget | null;
  bounds: ViewBounds | null;
  /** Changing this number fits the camera to `bounds` again, looking along `direction`. */
  fitToken: number;
  direction: ViewDirection;
}

/**
 * Orbit controls (three's OrbitControls: left drag orbits, right drag pans, wheel zooms; no damping
 * so the demand frame loop stays idle) and a camera fit to the bounds whenever `fitToken` changes.
 */
export function CameraRig({ bounds, fitToken, direction, flyTo }: CameraRigProps) {
  const camera = useThree((s) => s.camera);
  const domElement = useThree((s) => s.gl.domElement);
  const invalidate = useThree((s) => s.invalidate);
  const [controls, setControls] = useState<ThreeOrbitControls | null>(null);

  // Created in an effect (not a memo) so that StrictMode's unmount/remount gets live controls.
  useEffect(() => {
    camera.up.set(0, 0, 1);
    const c = new ThreeOrbitControls(camera, domElement);
    c.zoomToCursor = true;
    // invalidate(frames) must not receive the event object as its frame count.
    const onChange = () => invalidate();
    c.addEventListener('change', onChange);
    setControls(c);
    return () => {
      c.removeEventListener('change', onChange);
      c.dispose();
      setControls(null);
    };
  }, [camera, domElement, invalidate]);

  useEffect(() => {
    if (!controls || !bounds) return;
    const center = new Vector3(...bounds.center);
    const dir =
      direction === 'current'
        ? camera.position.clone().sub(controls.target).normalize()
        : DIRECTIONS[direction].clone();
    if (!(dir.lengthSq() > 0.5)) dir.copy(DIRECTIONS.iso);
    const fov = camera instanceof PerspectiveCamera ? (camera.fov * Math.PI) / 180 : Math.PI / 4;
    const aspect = camera instanceof PerspectiveCamera ? camera.aspect : 1;
    // Distance at which the sphere fits both the vertical and the horizontal field of view.
    const halfFov = Math.min(fov / 2, Math.atan(Math.tan(fov / 2) * aspect));
    const distance = (bounds.radius / Math.sin(halfFov)) * 1.05;
    camera.position.copy(center).addScaledVector(dir, distance);
    camera.near = Math.max(distance / 1000, bounds.radius / 1000);
    camera.far = distance + bounds.radius * 20;
    camera.updateProjectionMatrix();
    controls.target.copy(center);
    controls.update();
    invalidate();
    // Fit on request only (fitToken) or with new controls: new bounds alone, e.g. a body hidden,
    // must not move the camera.
  }, [fitToken, controls]);

  // Flies to the point: the view keeps its direction and closes in to a quarter of the scene's radius.
  useEffect(() => {
    if (!controls || !flyTo) return;
    const fromTarget = controls.target.clone();
    const fromPos = camera.position.clone();
    const toTarget = new Vector3(...flyTo.point);
    const dir = fromPos.clone().sub(fromTarget).normalize();
    const distance = Math.max((bounds?.radius ?? 1) * 0.6, 1e-6);
    const toPos = toTarget.clone().addScaledVector(dir, distance);
    const start = performance.now();
    let frame = 0;
    const step = () => {
      const t = Math.min(1, (performance.now() - start) / FLY_MS);
      const e = t * t * (3 - 2 * t);
      controls.target.lerpVectors(fromTarget, toTarget, e);
      camera.position.lerpVectors(fromPos, toPos, e);
      controls.update();
      invalidate();
      if (t < 1) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
    // A new token starts a flight; nothing else does.
  }, [flyTo?.token, controls]);

  return null;
}
