import { useThree } from '@react-three/fiber';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { PerspectiveCamera, Vector3, type Camera, type Scene } from 'three';
import { OrbitControls as ThreeOrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { ViewBounds } from './bounds';
import { detail } from './detail';
import { fitDistance, frameCamera, type ViewRect } from './viewFrame';

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
  /** The part of the view the overlays over it leave free (CSS pixels); the scene is drawn in it. Null: the whole view. */
  frame?: ViewRect | null | undefined;
}

/** The live camera and scene, for the test API (where the part lies on screen). */
export const liveView: { camera: Camera | null; scene: Scene | null; canvas: HTMLCanvasElement | null } = { camera: null, scene: null, canvas: null };

/**
 * Orbit controls (three's OrbitControls: left drag orbits, right drag pans, wheel zooms; no damping
 * so the demand frame loop stays idle) and a camera fit to the bounds whenever `fitToken` changes.
 */
export function CameraRig({ bounds, fitToken, direction, flyTo, frame = null }: CameraRigProps) {
  const camera = useThree((s) => s.camera);
  const scene = useThree((s) => s.scene);
  const size = useThree((s) => s.size);
  const domElement = useThree((s) => s.gl.domElement);
  const invalidate = useThree((s) => s.invalidate);
  const [controls, setControls] = useState<ThreeOrbitControls | null>(null);
  // Whether the camera is where the last fit put it (no orbit, pan, zoom or flight since): a new frame then fits again.
  const fitted = useRef(false);
  const [refit, setRefit] = useState(0);

  // Created in an effect (not a memo) so that StrictMode's unmount/remount gets live controls.
  useEffect(() => {
    camera.up.set(0, 0, 1);
    const c = new ThreeOrbitControls(camera, domElement);
    c.zoomToCursor = true;
    // invalidate(frames) must not receive the event object as its frame count.
    const onChange = () => invalidate();
    c.addEventListener('change', onChange);
    // While a drag moves the view, big bodies are drawn coarser (detail.ts); the frame after it, finer again.
    const onStart = () => {
      detail.moving = true;
      fitted.current = false;
    };
    const onEnd = () => {
      detail.moving = false;
      detail.refine = 2;
      invalidate();
    };
    c.addEventListener('start', onStart);
    c.addEventListener('end', onEnd);
    setControls(c);
    return () => {
      c.removeEventListener('change', onChange);
      c.removeEventListener('start', onStart);
      c.removeEventListener('end', onEnd);
      detail.moving = false;
      c.dispose();
      setControls(null);
    };
  }, [camera, domElement, invalidate]);

  // The camera's aspect follows the frame, not the canvas (r3f leaves a `manual` camera alone on resize).
  const fl = frame?.left, ft = frame?.top, fw = frame?.width, fh = frame?.height;
  useLayoutEffect(() => {
    if (!(camera instanceof PerspectiveCamera)) return;
    (camera as PerspectiveCamera & { manual?: boolean }).manual = true;
    frameCamera(camera, size.width, size.height, fw !== undefined && fh !== undefined ? { left: fl ?? 0, top: ft ?? 0, width: fw, height: fh } : null);
    // A fitted view fits the new frame (the legend came or went, the window changed); one the user moved keeps its zoom.
    if (fitted.current) setRefit((n) => n + 1);
    invalidate();
  }, [camera, size.width, size.height, fl, ft, fw, fh, invalidate]);

  useEffect(() => {
    Object.assign(liveView, { camera, scene, canvas: domElement });
    return () => {
      if (liveView.camera === camera) Object.assign(liveView, { camera: null, scene: null, canvas: null });
    };
  }, [camera, scene, domElement]);

  useEffect(() => {
    if (!controls || !bounds) return;
    const center = new Vector3(...bounds.center);
    const dir =
      direction === 'current'
        ? camera.position.clone().sub(controls.target).normalize()
        : DIRECTIONS[direction].clone();
    if (!(dir.lengthSq() > 0.5)) dir.copy(DIRECTIONS.iso);
    // The camera's field is the frame the overlays leave free (frameCamera), so the part fits in it.
    const distance = camera instanceof PerspectiveCamera ? fitDistance(bounds.radius, camera.fov, camera.aspect) : fitDistance(bounds.radius, 45, 1);
    camera.position.copy(center).addScaledVector(dir, distance);
    camera.near = Math.max(distance / 1000, bounds.radius / 1000);
    camera.far = distance + bounds.radius * 20;
    camera.updateProjectionMatrix();
    controls.target.copy(center);
    controls.update();
    fitted.current = true;
    invalidate();
    // Fit on request only (fitToken), with new controls, or for a new frame while the view is as a
    // fit left it: new bounds alone, e.g. a body hidden, must not move the camera.
  }, [fitToken, controls, refit]);

  // Flies to the point: the view keeps its direction and closes in to a quarter of the scene's radius.
  useEffect(() => {
    if (!controls || !flyTo) return;
    fitted.current = false;
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
