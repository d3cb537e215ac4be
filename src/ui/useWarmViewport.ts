import { useEffect, useState } from 'react';

/** How long the page may stay busy before the viewport is made anyway. */
const LATEST_MS = 2000;

/**
 * True once the page has been idle after start: the moment to make the 3D view (its WebGL context
 * and first frame cost a task of 100 ms or more) before any file needs it.
 */
export function useWarmViewport(): boolean {
  const [warm, setWarm] = useState(false);
  useEffect(() => {
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(() => setWarm(true), { timeout: LATEST_MS });
      return () => cancelIdleCallback(id);
    }
    const t = setTimeout(() => setWarm(true), 0);
    return () => clearTimeout(t);
  }, []);
  return warm;
}
