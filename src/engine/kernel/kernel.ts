import type { OpenCascadeInstance } from 'opencascade.js/dist/opencascade.full';

export type OC = OpenCascadeInstance;
export type KernelLoader = () => Promise<OC>;
export type KernelStatus = 'idle' | 'loading' | 'ready' | 'failed';

interface KernelSlot {
  loader: KernelLoader | undefined;
  promise: Promise<OC> | undefined;
  status: KernelStatus;
  error: string | undefined;
  listeners: Set<(status: KernelStatus, error?: string) => void>;
}

// Cached on globalThis so that every module instance in one process or worker (vitest with
// isolate: false re-evaluates modules per file) shares one 4 s, 0.5 GB kernel.
const SLOT_KEY = Symbol.for('brepscope.kernel');

function slot(): KernelSlot {
  const g = globalThis as unknown as Record<symbol, KernelSlot | undefined>;
  let s = g[SLOT_KEY];
  if (!s) {
    s = { loader: undefined, promise: undefined, status: 'idle', error: undefined, listeners: new Set() };
    g[SLOT_KEY] = s;
  }
  return s;
}

function setStatus(s: KernelSlot, status: KernelStatus, error?: string): void {
  s.status = status;
  s.error = error;
  for (const l of s.listeners) l(status, error);
}

/** The host (Node process or Web Worker) says how to load the kernel; loading itself stays lazy. */
export function setKernelLoader(loader: KernelLoader): void {
  const s = slot();
  if (!s.loader) s.loader = loader;
}

export function hasKernelLoader(): boolean {
  return slot().loader !== undefined;
}

/** The one kernel of this process or worker, loaded on first use. */
export function getKernel(): Promise<OC> {
  const s = slot();
  if (s.promise) return s.promise;
  const loader = s.loader;
  if (!loader) throw new Error('kernel: no loader set; the host must call setKernelLoader first');
  setStatus(s, 'loading');
  s.promise = loader().then(
    (oc) => {
      setStatus(s, 'ready');
      return oc;
    },
    (e: unknown) => {
      s.promise = undefined;
      setStatus(s, 'failed', e instanceof Error ? e.message : String(e));
      throw e;
    },
  );
  return s.promise;
}

export function kernelStatus(): { status: KernelStatus; error?: string } {
  const s = slot();
  return s.error === undefined ? { status: s.status } : { status: s.status, error: s.error };
}

export function onKernelStatus(listener: (status: KernelStatus, error?: string) => void): () => void {
  const s = slot();
  s.listeners.add(listener);
  return () => s.listeners.delete(listener);
}
