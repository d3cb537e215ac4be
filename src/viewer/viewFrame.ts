import type { PerspectiveCamera } from 'three';

/** A rectangle in CSS pixels from the view's top-left corner. */
export interface ViewRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The free rectangle must keep at least this share of the view's shorter side, else the whole view is used. */
const MIN_SHARE = 0.3;

/**
 * The largest rectangle of the view (width x height) that no cover overlaps, `gap` pixels clear of
 * each: every cover is passed on one of its four sides (left of it, above, right of, below) and the
 * combination whose rectangle has the longest shorter side wins (the camera fits a sphere), the larger
 * area on a tie. Covers outside the view are ignored. Null when nothing is covered, or when the best
 * free rectangle is too small to be of use (under MIN_SHARE of the view's shorter side).
 */
export function freeRect(width: number, height: number, covers: readonly ViewRect[], gap = 8): ViewRect | null {
  const inside = covers.filter((c) => c.width > 0 && c.height > 0 && c.left < width && c.top < height && c.left + c.width > 0 && c.top + c.height > 0);
  if (!(width > 0 && height > 0) || inside.length === 0) return null;
  let best: { x0: number; y0: number; x1: number; y1: number } | null = null;
  const score = (r: { x0: number; y0: number; x1: number; y1: number }) => [Math.min(r.x1 - r.x0, r.y1 - r.y0), (r.x1 - r.x0) * (r.y1 - r.y0)] as const;
  const combos = 4 ** inside.length;
  for (let k = 0; k < combos; k++) {
    const r = { x0: 0, y0: 0, x1: width, y1: height };
    let code = k;
    for (const c of inside) {
      const side = code % 4;
      code = Math.floor(code / 4);
      if (side === 0) r.x1 = Math.min(r.x1, c.left - gap);
      else if (side === 1) r.y1 = Math.min(r.y1, c.top - gap);
      else if (side === 2) r.x0 = Math.max(r.x0, c.left + c.width + gap);
      else r.y0 = Math.max(r.y0, c.top + c.height + gap);
    }
    if (!(r.x1 > r.x0 && r.y1 > r.y0)) continue;
    if (!best) {
      best = r;
      continue;
    }
    const [a, areaA] = score(r), [b, areaB] = score(best);
    if (a > b || (a === b && areaA > areaB)) best = r;
  }
  if (!best || score(best)[0] < MIN_SHARE * Math.min(width, height)) return null;
  return { left: best.x0, top: best.y0, width: best.x1 - best.x0, height: best.y1 - best.y0 };
}

/**
 * Draws the camera's picture into `frame` of a view of `width` x `height` pixels: the camera's own
 * field of view (its fov, its aspect) becomes the frame, and the rest of the view shows what lies
 * around it (a projection window larger than the "full" view, three's setViewOffset). A camera fit to
 * its field of view therefore fits the frame; orbiting turns about the same target, now at the
 * frame's centre; picking stays exact (the projection matrix carries the offset). Null: the whole view.
 */
export function frameCamera(camera: PerspectiveCamera, width: number, height: number, frame: ViewRect | null): void {
  if (!(width > 0 && height > 0)) return;
  if (!frame) {
    camera.aspect = width / height;
    camera.clearViewOffset();
  } else {
    camera.aspect = frame.width / frame.height;
    camera.setViewOffset(frame.width, frame.height, -frame.left, -frame.top, width, height);
  }
  camera.updateProjectionMatrix();
}

/** The height in pixels the camera's field of view spans on screen (the frame's, else the view's). */
export function fieldHeightPx(camera: PerspectiveCamera, viewHeight: number): number {
  return camera.view?.enabled ? camera.view.fullHeight : viewHeight;
}

/**
 * Distance from a sphere's centre at which a perspective camera (vertical field `fovDeg`, `aspect`)
 * holds the whole sphere in both its vertical and its horizontal field, with 5 % to spare.
 */
export function fitDistance(radius: number, fovDeg: number, aspect: number): number {
  const fov = (fovDeg * Math.PI) / 180;
  const halfFov = Math.min(fov / 2, Math.atan(Math.tan(fov / 2) * aspect));
  return (radius / Math.sin(halfFov)) * 1.05;
}
