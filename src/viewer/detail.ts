import type { Object3D } from 'three';

/**
 * Which level of detail each big body is drawn at, chosen per frame from what the last frame cost.
 * A frame is timed to the end of its drawing (render, then `finish`): a GPU draws a million
 * triangles in a millisecond or two, a software renderer (headless Chromium's SwiftShader, a
 * machine without a GPU) in a second, and in both the page's thread waits for it. The finest levels
 * that the measured cost per triangle fits in a frame budget are drawn: the coarsest while nothing
 * has been measured or the view moves fast, the display level (about half a million triangles) at
 * rest, every triangle when the user asks for full detail. Drawing only: picking and every
 * measurement use the body's own triangles.
 */

/**
 * Frame budgets (ms): while the camera moves, and at rest. A page task over 200 ms is a stall. The
 * cost is predicted in proportion to what is drawn, though part of a frame is fixed (clearing,
 * shading the covered pixels: 10 to 50 ms in SwiftShader here), so a finer level costs less than
 * predicted (an 8k-triangle frame took 55 ms where a 30k one took 80): the rest budget is nearer
 * 200 ms than the prediction's error, and spent by a few frames once the view stops.
 */
export const MOVING_BUDGET_MS = 60;
export const REST_BUDGET_MS = 160;

/** A body as the chooser sees it: triangles (or points) of its full mesh and of each level, finest first. */
export interface DetailBody {
  full: number;
  levels: readonly number[];
}

/**
 * The level drawn for each body: -1 the full mesh, else an index into its levels. `msPerItem`:
 * the last frame's cost per triangle or point drawn (undefined: nothing measured yet).
 */
export function chooseLevels(bodies: readonly DetailBody[], msPerItem: number | undefined, budgetMs: number, fullDetail: boolean): number[] {
  if (fullDetail) return bodies.map(() => -1);
  if (msPerItem === undefined) return bodies.map((b) => (b.levels.length ? b.levels.length - 1 : -1));
  const allowed = budgetMs / Math.max(msPerItem, 1e-9);
  const fixed = bodies.reduce((sum, b) => sum + (b.levels.length ? 0 : b.full), 0);
  const scalable = bodies.reduce((sum, b) => sum + (b.levels.length ? b.full : 0), 0);
  const room = Math.max(0, allowed - fixed);
  return bodies.map((b) => {
    if (!b.levels.length) return -1;
    const share = (room * b.full) / scalable;
    const fits = b.levels.findIndex((n) => n <= share);
    return fits === -1 ? b.levels.length - 1 : fits;
  });
}

/** A drawn body's objects: the full mesh (pickable, hidden while a level is drawn) and one object per level. */
export interface DetailEntry {
  full: Object3D;
  fullCount: number;
  levels: { object: Object3D; count: number }[];
}

/** The viewport's bodies (every drawn body, with levels or none), and what was last measured and chosen. */
export const detail = {
  bodies: new Map<string, DetailEntry>(),
  moving: false,
  fullDetail: false,
  msPerItem: undefined as number | undefined,
  /** Frames still allowed to refine the view at rest (set when the view stops or a body arrives): a few, so levels never flip back and forth. */
  refine: 0,
  /** What the last frame drew, by bodyId (-1 full), for the test API. */
  drawn: new Map<string, { level: number; count: number }>(),
  /** The last frames' cost (ms) and triangles or points drawn, newest last, for the test API. */
  frames: [] as { ms: number; items: number }[],
};

function choose(budgetMs: number): [string, DetailEntry, number][] {
  const entries = [...detail.bodies.entries()];
  const chosen = chooseLevels(
    entries.map(([, e]) => ({ full: e.fullCount, levels: e.levels.map((l) => l.count) })),
    detail.msPerItem,
    budgetMs,
    detail.fullDetail && !detail.moving,
  );
  return entries.map(([id, e], i) => [id, e, chosen[i]!]);
}

/** Shows one object per body for this frame; returns how many triangles or points will be drawn. */
export function applyLevels(budgetMs: number): number {
  let items = 0;
  detail.drawn.clear();
  for (const [bodyId, e, level] of choose(budgetMs)) {
    e.full.visible = level === -1;
    e.levels.forEach((l, k) => (l.object.visible = k === level));
    const count = level === -1 ? e.fullCount : e.levels[level]!.count;
    items += count;
    detail.drawn.set(bodyId, { level, count });
  }
  return items;
}

/** Whether the next frame would draw some body at another level than the last did. */
export function wantsOtherLevels(budgetMs: number): boolean {
  return choose(budgetMs).some(([bodyId, , level]) => detail.drawn.get(bodyId)?.level !== level);
}

/** Records a frame's cost: the next frames are chosen by it. Frames that drew almost nothing say little about triangles. */
export function recordFrame(ms: number, items: number): void {
  detail.frames.push({ ms: Math.round(ms), items });
  if (detail.frames.length > 40) detail.frames.shift();
  if (items < 1000) return;
  detail.msPerItem = ms / items;
}
