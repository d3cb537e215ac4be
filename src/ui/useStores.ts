import { useStore } from 'zustand';
import type { KernelState } from '../engine';
import { kernelStore, sceneStore, type SceneState } from './stores';
import { unitsOf, type Units } from './units';

export function useScene<T>(selector: (s: SceneState) => T): T {
  return useStore(sceneStore, selector);
}

export function useKernel<T>(selector: (s: KernelState) => T): T {
  return useStore(kernelStore, selector);
}

/** The units of figures about these bodies, following the scene (a body's summary says its unit). */
export function useUnits(bodyIds: readonly (string | null | undefined)[]): Units {
  // Re-read when the list of bodies changes; the answer is a small object computed from it.
  useScene((s) => s.bodies);
  return unitsOf(bodyIds);
}
