import { calloutStatus, drawCallouts, type CalloutLabel, type CalloutStatus, type PlacedCallout } from './callouts';
import { DEFAULT_MARGIN, fitCamera, projectPoint, type OrthoCamera, type PixelRect, type Vec3, type View } from './camera';
import { createSurface, type Context2D, type DrawingSurface } from './canvas';
import { drawLegend, legendWidth, type LegendLayout } from './heatmapLegend';
import { colorRange, defaultTolerance } from './heatColors';
import { rasterize, type RasterMesh } from './rasterize';

/**
 * The heat-map picture: a mesh coloured by per-vertex signed deviation with the app's colour map,
 * range rule and tolerance band, seen along a named view or a direction, with a legend, a title and
 * numbered callouts. Everything the deviation tools need to write a PNG (docs/heatmap-render.md).
 */
export interface HeatmapImageInput {
  mesh: RasterMesh;
  /** Per-vertex signed deviation (model units, + proud); NaN = ambiguous. Without it the mesh is drawn plain, with no legend. */
  values?: ArrayLike<number> | undefined;
  /** Per-vertex flags, nonzero = no data (drawn NO_DATA, left out of the range). */
  noData?: ArrayLike<number> | undefined;
  /** Default 'iso'. */
  view?: View | undefined;
  /** Image size in pixels, 64 to 2048 each. Default 800 x 600. */
  width?: number | undefined;
  height?: number | undefined;
  /** Half-width m of the colour range [-m, m]. Default the app's rule: the 99th percentile of |value| (colorRange). */
  range?: number | undefined;
  /** Neutral band half-width. Default the app's: defaultTolerance(range). */
  tolerance?: number | undefined;
  /** Discrete colour steps per arm; default continuous (the app's). */
  steps?: number | undefined;
  /** Units label of the legend, e.g. "mm" or "model units". Default "model units". */
  units?: string | undefined;
  title?: string | undefined;
  /** Lines under the title (settings, file names). */
  caption?: string | readonly string[] | undefined;
  labels?: readonly CalloutLabel[] | undefined;
  /** Labels whose point a surface hides: drawn dashed (mark, default) or left out (hide). */
  occludedLabels?: 'mark' | 'hide' | undefined;
  /**
   * How far behind the visible surface (model units, along the view) a label point may lie and still
   * count as visible. Default 0.5% of the mesh's bounding-box diagonal.
   */
  depthTolerance?: number | undefined;
  /** Fit margin as a fraction of the viewport's smaller side. Default 0.06. */
  margin?: number | undefined;
  /** Samples per pixel along each axis (1 to 3). Default 2 when the viewport has at most 1M pixels, else 1. */
  supersample?: number | undefined;
  /** Draw the small axis triad and the view name. Default true. */
  axes?: boolean | undefined;
}

export interface HeatmapImageInfo {
  width: number;
  height: number;
  /** The view as unit vectors: the look direction and the image's right and up in world coordinates. */
  view: { direction: Vec3; right: Vec3; up: Vec3 };
  /** Pixels per model unit. */
  scale: number;
  /** The image rectangle the mesh was fitted into. */
  viewport: PixelRect;
  camera: OrthoCamera;
  /** The colour rule used (null without values). */
  colors: { range: number; tolerance: number; steps: number | null } | null;
  triangles: number;
  drawnTriangles: number;
  supersample: number;
  /** The legend's bar in image pixels, and the value at a bar row (null without a legend). */
  legend: LegendLayout | null;
  labels: PlacedCallout[];
}

export const MIN_IMAGE_SIZE = 64;
export const MAX_IMAGE_SIZE = 2048;
export const DEFAULT_IMAGE_WIDTH = 800;
export const DEFAULT_IMAGE_HEIGHT = 600;
/** Supersampling doubles each axis up to this many viewport pixels. */
const SUPERSAMPLE_PIXELS = 1 << 20;

/** Renders onto a new surface of the host (OffscreenCanvas or @napi-rs/canvas). */
export function renderHeatmap(input: HeatmapImageInput): { surface: DrawingSurface; info: HeatmapImageInfo } {
  const { width, height } = imageSize(input);
  const surface = createSurface(width, height);
  return { surface, info: drawHeatmap(surface, input) };
}

/** renderHeatmap encoded as PNG bytes. */
export async function renderHeatmapPng(input: HeatmapImageInput): Promise<{ png: Uint8Array; info: HeatmapImageInfo }> {
  const { surface, info } = renderHeatmap(input);
  return { png: await surface.toPng(), info };
}

/** Draws the whole picture on `surface` (its size is the image size). */
export function drawHeatmap(surface: DrawingSurface, input: HeatmapImageInput): HeatmapImageInfo {
  const width = surface.width, height = surface.height;
  checkSize(width, height);
  const { mesh, values, noData } = input;
  const triangles = Math.floor(mesh.indices.length / 3);
  if (triangles === 0) throw new Error('render: the mesh has no triangles to draw');
  const g = surface.context;
  const k = fontScale(width, height);

  // The colour rule: the app's range and tolerance unless given.
  let colors: { range: number; tolerance: number; steps: number | null } | null = null;
  if (values) {
    const range = input.range ?? colorRange(values, undefined, noData);
    if (!(range >= 0) || !Number.isFinite(range)) throw new Error(`render: range must be a finite number >= 0, got ${range}`);
    const tolerance = input.tolerance ?? defaultTolerance(range);
    colors = { range, tolerance, steps: input.steps ?? null };
  }

  // Layout: title band on top, legend panel on the right, the mesh in the rest.
  const captionLines = typeof input.caption === 'string' ? input.caption.split('\n') : [...(input.caption ?? [])];
  const titleH = input.title || captionLines.length ? Math.round((input.title ? 30 : 10) * k + captionLines.length * 17 * k + 8 * k) : 0;
  const legendW = colors ? Math.min(legendWidth(k), Math.floor(width / 2)) : 0;
  const viewport: PixelRect = { x: 0, y: titleH, width: width - legendW, height: height - titleH };
  if (viewport.width < 16 || viewport.height < 16) throw new Error(`render: ${width} x ${height} leaves no room for the picture beside its title and legend`);

  const camera = fitCamera(mesh.positions, input.view ?? 'iso', viewport, { margin: input.margin ?? DEFAULT_MARGIN }, mesh.indices);
  const supersample = input.supersample ?? (viewport.width * viewport.height <= SUPERSAMPLE_PIXELS ? 2 : 1);
  const raster = rasterize(mesh, camera, colors ? { values, noData, range: colors.range, tolerance: colors.tolerance, steps: colors.steps ?? undefined } : { range: 0, tolerance: 0 }, { supersample });

  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, width, height);
  const image = g.createImageData(raster.width, raster.height);
  image.data.set(raster.rgba);
  g.putImageData(image, viewport.x, viewport.y);

  // Callouts: visibility against the depth buffer, then placement inside the viewport.
  const labels = input.labels ?? [];
  const depthTolerance = input.depthTolerance ?? 0.005 * boundingDiagonal(mesh.positions);
  const states = labels.map((l) => calloutStatus(raster, camera, l.point, depthTolerance));
  const occluded = input.occludedLabels ?? 'mark';
  if (occluded !== 'mark' && occluded !== 'hide') throw new Error(`render: occludedLabels must be mark or hide, got ${String(occluded)}`);
  checkLabels(labels);

  const obstacles: PixelRect[] = [];
  if (input.axes ?? true) obstacles.push(drawTriad(g, camera, viewport, k, typeof input.view === 'string' ? input.view : input.view ? 'custom view' : 'iso'));
  const inset = Math.round(6 * k);
  const bounds: PixelRect = { x: viewport.x + inset, y: viewport.y + inset, width: viewport.width - 2 * inset, height: viewport.height - 2 * inset };
  const placed = drawCallouts(g, labels, states, bounds, [camera.cx, camera.cy], { k, range: colors?.range ?? 0, tolerance: colors?.tolerance ?? 0 }, occluded, obstacles);

  if (input.title || captionLines.length) drawTitle(g, input.title, captionLines, width, k);
  let legend: LegendLayout | null = null;
  if (colors && values) {
    const extremes = signedExtremes(values, noData);
    legend = drawLegend(
      g,
      { x: width - legendW, y: titleH, width: legendW, height: height - titleH },
      {
        range: colors.range,
        tolerance: colors.tolerance,
        steps: colors.steps ?? undefined,
        units: input.units ?? 'model units',
        dataMin: extremes?.[0],
        dataMax: extremes?.[1],
        noData: noData ? Array.prototype.some.call(noData, (x: number) => x !== 0) : false,
        hiddenLabels: occluded === 'mark' && states.some((s: { status: CalloutStatus }) => s.status === 'occluded'),
      },
      k,
    );
  }
  return {
    width,
    height,
    view: { direction: camera.forward, right: camera.right, up: camera.up },
    scale: camera.scale,
    viewport,
    camera,
    colors,
    triangles,
    drawnTriangles: raster.drawnTriangles,
    supersample,
    legend,
    labels: placed,
  };
}

/** Font and line scale: 1 at 600 px, never below 0.75 (text stays legible) nor above 3. */
export function fontScale(width: number, height: number): number {
  return Math.min(3, Math.max(0.75, Math.min(width, height) / 600));
}

function imageSize(input: HeatmapImageInput): { width: number; height: number } {
  const width = input.width ?? DEFAULT_IMAGE_WIDTH, height = input.height ?? DEFAULT_IMAGE_HEIGHT;
  checkSize(width, height);
  return { width, height };
}

function checkSize(width: number, height: number): void {
  for (const [name, v] of [['width', width], ['height', height]] as const) {
    if (!Number.isInteger(v) || v < MIN_IMAGE_SIZE || v > MAX_IMAGE_SIZE) throw new Error(`render: ${name} must be an integer from ${MIN_IMAGE_SIZE} to ${MAX_IMAGE_SIZE} pixels, got ${v}`);
  }
}

function checkLabels(labels: readonly CalloutLabel[]): void {
  for (const l of labels) {
    if (!Number.isInteger(l.number)) throw new Error(`render: a label's number must be an integer, got ${l.number}`);
    if (!l.point || l.point.length !== 3 || !l.point.every(Number.isFinite)) throw new Error(`render: label ${l.number} needs a finite [x, y, z] point`);
  }
}

function boundingDiagonal(p: ArrayLike<number>): number {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 2 < p.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      const x = p[i + a]!;
      if (x < lo[a]!) lo[a] = x;
      if (x > hi[a]!) hi[a] = x;
    }
  }
  const d = Math.hypot(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!);
  return Number.isFinite(d) ? d : 0;
}

/** [min, max] of the values that are numbers and have data; undefined when none. */
function signedExtremes(values: ArrayLike<number>, noData: ArrayLike<number> | undefined): [number, number] | undefined {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v !== v || noData?.[i]) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : undefined;
}

function drawTitle(g: Context2D, title: string | undefined, lines: readonly string[], width: number, k: number): void {
  const x = Math.round(12 * k), maxW = width - 2 * x;
  let y = Math.round(8 * k);
  g.textAlign = 'left';
  g.textBaseline = 'top';
  if (title) {
    g.fillStyle = '#111111';
    g.font = `bold ${Math.round(17 * k)}px sans-serif`;
    g.fillText(title, x, y, maxW);
    y += Math.round(24 * k);
  }
  g.fillStyle = '#444444';
  g.font = `${Math.round(12 * k)}px sans-serif`;
  for (const line of lines) {
    g.fillText(line, x, y, maxW);
    y += Math.round(17 * k);
  }
}

/** World axes as seen in this view, bottom left, with the view's name: which way the part faces. Returns the area it took. */
function drawTriad(g: Context2D, camera: OrthoCamera, viewport: PixelRect, k: number, name: string): PixelRect {
  const len = 22 * k;
  const ox = viewport.x + Math.round(34 * k), oy = viewport.y + viewport.height - Math.round(34 * k);
  const origin = projectPoint(camera, [0, 0, 0]);
  const axes: [string, Vec3][] = [
    ['X', [1, 0, 0]],
    ['Y', [0, 1, 0]],
    ['Z', [0, 0, 1]],
  ];
  // Farther axes first, so the nearer ones are drawn over them.
  const seen = axes
    .map(([label, e]) => {
      const p = projectPoint(camera, e);
      return { label, dx: (p[0] - origin[0]) / camera.scale, dy: (p[1] - origin[1]) / camera.scale, depth: p[2] - origin[2] };
    })
    .sort((a, b) => b.depth - a.depth);
  g.lineCap = 'round';
  g.font = `bold ${Math.round(10 * k)}px sans-serif`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  for (const a of seen) {
    const ex = ox + a.dx * len, ey = oy + a.dy * len;
    g.strokeStyle = '#333333';
    g.lineWidth = 1.6 * k;
    g.beginPath();
    g.moveTo(ox, oy);
    g.lineTo(ex, ey);
    g.stroke();
    if (Math.hypot(a.dx, a.dy) > 0.2) {
      g.fillStyle = '#222222';
      g.fillText(a.label, ox + a.dx * (len + 8 * k), oy + a.dy * (len + 8 * k));
    } else {
      // Seen end-on: a dot (toward the eye) or a ring (away), labelled beside it.
      g.beginPath();
      g.arc(ox, oy, 2.5 * k, 0, 2 * Math.PI);
      g.fillStyle = '#222222';
      if (a.depth < 0) g.fill();
      else g.stroke();
      g.fillText(a.label, ox + 8 * k, oy + 8 * k);
    }
  }
  g.font = `${Math.round(10 * k)}px sans-serif`;
  g.textAlign = 'left';
  g.textBaseline = 'alphabetic';
  g.fillStyle = '#555555';
  // The view's name to the right of the triad, clear of its letters.
  g.fillText(name, viewport.x + Math.round(72 * k), viewport.y + viewport.height - Math.round(10 * k));
  const size = Math.round(70 * k);
  return { x: viewport.x, y: viewport.y + viewport.height - size, width: size + Math.ceil(g.measureText(name).width), height: size };
}
