import { useStore } from 'zustand';
import type { KernelState } from '../engine';
import { kernelStore, sceneStore, type SceneState } from './stores';

export function useScene<T>(selector: (s: SceneState) => T): T {
  return useStore(sceneStore, selector);
}

export function useKernel<T>(selector: (s: KernelState) => T): T {
  return useStore(kernelStore, selector);
}
