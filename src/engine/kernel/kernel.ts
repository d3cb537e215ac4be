import type { OpenCascadeInstance } from 'opencascade.js/dist/opencascade.full';

export type OC = OpenCascadeInstance;
export type KernelLoader = () => Promise<OC>;
export type KernelStatus = 'idle' | 'loading' | 'ready' | 'failed';

/** What a host shows about the kernel: its status, why it failed, and how long loading took. */
export interface KernelState {
  status: KernelStatus;
  error?: string;
  /** Milliseconds from the start of loading to ready (or failure). */
  loadMs?: number;
}

interface KernelSlot {
  loader: KernelLoader | undefined;
  promise: Promise<OC> | undefined;
  status: KernelStatus;
  error: string | undefined;
  startedAt: number | undefined;
  loadMs: number | undefined;
  listeners: Set<(state: KernelState) => void>;
}

// Cached on globalThis so that every module instance in one process or worker (vitest with
// isolate: false re-evaluates modules per file) shares one 4 s, 0.5 GB kernel.
const SLOT_KEY = Symbol.for('brepscope.kernel');

function slot(): KernelSlot {
  const g = globalThis as unknown as Record<symbol, KernelSlot | undefined>;
  let s = g[SLOT_KEY];
  if (!s) {
    s = { loader: undefined, promise: undefined, status: 'idle', error: undefined, startedAt: undefined, loadMs: undefined, listeners: new Set() };
    g[SLOT_KEY] = s;
  }
  return s;
}

function setStatus(s: KernelSlot, status: KernelStatus, error?: string): void {
  s.status = status;
  s.error = error;
  if (status === 'loading') s.startedAt = performance.now();
  else if (s.startedAt !== undefined) s.loadMs = Math.round(performance.now() - s.startedAt);
  const state = stateOf(s);
  for (const l of s.listeners) l(state);
}

function stateOf(s: KernelSlot): KernelState {
  const state: KernelState = { status: s.status };
  if (s.error !== undefined) state.error = s.error;
  if (s.loadMs !== undefined && s.status !== 'loading') state.loadMs = s.loadMs;
  return state;
}

/** The host (Node process or Web Worker) says how to load the kernel; loading itself stays lazy. */
export function setKernelLoader(loader: KernelLoader): void {
  const s = slot();
  if (!s.loader) s.loader = loader;
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

export function kernelStatus(): KernelState {
  return stateOf(slot());
}

export function onKernelStatus(listener: (state: KernelState) => void): () => void {
  const s = slot();
  s.listeners.add(listener);
  return () => s.listeners.delete(listener);
}

/** For code that got the kernel only because a BREP body is involved: it must be there. */
export function requireKernel(oc: OC | undefined, who: string): OC {
  if (!oc) throw new Error(`${who}: a BREP body needs the kernel`);
  return oc;
}
