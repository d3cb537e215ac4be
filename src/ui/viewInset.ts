import { createStore } from 'zustand/vanilla';

/**
 * What the heat overlay (legend and statistics) covers of the viewport, in CSS pixels from its right
 * and bottom edges: the camera draws the scene in the rest (CameraRig's `inset`), so the legend never
 * sits on the part (issue 29: it covered a third of the part at 1440x900).
 */
export interface ViewInset {
  right: number;
  bottom: number;
}

export const viewInsetStore = createStore<ViewInset>(() => ({ right: 0, bottom: 0 }));

/** The overlay's box against the viewport's: how far it reaches in from the right and from the bottom. */
export function insetOf(overlay: DOMRect, viewport: DOMRect): ViewInset {
  return { right: Math.max(0, viewport.right - overlay.left), bottom: Math.max(0, viewport.bottom - overlay.top) };
}
