import { projectPoint, type OrthoCamera, type PixelRect, type Vec3 } from './camera';
import type { Context2D } from './canvas';
import { cssColor, deviationColor } from './heatColors';
import type { Raster } from './rasterize';

/** A numbered label at a 3D point: drawn as a marker, a leader line and a box with the text. */
export interface CalloutLabel {
  number: number;
  point: Vec3;
  /** One or more lines ('\n' separates them), e.g. "+0.132 mm\nFAIL". */
  text: string;
  /** The label's signed value: its box gets a strip in the map's colour. */
  value?: number | undefined;
  /** A strip in this CSS colour instead (a characteristic's verdict), when there is no value. */
  strip?: string | undefined;
}

/** visible: the point is the nearest surface there; occluded: a surface hides it; outside: it projects off the picture. */
export type CalloutStatus = 'visible' | 'occluded' | 'outside';

export interface PlacedCallout {
  number: number;
  status: CalloutStatus;
  /** The point's pixel position in the image (may lie outside it when status is outside). */
  anchor: [number, number];
  /** The label box in image pixels; null when the label is not drawn. */
  box: PixelRect | null;
}

/**
 * Whether a surface point is the nearest thing the camera sees there: the raster's depth at the
 * point's sample and its 8 neighbours (a sample on either side, so a point on a steep slope or a
 * silhouette is not hidden by its own surface) is compared with the point's depth; `tolerance` is
 * in model units along the view.
 */
export function calloutStatus(raster: Raster, camera: OrthoCamera, point: Vec3, tolerance: number): { status: CalloutStatus; anchor: [number, number]; depth: number } {
  const [px, py, d] = projectPoint(camera, point);
  const vp = camera.viewport;
  const anchor: [number, number] = [px, py];
  if (!(px >= vp.x && px < vp.x + vp.width && py >= vp.y && py < vp.y + vp.height)) return { status: 'outside', anchor, depth: d };
  const ss = raster.supersample;
  const sw = raster.width * ss, sh = raster.height * ss;
  const sx = Math.floor((px - vp.x) * ss), sy = Math.floor((py - vp.y) * ss);
  for (let y = Math.max(0, sy - 1); y <= Math.min(sh - 1, sy + 1); y++) {
    for (let x = Math.max(0, sx - 1); x <= Math.min(sw - 1, sx + 1); x++) {
      const s = y * sw + x;
      if (raster.triangle[s]! < 0 || raster.depth[s]! >= d - tolerance) return { status: 'visible', anchor, depth: d };
    }
  }
  return { status: 'occluded', anchor, depth: d };
}

export interface CalloutStyle {
  /** Font scale (1 at 600 px). */
  k: number;
  /** Colour range and tolerance for the value strip. */
  range: number;
  tolerance: number;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

type Segment = [number, number, number, number];

/** Distances (x k) from the point to the near side of its box, tried in order. */
const DISTANCES = [26, 44, 68, 100, 140, 190, 250];
/** Directions tried at each distance, in degrees from the outward direction, alternating sides. */
const TURNS = [0, 30, -30, 60, -60, 90, -90, 120, -120, 150, -150, 180];

/**
 * Places and draws the label boxes. Deterministic greedy placement in label order: each box goes to
 * the first candidate position (nearest first, starting outward from the picture's centre) that keeps
 * it inside `bounds`, off every other box and every marker, with a leader that crosses no earlier
 * leader or box; failing that, the first that only crosses leaders; failing that, the candidate with
 * the least overlap. Hidden points (occluded) are drawn dashed and grey; `hide` leaves them out.
 */
export function drawCallouts(
  g: Context2D,
  labels: readonly CalloutLabel[],
  states: readonly { status: CalloutStatus; anchor: [number, number] }[],
  bounds: PixelRect,
  centre: [number, number],
  style: CalloutStyle,
  occluded: 'mark' | 'hide',
  /** Areas no box may cover (the axis triad). */
  obstacles: readonly PixelRect[] = [],
): PlacedCallout[] {
  const k = style.k;
  const fontPx = Math.round(12 * k);
  const lineH = Math.round(15 * k);
  const pad = Math.round(5 * k);
  const badge = Math.round(15 * k);
  const strip = Math.round(5 * k);
  const marker = Math.max(3, Math.round(4 * k));
  const gap = Math.round(4 * k);
  const drawn = labels.map((label, i) => ({ label, state: states[i]!, show: states[i]!.status === 'visible' || (states[i]!.status === 'occluded' && occluded === 'mark') }));

  // Box sizes from the text.
  g.font = `${fontPx}px sans-serif`;
  const sizes = drawn.map(({ label }) => {
    const lines = label.text.split('\n');
    const textW = Math.max(...lines.map((l) => g.measureText(l).width));
    const w = Math.ceil((label.value !== undefined || label.strip ? strip + pad : pad) + badge + pad + textW + pad);
    const h = Math.max(badge + 2 * pad, lines.length * lineH + 2 * pad);
    return { lines, w: Math.min(w, bounds.width), h: Math.min(h, bounds.height) };
  });

  const markers: Box[] = drawn.filter((d) => d.show).map(({ state }) => ({ x: state.anchor[0] - marker - 2, y: state.anchor[1] - marker - 2, w: 2 * marker + 4, h: 2 * marker + 4 }));
  for (const o of obstacles) markers.push({ x: o.x, y: o.y, w: o.width, h: o.height });
  const boxes: Box[] = [];
  const leaders: Segment[] = [];
  const placed: PlacedCallout[] = [];
  const leaderOf: (Segment | null)[] = [];
  drawn.forEach(({ label, state, show }, i) => {
    if (!show) {
      placed.push({ number: label.number, status: state.status, anchor: state.anchor, box: null });
      leaderOf.push(null);
      return;
    }
    const { w, h } = sizes[i]!;
    const box = placeBox(state.anchor, w, h, bounds, centre, k, boxes, markers, leaders, gap);
    boxes.push(box);
    const seg = leader(state.anchor, box);
    leaders.push(seg);
    leaderOf.push(seg);
    placed.push({ number: label.number, status: state.status, anchor: state.anchor, box: { x: box.x, y: box.y, width: box.w, height: box.h } });
  });

  // Leaders and markers first, boxes on top; hidden ones under visible ones (a hidden point can
  // project onto a visible one).
  const order = placed.map((_, i) => i).sort((a, b) => Number(placed[b]!.status === 'occluded') - Number(placed[a]!.status === 'occluded') || a - b);
  order.forEach((i) => {
    const p = placed[i]!;
    if (!p.box) return;
    const hidden = p.status === 'occluded';
    const [ax, ay, bx, by] = leaderOf[i]!;
    // A solid white halo keeps the leader readable on any colour; a hidden point's leader is dashed on it.
    g.lineCap = 'round';
    g.strokeStyle = 'rgba(255, 255, 255, 0.9)';
    g.lineWidth = 3.2 * k;
    strokeLine(g, ax, ay, bx, by);
    g.setLineDash(hidden ? [4 * k, 3 * k] : []);
    g.lineCap = hidden ? 'butt' : 'round';
    g.strokeStyle = hidden ? '#666666' : '#1a1a1a';
    g.lineWidth = 1.3 * k;
    strokeLine(g, ax, ay, bx, by);
    g.setLineDash([]);
    g.beginPath();
    g.arc(p.anchor[0], p.anchor[1], marker + 1.5 * k, 0, 2 * Math.PI);
    g.fillStyle = 'rgba(255, 255, 255, 0.9)';
    g.fill();
    g.beginPath();
    g.arc(p.anchor[0], p.anchor[1], marker, 0, 2 * Math.PI);
    if (hidden) {
      g.setLineDash([2 * k, 2 * k]);
      g.strokeStyle = '#666666';
      g.lineWidth = 1.3 * k;
      g.stroke();
      g.setLineDash([]);
    } else {
      g.fillStyle = '#1a1a1a';
      g.fill();
    }
  });
  order.forEach((i) => {
    const p = placed[i]!;
    if (!p.box) return;
    const label = labels[i]!;
    const hidden = p.status === 'occluded';
    const { x, y, width: w, height: h } = p.box;
    g.fillStyle = hidden ? 'rgba(255, 255, 255, 0.88)' : '#ffffff';
    g.fillRect(x, y, w, h);
    let cx = x + pad;
    if (label.value !== undefined || label.strip) {
      g.fillStyle = label.value !== undefined ? cssColor(deviationColor(label.value, style.range, style.tolerance)) : label.strip!;
      g.fillRect(x, y, strip, h);
      cx = x + strip + pad;
    }
    g.setLineDash(hidden ? [4 * k, 3 * k] : []);
    g.strokeStyle = hidden ? '#777777' : '#333333';
    g.lineWidth = Math.max(1, Math.round(k));
    g.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
    g.setLineDash([]);
    // The number badge.
    const r = badge / 2;
    g.beginPath();
    g.arc(cx + r, y + pad + r, r, 0, 2 * Math.PI);
    if (hidden) {
      g.strokeStyle = '#666666';
      g.lineWidth = Math.max(1, 1.2 * k);
      g.stroke();
    } else {
      g.fillStyle = '#1a1a1a';
      g.fill();
    }
    g.fillStyle = hidden ? '#444444' : '#ffffff';
    g.font = `bold ${Math.round((String(label.number).length > 2 ? 8.5 : 10) * k)}px sans-serif`;
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(String(label.number), cx + r, y + pad + r + 0.5, badge);
    g.textAlign = 'left';
    g.font = `${fontPx}px sans-serif`;
    g.fillStyle = hidden ? '#666666' : '#111111';
    const tx = cx + badge + pad;
    sizes[i]!.lines.forEach((line, j) => g.fillText(line, tx, y + pad + j * lineH + lineH / 2, x + w - pad - tx));
  });
  return placed;
}

function placeBox(anchor: [number, number], w: number, h: number, bounds: PixelRect, centre: [number, number], k: number, boxes: Box[], markers: Box[], leaders: Segment[], gap: number): Box {
  const [ax, ay] = anchor;
  const out = Math.atan2(ay - centre[1], ax - centre[0]);
  const start = Math.hypot(ay - centre[1], ax - centre[0]) > 1 ? out : -Math.PI / 4;
  const inside = (b: Box) => b.x >= bounds.x && b.y >= bounds.y && b.x + b.w <= bounds.x + bounds.width && b.y + b.h <= bounds.y + bounds.height;
  let firstCrossing: Box | null = null;
  let best: Box | null = null, bestCost = Infinity;
  for (const dist of DISTANCES) {
    for (const turn of TURNS) {
      const a = start + (turn * Math.PI) / 180;
      const dx = Math.cos(a), dy = Math.sin(a);
      // The box's centre: `dist` beyond the point plus the box's half-extent along the direction.
      const reach = dist * k + 0.5 * (w * Math.abs(dx) + h * Math.abs(dy));
      const box = clampBox({ x: Math.round(ax + dx * reach - w / 2), y: Math.round(ay + dy * reach - h / 2), w, h }, bounds);
      if (!inside(box)) continue;
      const cost = overlap(box, boxes, gap) + overlap(box, markers, 0);
      if (cost === 0) {
        const seg = leader(anchor, box);
        const crosses = leaders.some((l) => segmentsCross(l, seg)) || boxes.some((b) => segmentHitsBox(seg, b));
        if (!crosses) return box;
        firstCrossing ??= box;
      } else if (cost < bestCost) {
        bestCost = cost;
        best = box;
      }
    }
  }
  return firstCrossing ?? best ?? clampBox({ x: Math.round(ax - w / 2), y: Math.round(ay - h / 2), w, h }, bounds);
}

function clampBox(b: Box, bounds: PixelRect): Box {
  const x = Math.min(Math.max(b.x, bounds.x), bounds.x + bounds.width - b.w);
  const y = Math.min(Math.max(b.y, bounds.y), bounds.y + bounds.height - b.h);
  return { x, y, w: b.w, h: b.h };
}

/** Total overlap area of `b` (grown by `gap`) with `others`. */
function overlap(b: Box, others: readonly Box[], gap: number): number {
  let sum = 0;
  for (const o of others) {
    const w = Math.min(b.x + b.w + gap, o.x + o.w) - Math.max(b.x - gap, o.x);
    const h = Math.min(b.y + b.h + gap, o.y + o.h) - Math.max(b.y - gap, o.y);
    if (w > 0 && h > 0) sum += w * h;
  }
  return sum;
}

/** The leader: from the point to the nearest point of the box's outline. */
function leader(anchor: readonly [number, number], b: Box): Segment {
  const x = Math.min(Math.max(anchor[0], b.x), b.x + b.w);
  const y = Math.min(Math.max(anchor[1], b.y), b.y + b.h);
  return [anchor[0], anchor[1], x, y];
}

function segmentsCross(a: Segment, b: Segment): boolean {
  const d1 = orient(b[0], b[1], b[2], b[3], a[0], a[1]);
  const d2 = orient(b[0], b[1], b[2], b[3], a[2], a[3]);
  const d3 = orient(a[0], a[1], a[2], a[3], b[0], b[1]);
  const d4 = orient(a[0], a[1], a[2], a[3], b[2], b[3]);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

function segmentHitsBox(s: Segment, b: Box): boolean {
  const edges: Segment[] = [
    [b.x, b.y, b.x + b.w, b.y],
    [b.x + b.w, b.y, b.x + b.w, b.y + b.h],
    [b.x + b.w, b.y + b.h, b.x, b.y + b.h],
    [b.x, b.y + b.h, b.x, b.y],
  ];
  const inBox = (x: number, y: number) => x > b.x && x < b.x + b.w && y > b.y && y < b.y + b.h;
  return inBox(s[0], s[1]) || inBox(s[2], s[3]) || edges.some((e) => segmentsCross(e, s));
}

function strokeLine(g: Context2D, x0: number, y0: number, x1: number, y1: number): void {
  g.beginPath();
  g.moveTo(x0, y0);
  g.lineTo(x1, y1);
  g.stroke();
}
