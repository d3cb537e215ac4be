import { createExactDeviation, ExactReference } from '../exact/ExactReference';
import { beyondOpenBoundary, type OpenBoundary } from '../mesh/openBoundary';
import type { SurfaceSamples } from '../mesh/sampleSurface';
import { createSignedDeviation, signedDeviation, type DeviationReference, type SignMode } from '../mesh/signedDeviation';
import type { Pacer } from './pacer';

/** What a deviation tool measures against: a mesh reference, or a BREP body's exact faces. */
export type DeviationTarget = DeviationReference | ExactReference;

/** Per-sample results of one direction. */
export interface DirectedDeviation {
  samples: SurfaceSamples;
  /** Unsigned distance to the nearest reference surface. */
  distance: Float64Array;
  /** Signed distance; NaN for an ambiguous sample. */
  signed: Float64Array;
  /**
   * Per-sample flags. BEYOND (bit 0): the sample's nearest reference point lies on an open mesh
   * reference's boundary and the sample beyond it (beyondOpenBoundary): no data. OTHER_SKIN (bit 1):
   * the sample's compatible surface is in reach but is not the nearest one (ambiguous reason
   * notNearest): the evidence of a thin wall (thinWallWarning).
   */
  beyond: Uint8Array;
}

export const BEYOND = 1;
export const OTHER_SKIN = 2;

const CHUNK = 2048;

export async function measureDirected(
  samples: SurfaceSamples,
  ref: DeviationTarget,
  mode: SignMode,
  pacer: Pacer,
  label: string,
  boundary: OpenBoundary | null = null,
): Promise<DirectedDeviation> {
  const n = samples.count;
  const out = { distance: new Float64Array(n), signed: new Float64Array(n), beyond: new Uint8Array(n) };
  const scratch = { r: createSignedDeviation(), x: createExactDeviation() };
  for (let start = 0; start < n; start += CHUNK) {
    await pacer.tick(start, n, label);
    measureRange(samples, ref, mode, boundary, start, Math.min(n, start + CHUNK), out, scratch);
  }
  return { samples, ...out };
}

type PerSample = Omit<DirectedDeviation, 'samples'>;

/** Samples [start, end) against the reference, written into `out` at the same indices: every direction's loop. */
function measureRange(
  samples: SurfaceSamples,
  ref: DeviationTarget,
  mode: SignMode,
  boundary: OpenBoundary | null,
  start: number,
  end: number,
  out: PerSample,
  { r, x }: { r: ReturnType<typeof createSignedDeviation>; x: ReturnType<typeof createExactDeviation> },
): void {
  const p = samples.points;
  const nrm = samples.normals;
  const { distance, signed, beyond } = out;
  const exact = ref instanceof ExactReference ? ref : null;
  for (let i = start; i < end; i++) {
    const o = 3 * i;
    if (exact) {
      exact.signed(p[o]!, p[o + 1]!, p[o + 2]!, nrm[o]!, nrm[o + 1]!, nrm[o + 2]!, mode, x);
      distance[i] = x.distance;
      signed[i] = x.signed;
      if (x.reason === 'notNearest') beyond[i] = OTHER_SKIN;
    } else {
      signedDeviation(ref as DeviationReference, p[o]!, p[o + 1]!, p[o + 2]!, nrm[o]!, nrm[o + 1]!, nrm[o + 2]!, mode, r);
      distance[i] = r.distance;
      signed[i] = r.signed;
      beyond[i] = (r.reason === 'notNearest' ? OTHER_SKIN : 0) | (boundary && beyondOpenBoundary(boundary, r.nearest, p[o]!, p[o + 1]!, p[o + 2]!) ? BEYOND : 0);
    }
  }
}

/**
 * One direction's per-sample arrays in shared memory, measured by two threads at once: each claims
 * the next SHARED_CHUNK samples (Atomics.add on `next`) until none is left, and writes its results
 * at their indices. Every sample is measured by the same function as in measureDirected, so the
 * arrays are the serial ones whoever measured which chunk.
 */
export interface SharedOutput extends PerSample {
  /** [0]: the first sample not yet claimed. */
  next: Int32Array;
}

export const SHARED_CHUNK = 256;

export function sharedOutput(count: number): SharedOutput {
  return {
    next: new Int32Array(new SharedArrayBuffer(4)),
    distance: new Float64Array(new SharedArrayBuffer(8 * count)),
    signed: new Float64Array(new SharedArrayBuffer(8 * count)),
    beyond: new Uint8Array(new SharedArrayBuffer(count)),
  };
}

/** Measures claimed chunks of a shared direction until none is left (SharedOutput). */
export async function measureClaimed(samples: SurfaceSamples, ref: DeviationReference, mode: SignMode, boundary: OpenBoundary | null, out: SharedOutput, pacer?: Pacer, label = ''): Promise<void> {
  const n = samples.count;
  const scratch = { r: createSignedDeviation(), x: createExactDeviation() };
  for (;;) {
    const start = Atomics.add(out.next, 0, SHARED_CHUNK);
    if (start >= n) return;
    measureRange(samples, ref, mode, boundary, start, Math.min(n, start + SHARED_CHUNK), out, scratch);
    await pacer?.tick(start, n, label);
  }
}
