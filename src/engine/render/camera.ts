/**
 * The orthographic camera of the PNG renderer: named views with the app viewer's conventions
 * (src/viewer/CameraRig.tsx: z up, the same directions), a fit of the mesh to a pixel rectangle,
 * and the projection every drawing step (triangles, callouts, axis triad) shares.
 */

export type Vec3 = readonly [number, number, number];

export const VIEW_NAMES = ['iso', 'front', 'back', 'left', 'right', 'top', 'bottom'] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

/**
 * A view: a name, or the direction the camera looks along (from the eye into the scene) with an
 * optional world vector that should point up on screen (projected onto the image plane).
 */
export type View = ViewName | { direction: Vec3; up?: Vec3 | undefined };

/**
 * Named views: `look` is the direction the camera looks along, `up` the world vector that points up
 * on the image. Screen right is look x up. Z is up except looking straight down or up, where the
 * image's up is +Y (top) or -Y (bottom), as three.js gives the app's viewer. `iso` looks from the
 * front-right-top corner, (1, -1.3, 0.9) normalised, the viewer's iso.
 *
 *   view    looks along         screen right   screen up
 *   front   +Y (eye at -Y)      +X             +Z
 *   back    -Y (eye at +Y)      -X             +Z
 *   right   -X (eye at +X)      +Y             +Z
 *   left    +X (eye at -X)      -Y             +Z
 *   top     -Z (eye at +Z)      +X             +Y
 *   bottom  +Z (eye at -Z)      +X             -Y
 *   iso     -(1, -1.3, 0.9)     (0.79, 0.61, 0)  +Z projected
 */
export const NAMED_VIEWS: Record<ViewName, { look: Vec3; up: Vec3 }> = {
  iso: { look: [-1, 1.3, -0.9], up: [0, 0, 1] },
  front: { look: [0, 1, 0], up: [0, 0, 1] },
  back: { look: [0, -1, 0], up: [0, 0, 1] },
  right: { look: [-1, 0, 0], up: [0, 0, 1] },
  left: { look: [1, 0, 0], up: [0, 0, 1] },
  top: { look: [0, 0, -1], up: [0, 1, 0] },
  bottom: { look: [0, 0, 1], up: [0, -1, 0] },
};

/** An orthonormal view frame: `forward` into the scene, `right` and `up` on the image. */
export interface ViewBasis {
  forward: Vec3;
  right: Vec3;
  up: Vec3;
}

/** Below this |sin| between look and up, the up vector cannot orient the image. */
const PARALLEL = 1e-6;

/**
 * The view frame of a view. A given direction without `up` takes +Z up, or +Y / -Y when it looks
 * (within 0.1 degrees) straight down / up, like top and bottom. Throws on a zero or non-finite
 * direction and on an up parallel to it.
 */
export function viewBasis(view: View): ViewBasis {
  let look: Vec3, up: Vec3;
  if (typeof view === 'string') {
    const named = NAMED_VIEWS[view];
    if (!named) throw new Error(`render: unknown view '${String(view)}' (expected one of ${VIEW_NAMES.join(', ')} or a direction)`);
    look = named.look;
    up = named.up;
  } else {
    look = view.direction;
    if (view.up) up = view.up;
    else {
      const f = normalize(look, 'view direction');
      up = f[2] < -0.9999985 ? [0, 1, 0] : f[2] > 0.9999985 ? [0, -1, 0] : [0, 0, 1];
    }
  }
  const forward = normalize(look, 'view direction');
  const r = cross(forward, normalize(up, 'view up'));
  const len = Math.hypot(r[0], r[1], r[2]);
  if (!(len > PARALLEL)) throw new Error('render: the view up vector is parallel to the view direction');
  const right: Vec3 = [r[0] / len, r[1] / len, r[2] / len];
  return { forward, right, up: cross(right, forward) };
}

/** A pixel rectangle of the image. */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * An orthographic camera fitted to a mesh. A world point p maps to the image pixel coordinates
 *   px = cx + (p . right - u0) * scale,  py = cy - (p . up - v0) * scale
 * (pixel (i, j) covers [i, i+1) x [j, j+1), y down) and the depth p . forward (smaller is nearer).
 */
export interface OrthoCamera extends ViewBasis {
  /** Pixels per model unit. */
  scale: number;
  /** The image-plane point (u0, v0) that lands on the pixel point (cx, cy). */
  u0: number;
  v0: number;
  cx: number;
  cy: number;
  /** The rectangle the mesh was fitted into. */
  viewport: PixelRect;
  /** The mesh's depth extent [near, far] along forward. */
  depthRange: [number, number];
}

export interface FitOptions {
  /** Empty space kept on each side of the fitted mesh, as a fraction of the viewport's smaller side. Default 0.06. */
  margin?: number | undefined;
}

export const DEFAULT_MARGIN = 0.06;

/**
 * Fits the mesh's extent as seen along the view (its vertices projected on the image plane, so the
 * fit is tight in every direction) into the viewport with the margin, centred; one uniform scale.
 * `positions` are x, y, z per vertex; `indices`, when given, restrict the fit to vertices that
 * triangles use.
 */
export function fitCamera(positions: ArrayLike<number>, view: View, viewport: PixelRect, options: FitOptions = {}, indices?: ArrayLike<number>): OrthoCamera {
  const basis = viewBasis(view);
  const { right, up, forward } = basis;
  let umin = Infinity, umax = -Infinity, vmin = Infinity, vmax = -Infinity, dmin = Infinity, dmax = -Infinity;
  const visit = (k: number) => {
    const x = positions[3 * k]!, y = positions[3 * k + 1]!, z = positions[3 * k + 2]!;
    const u = x * right[0] + y * right[1] + z * right[2];
    const v = x * up[0] + y * up[1] + z * up[2];
    const d = x * forward[0] + y * forward[1] + z * forward[2];
    if (u < umin) umin = u;
    if (u > umax) umax = u;
    if (v < vmin) vmin = v;
    if (v > vmax) vmax = v;
    if (d < dmin) dmin = d;
    if (d > dmax) dmax = d;
  };
  if (indices) for (let i = 0; i < indices.length; i++) visit(indices[i]!);
  else for (let k = 0; k < positions.length / 3; k++) visit(k);
  if (!(umax >= umin && vmax >= vmin && dmax >= dmin) || !Number.isFinite(umax - umin + vmax - vmin + dmax - dmin)) {
    throw new Error('render: the mesh needs finite vertex coordinates to fit the camera to (found none, or an infinite one)');
  }
  const margin = options.margin ?? DEFAULT_MARGIN;
  if (!(margin >= 0 && margin < 0.5)) throw new Error(`render: margin must be in [0, 0.5), got ${margin}`);
  const pad = margin * Math.min(viewport.width, viewport.height);
  const availW = viewport.width - 2 * pad, availH = viewport.height - 2 * pad;
  const du = umax - umin, dv = vmax - vmin;
  // A point or a segment seen end-on has no extent in one or both directions: fit what there is.
  const sx = du > 0 ? availW / du : Infinity, sy = dv > 0 ? availH / dv : Infinity;
  let scale = Math.min(sx, sy);
  if (scale === Infinity) scale = 1;
  return {
    ...basis,
    scale,
    u0: 0.5 * (umin + umax),
    v0: 0.5 * (vmin + vmax),
    cx: viewport.x + 0.5 * viewport.width,
    cy: viewport.y + 0.5 * viewport.height,
    viewport: { ...viewport },
    depthRange: [dmin, dmax],
  };
}

/** Projects a world point: image pixel coordinates [px, py] and depth along forward, into `out`. */
export function projectPoint(camera: OrthoCamera, p: Vec3, out: [number, number, number] = [0, 0, 0]): [number, number, number] {
  const { right, up, forward } = camera;
  out[0] = camera.cx + (p[0] * right[0] + p[1] * right[1] + p[2] * right[2] - camera.u0) * camera.scale;
  out[1] = camera.cy - (p[0] * up[0] + p[1] * up[1] + p[2] * up[2] - camera.v0) * camera.scale;
  out[2] = p[0] * forward[0] + p[1] * forward[1] + p[2] * forward[2];
  return out;
}

function normalize(v: Vec3, what: string): Vec3 {
  const len = Math.hypot(v[0], v[1], v[2]);
  if (!(len > 0) || !Number.isFinite(len)) throw new Error(`render: the ${what} must be a finite nonzero vector, got [${v.join(', ')}]`);
  return [v[0] / len, v[1] / len, v[2] / len];
}

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
