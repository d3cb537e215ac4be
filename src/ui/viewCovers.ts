import { useEffect, type RefObject } from 'react';
import { createStore } from 'zustand/vanilla';
import { freeRect, type ViewRect } from '../viewer/Viewport';

/**
 * What the panels drawn over the 3D view cover of it (the legend and statistics, the view toolbar),
 * and the frame they leave free: the camera draws the scene in that frame (viewer/viewFrame.ts), so a
 * fit or a Compare never puts the part under the legend (issue 29: it covered a third of a wide part
 * at 1440x900 and all of it at 800x600).
 */
interface ViewCovers {
  view: { width: number; height: number };
  covers: Record<string, ViewRect>;
  /** Covers that count only beside another one (the view toolbar: alone, it grazes a corner of a fitted part at most). */
  minor: Record<string, true>;
  /** The free frame, null when nothing covers the view (or what is left is too small to use). */
  frame: ViewRect | null;
}

export const viewCoverStore = createStore<ViewCovers>(() => ({ view: { width: 0, height: 0 }, covers: {}, minor: {}, frame: null }));

const sameRect = (a: ViewRect | null | undefined, b: ViewRect | null | undefined) =>
  a === b || (!!a && !!b && a.left === b.left && a.top === b.top && a.width === b.width && a.height === b.height);

function update(view: { width: number; height: number }, covers: Record<string, ViewRect>, minor: Record<string, true>): void {
  const prev = viewCoverStore.getState();
  const next = Object.keys(covers).some((k) => !minor[k]) ? freeRect(view.width, view.height, Object.values(covers)) : null;
  viewCoverStore.setState({ view, covers, minor, frame: sameRect(next, prev.frame) ? prev.frame : next });
}

/**
 * Keeps the store at the rectangle `ref`'s element covers of the viewport that holds it; gone with
 * the element. A `minor` cover counts only while another cover is there.
 */
export function useViewCover(ref: RefObject<HTMLElement | null>, key: string, minor = false): void {
  useEffect(() => {
    const el = ref.current;
    const view = el?.closest<HTMLElement>('[data-testid="viewport"]');
    if (!el || !view || typeof ResizeObserver !== 'function') return;
    const measure = () => {
      const r = el.getBoundingClientRect(), v = view.getBoundingClientRect();
      // Whole pixels: a sub-pixel layout wobble must not move the picture.
      const rect = { left: Math.floor(r.left - v.left), top: Math.floor(r.top - v.top), width: Math.ceil(r.width), height: Math.ceil(r.height) };
      const size = { width: Math.round(v.width), height: Math.round(v.height) };
      const s = viewCoverStore.getState();
      if (sameRect(s.covers[key], rect) && s.view.width === size.width && s.view.height === size.height) return;
      update(size, { ...s.covers, [key]: rect }, minor ? { ...s.minor, [key]: true } : s.minor);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    observer.observe(view);
    return () => {
      observer.disconnect();
      const { view: size, covers, minor: minors } = viewCoverStore.getState();
      const rest = { ...covers };
      delete rest[key];
      const restMinor = { ...minors };
      delete restMinor[key];
      update(size, rest, restMinor);
    };
  }, [ref, key, minor]);
}
