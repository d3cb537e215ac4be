import { useEffect, useState, type RefObject } from 'react';

/**
 * Below this the viewport is "compact": the overlays drawn over it (legend and statistics, picked
 * face) start folded so the part stays visible: a 1024x700 window gives a view of about 485 x 450,
 * a 1280x800 one about 710 x 535 (the expanded overlay would cover 30 % of it).
 */
export const COMPACT_VIEW = { width: 640, height: 540 };

/** Whether the 3D view that holds `ref` is compact, followed as the window or the dock resizes it. */
export function useCompactView(ref: RefObject<HTMLElement | null>): boolean {
  const [compact, setCompact] = useState(false);
  useEffect(() => {
    const view = ref.current?.closest<HTMLElement>('[data-testid="viewport"]');
    if (!view || typeof ResizeObserver !== 'function') return;
    const check = () => setCompact(view.clientWidth < COMPACT_VIEW.width || view.clientHeight < COMPACT_VIEW.height);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(view);
    return () => observer.disconnect();
  }, [ref]);
  return compact;
}
