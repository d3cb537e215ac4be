import { useEffect } from 'react';
import { selectBody } from './bodies';
import { clearPick } from './picking';
import { sceneStore, type ViewDirection } from './stores';
import { cancelTool } from './toolRuns';
import { fitView, toggleAxes, toggleEdges, toggleGrid } from './view';

/** View keys and what they do (the view buttons name the same keys). */
export const VIEW_KEYS: Record<string, ViewDirection> = { f: 'current', '1': 'front', '3': 'right', '7': 'top', '0': 'iso' };

const TOGGLE_KEYS: Record<string, () => void> = { g: toggleGrid, a: toggleAxes, e: toggleEdges };

/** Escape cancels a run, else clears the pick, else deselects. */
export function escape(): void {
  if (cancelTool()) return;
  if (sceneStore.getState().picked) clearPick();
  else selectBody(null);
}

/** Where a key types text or picks an option: view keys stay off there (checkboxes and buttons pass). */
function isTextEntry(t: EventTarget | null): boolean {
  if (t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return true;
  if (t instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'color', 'file', 'range'].includes(t.type);
  return t instanceof HTMLElement && t.isContentEditable;
}

/** Keys: F fit, 1 front, 3 right, 7 top, 0 iso, G grid, A axes, E edges; Escape (see `escape`). */
export function useKeyMap(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') return escape();
      if (isTextEntry(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const key = e.key.toLowerCase();
      const view = VIEW_KEYS[key];
      if (view) {
        e.preventDefault();
        fitView(view);
      } else TOGGLE_KEYS[key]?.();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
