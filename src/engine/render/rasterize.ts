import type { OrthoCamera } from './camera';
import { AMBIGUOUS, deviationColorInto, NO_DATA, type Rgb } from './heatColors';

/**
 * A deterministic software rasterizer for triangle meshes under an orthographic camera: a visibility
 * buffer (nearest triangle per sample, depth-tested), then one shading pass that interpolates the
 * per-vertex values at each sample and maps them through the deviation colour map (interpolate, then
 * map: the tolerance band's edges stay crisp), shaded by a headlight. Both sides of every triangle are
 * drawn (open scans show their inside), lit by |n . view|.
 *
 * Exactness: vertices are snapped to 1/256 of a sample, so edge functions are exact integers in
 * doubles, shared edges follow one tie rule (no cracks, no pixel drawn twice), and equal depths keep
 * the first triangle in index order: the same input gives the same bytes.
 */

export interface RasterMesh {
  /** x, y, z per vertex. */
  positions: ArrayLike<number>;
  /** Three vertex indices per triangle (winding does not matter: both sides are drawn). */
  indices: ArrayLike<number>;
}

export interface RasterColoring {
  /** Per-vertex signed values; NaN = ambiguous (no trustworthy sign). Without it the mesh is `baseColor`. */
  values?: ArrayLike<number> | undefined;
  /** Per-vertex flags, nonzero = no data (takes precedence over the value). */
  noData?: ArrayLike<number> | undefined;
  /** Half-width m of the symmetric colour range [-m, m]. */
  range: number;
  /** Half-width of the neutral band [-tolerance, tolerance]. */
  tolerance: number;
  /** Discrete colour steps per arm (banded map); undefined = continuous. */
  steps?: number | undefined;
  /** Colour of a mesh drawn without values. */
  baseColor?: Rgb | undefined;
}

export interface RasterOptions {
  /** Samples per pixel along each axis (1 to 3), box-filtered down: smooth silhouettes and band edges. */
  supersample?: number | undefined;
  /** Background colour (sRGB bytes). Default white. */
  background?: Rgb | undefined;
  /** Draw the silhouette against the background in this colour; null for none. Default dark grey. */
  outline?: Rgb | null | undefined;
}

/** What the rasterizer made: the viewport's pixels and, per sample, what is nearest. */
export interface Raster {
  /** Viewport size in pixels (the camera's viewport). */
  width: number;
  height: number;
  /** Opaque RGBA bytes, width x height, row-major from the top: what putImageData takes. */
  rgba: Uint8ClampedArray;
  /** Samples per pixel along each axis. */
  supersample: number;
  /** Per sample (width x supersample by height x supersample): depth along the view, Infinity where empty. */
  depth: Float64Array;
  /** Per sample: the nearest triangle's index, -1 where empty. */
  triangle: Int32Array;
  /** Triangles with a nonzero area on screen (edge-on and degenerate ones cover nothing). */
  drawnTriangles: number;
}

/** Light: ambient floor plus a headlight; a surface facing the eye shows the map's colour exactly. */
export const AMBIENT = 0.55;
export const DIFFUSE = 0.45;
export const DEFAULT_BASE_COLOR: Rgb = [190, 198, 210];
export const DEFAULT_OUTLINE: Rgb = [70, 74, 82];
const WHITE: Rgb = [255, 255, 255];
/** Sub-sample precision of snapped vertices: 8 bits. */
const SUB = 256;
const HALF = SUB / 2;

/** Largest supersample factor. */
export const MAX_SUPERSAMPLE = 3;

export function rasterize(mesh: RasterMesh, camera: OrthoCamera, coloring: RasterColoring, options: RasterOptions = {}): Raster {
  const { positions } = mesh;
  const indices = mesh.indices instanceof Uint32Array ? mesh.indices : Uint32Array.from(mesh.indices);
  const vertexCount = Math.floor(positions.length / 3);
  checkMesh(positions.length, indices, vertexCount, coloring);
  const ss = options.supersample ?? 1;
  if (!Number.isInteger(ss) || ss < 1 || ss > MAX_SUPERSAMPLE) throw new Error(`render: supersample must be an integer from 1 to ${MAX_SUPERSAMPLE}, got ${ss}`);
  const width = camera.viewport.width, height = camera.viewport.height;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new Error(`render: the viewport must be whole pixels, got ${width} x ${height}`);
  const sw = width * ss, sh = height * ss;

  // Snapped sample-space coordinates and depth per vertex (one pass, monomorphic arrays for the loops).
  const X = new Float64Array(vertexCount), Y = new Float64Array(vertexCount), Z = new Float64Array(vertexCount);
  const { right, up, forward, scale } = camera;
  const ox = camera.cx - camera.viewport.x, oy = camera.cy - camera.viewport.y;
  const k = scale * ss * SUB;
  for (let v = 0; v < vertexCount; v++) {
    const x = positions[3 * v]!, y = positions[3 * v + 1]!, z = positions[3 * v + 2]!;
    const u = x * right[0] + y * right[1] + z * right[2] - camera.u0;
    const w = x * up[0] + y * up[1] + z * up[2] - camera.v0;
    X[v] = Math.round(ox * ss * SUB + u * k);
    Y[v] = Math.round(oy * ss * SUB - w * k);
    Z[v] = x * forward[0] + y * forward[1] + z * forward[2];
  }

  const depth = new Float64Array(sw * sh).fill(Infinity);
  const triangle = new Int32Array(sw * sh).fill(-1);
  const drawnTriangles = rasterTriangles(indices, X, Y, Z, sw, sh, depth, triangle);
  const rgba = shade(mesh.positions, indices, X, Y, camera, coloring, options, ss, width, height, triangle);
  return { width, height, rgba, supersample: ss, depth, triangle, drawnTriangles };
}

function checkMesh(positionLength: number, indices: Uint32Array, vertexCount: number, coloring: RasterColoring): void {
  if (positionLength % 3 !== 0) throw new Error(`render: positions must hold 3 numbers per vertex, got ${positionLength}`);
  if (indices.length % 3 !== 0) throw new Error(`render: indices must hold 3 per triangle, got ${indices.length}`);
  for (let i = 0; i < indices.length; i++) {
    if (indices[i]! >= vertexCount) throw new Error(`render: index ${indices[i]} at ${i} is out of range (${vertexCount} vertices)`);
  }
  if (coloring.values && coloring.values.length !== vertexCount) throw new Error(`render: values must hold one per vertex (${vertexCount}), got ${coloring.values.length}`);
  if (coloring.noData && coloring.noData.length !== vertexCount) throw new Error(`render: noData must hold one per vertex (${vertexCount}), got ${coloring.noData.length}`);
  if (!(coloring.range >= 0) || !Number.isFinite(coloring.range)) throw new Error(`render: range must be a finite number >= 0, got ${coloring.range}`);
  if (!(coloring.tolerance >= 0) || !Number.isFinite(coloring.tolerance)) throw new Error(`render: tolerance must be a finite number >= 0, got ${coloring.tolerance}`);
  if (coloring.steps !== undefined && !(Number.isInteger(coloring.steps) && coloring.steps >= 1)) throw new Error(`render: steps must be an integer >= 1, got ${coloring.steps}`);
}

/**
 * Depth-tested visibility: for each triangle, each sample centre inside it (edge functions >= 0, a
 * sample exactly on an edge going to one side only) keeps the triangle if it is nearer than what
 * the sample holds.
 */
function rasterTriangles(indices: Uint32Array, X: Float64Array, Y: Float64Array, Z: Float64Array, sw: number, sh: number, depth: Float64Array, triangle: Int32Array): number {
  let drawn = 0;
  const triangles = indices.length / 3;
  for (let t = 0; t < triangles; t++) {
    const i0 = indices[3 * t]!;
    let i1 = indices[3 * t + 1]!, i2 = indices[3 * t + 2]!;
    const x0 = X[i0]!, y0 = Y[i0]!;
    let x1 = X[i1]!, y1 = Y[i1]!, x2 = X[i2]!, y2 = Y[i2]!;
    let area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0);
    // Zero area (edge-on, degenerate) or NaN (a vertex without coordinates): covers nothing.
    if (!(area > 0 || area < 0)) continue;
    if (area < 0) {
      // Seen from the back: the same triangle with its winding reversed.
      let s = i1;
      i1 = i2;
      i2 = s;
      s = x1;
      x1 = x2;
      x2 = s;
      s = y1;
      y1 = y2;
      y2 = s;
      area = -area;
    }
    drawn++;
    const minX = Math.max(0, Math.ceil((Math.min(x0, x1, x2) - HALF) / SUB));
    const maxX = Math.min(sw - 1, Math.floor((Math.max(x0, x1, x2) - HALF) / SUB));
    const minY = Math.max(0, Math.ceil((Math.min(y0, y1, y2) - HALF) / SUB));
    const maxY = Math.min(sh - 1, Math.floor((Math.max(y0, y1, y2) - HALF) / SUB));
    if (minX > maxX || minY > maxY) continue;
    // Edge functions w_k = E(edge opposite vertex k, p); per-sample steps along x and y.
    const ax0 = -(y2 - y1) * SUB, ay0 = (x2 - x1) * SUB;
    const ax1 = -(y0 - y2) * SUB, ay1 = (x0 - x2) * SUB;
    const ax2 = -(y1 - y0) * SUB, ay2 = (x1 - x0) * SUB;
    const b0 = ownsTies(x2 - x1, y2 - y1) ? 0 : 1;
    const b1 = ownsTies(x0 - x2, y0 - y2) ? 0 : 1;
    const b2 = ownsTies(x1 - x0, y1 - y0) ? 0 : 1;
    const px = minX * SUB + HALF, py = minY * SUB + HALF;
    let r0 = (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1);
    let r1 = (x0 - x2) * (py - y2) - (y0 - y2) * (px - x2);
    let r2 = (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0);
    const z0 = Z[i0]!, inv = 1 / area;
    const dz1 = (Z[i1]! - z0) * inv, dz2 = (Z[i2]! - z0) * inv;
    for (let sy = minY; sy <= maxY; sy++) {
      let w0 = r0, w1 = r1, w2 = r2;
      let s = sy * sw + minX;
      for (let sx = minX; sx <= maxX; sx++, s++) {
        if (w0 >= b0 && w1 >= b1 && w2 >= b2) {
          const z = z0 + w1 * dz1 + w2 * dz2;
          if (z < depth[s]!) {
            depth[s] = z;
            triangle[s] = t;
          }
        }
        w0 += ax0;
        w1 += ax1;
        w2 += ax2;
      }
      r0 += ay0;
      r1 += ay1;
      r2 += ay2;
    }
  }
  return drawn;
}

/**
 * Whether a sample exactly on the edge with direction (dx, dy) belongs to the triangle on its left.
 * Antisymmetric in the direction, so of two triangles sharing the edge exactly one owns the sample.
 */
function ownsTies(dx: number, dy: number): boolean {
  return dy > 0 || (dy === 0 && dx < 0);
}

/** Colours each sample from its triangle, shades it, outlines the silhouette, box-filters to pixels. */
function shade(
  positions: ArrayLike<number>,
  indices: Uint32Array,
  X: Float64Array,
  Y: Float64Array,
  camera: OrthoCamera,
  coloring: RasterColoring,
  options: RasterOptions,
  ss: number,
  width: number,
  height: number,
  triangle: Int32Array,
): Uint8ClampedArray {
  const sw = width * ss, sh = height * ss;
  const background = options.background ?? WHITE;
  const outline = options.outline === undefined ? DEFAULT_OUTLINE : options.outline;
  const base = coloring.baseColor ?? DEFAULT_BASE_COLOR;
  const { values, noData, range, tolerance, steps } = coloring;
  const f = camera.forward;
  const sum = new Uint32Array(width * height * 3);
  const rgb: [number, number, number] = [0, 0, 0];
  let lastT = -1, light = 1, i0 = 0, i1 = 0, i2 = 0;
  for (let sy = 0; sy < sh; sy++) {
    const rowOut = ((sy / ss) | 0) * width;
    for (let sx = 0; sx < sw; sx++) {
      const s = sy * sw + sx;
      const o = 3 * (rowOut + ((sx / ss) | 0));
      const t = triangle[s]!;
      if (t < 0) {
        sum[o] = sum[o]! + background[0];
        sum[o + 1] = sum[o + 1]! + background[1];
        sum[o + 2] = sum[o + 2]! + background[2];
        continue;
      }
      if (outline && isSilhouette(triangle, sx, sy, sw, sh)) {
        sum[o] = sum[o]! + outline[0];
        sum[o + 1] = sum[o + 1]! + outline[1];
        sum[o + 2] = sum[o + 2]! + outline[2];
        continue;
      }
      if (t !== lastT) {
        lastT = t;
        i0 = indices[3 * t]!;
        i1 = indices[3 * t + 1]!;
        i2 = indices[3 * t + 2]!;
        light = AMBIENT + DIFFUSE * facing(positions, i0, i1, i2, f);
      }
      if (!values) {
        rgb[0] = base[0];
        rgb[1] = base[1];
        rgb[2] = base[2];
      } else {
        // Barycentric weights at the sample centre (any common scale: only ratios are used).
        const px = sx * SUB + HALF, py = sy * SUB + HALF;
        const x0 = X[i0]!, y0 = Y[i0]!, x1 = X[i1]!, y1 = Y[i1]!, x2 = X[i2]!, y2 = Y[i2]!;
        let w0 = (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1);
        let w1 = (x0 - x2) * (py - y2) - (y0 - y2) * (px - x2);
        let w2 = (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0);
        if (w0 + w1 + w2 < 0) {
          // A triangle seen from the back: its weights come out negated.
          w0 = -w0;
          w1 = -w1;
          w2 = -w2;
        }
        sampleColor(values, noData, i0, i1, i2, w0, w1, w2, range, tolerance, steps, rgb);
      }
      sum[o] = sum[o]! + Math.round(rgb[0] * light);
      sum[o + 1] = sum[o + 1]! + Math.round(rgb[1] * light);
      sum[o + 2] = sum[o + 2]! + Math.round(rgb[2] * light);
    }
  }
  const n = ss * ss;
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let p = 0, q = 0; p < width * height; p++, q += 3) {
    rgba[4 * p] = Math.floor((sum[q]! + (n >> 1)) / n);
    rgba[4 * p + 1] = Math.floor((sum[q + 1]! + (n >> 1)) / n);
    rgba[4 * p + 2] = Math.floor((sum[q + 2]! + (n >> 1)) / n);
    rgba[4 * p + 3] = 255;
  }
  return rgba;
}

/** |cos| between the triangle's normal and the view direction (0 for a degenerate triangle). */
function facing(p: ArrayLike<number>, a: number, b: number, c: number, f: readonly [number, number, number]): number {
  const ux = p[3 * b]! - p[3 * a]!, uy = p[3 * b + 1]! - p[3 * a + 1]!, uz = p[3 * b + 2]! - p[3 * a + 2]!;
  const vx = p[3 * c]! - p[3 * a]!, vy = p[3 * c + 1]! - p[3 * a + 1]!, vz = p[3 * c + 2]! - p[3 * a + 2]!;
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(len > 0)) return 0;
  const d = (nx * f[0] + ny * f[1] + nz * f[2]) / len;
  return d < 0 ? -d : d > 1 ? 1 : d;
}

function isSilhouette(triangle: Int32Array, sx: number, sy: number, sw: number, sh: number): boolean {
  const s = sy * sw + sx;
  return sx === 0 || sy === 0 || sx === sw - 1 || sy === sh - 1 || triangle[s - 1]! < 0 || triangle[s + 1]! < 0 || triangle[s - sw]! < 0 || triangle[s + sw]! < 0;
}

/**
 * The colour at barycentric weights (w0, w1, w2) of a triangle. The sample's class (value, ambiguous,
 * no data) is the class of its nearest corner (largest weight), so a grey corner shows as the part of
 * the triangle nearest to it, with a crisp border; a value is the weighted mean of the corners that
 * have one, mapped once.
 */
export function sampleColor(
  values: ArrayLike<number>,
  noData: ArrayLike<number> | undefined,
  i0: number,
  i1: number,
  i2: number,
  w0: number,
  w1: number,
  w2: number,
  range: number,
  tolerance: number,
  steps: number | undefined,
  out: [number, number, number],
): [number, number, number] {
  const v0 = values[i0]!, v1 = values[i1]!, v2 = values[i2]!;
  const n0 = noData ? noData[i0]! !== 0 : false, n1 = noData ? noData[i1]! !== 0 : false, n2 = noData ? noData[i2]! !== 0 : false;
  const nearest = w0 >= w1 ? (w0 >= w2 ? 0 : 2) : w1 >= w2 ? 1 : 2;
  const nearNoData = nearest === 0 ? n0 : nearest === 1 ? n1 : n2;
  if (nearNoData) return setColor(out, NO_DATA);
  const nearValue = nearest === 0 ? v0 : nearest === 1 ? v1 : v2;
  if (nearValue !== nearValue) return setColor(out, AMBIGUOUS);
  let sum = 0, weight = 0;
  if (v0 === v0 && !n0) {
    sum += w0 * v0;
    weight += w0;
  }
  if (v1 === v1 && !n1) {
    sum += w1 * v1;
    weight += w1;
  }
  if (v2 === v2 && !n2) {
    sum += w2 * v2;
    weight += w2;
  }
  return deviationColorInto(weight !== 0 ? sum / weight : nearValue, range, tolerance, out, steps);
}

function setColor(out: [number, number, number], c: Rgb): [number, number, number] {
  out[0] = c[0];
  out[1] = c[1];
  out[2] = c[2];
  return out;
}
