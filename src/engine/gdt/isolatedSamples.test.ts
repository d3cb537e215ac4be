import { describe, expect, it } from 'vitest';
import { seededRandom } from '../mesh/generators';
import { gaussian } from '../../test/noise';
import { isolatedSamples } from './isolatedSamples';

/**
 * Samples on a 100 x 100 plane (z = deviation), one a millimetre apart in a jittered grid, with
 * gaussian noise `sigma` on their deviation; `edit` changes deviations in place before the test.
 */
function plane(sigma: number, seed: number, edit?: (dev: Float64Array, at: (i: number, j: number) => number) => void) {
  const N = 100, rand = seededRandom(seed), g = gaussian(seed + 1);
  const points = new Float64Array(3 * N * N), dev = new Float64Array(N * N), face = new Int32Array(N * N);
  const at = (i: number, j: number) => i * N + j;
  for (let i = 0; i < N; i++)
    for (let j = 0; j < N; j++) {
      const k = at(i, j);
      dev[k] = sigma * g();
      points.set([i + 0.3 * rand(), j + 0.3 * rand(), 0], 3 * k);
    }
  edit?.(dev, at);
  for (let k = 0; k < N * N; k++) points[3 * k + 2] = dev[k]!;
  return { points, dev, face };
}

const flagged = (r: { isolated: Uint8Array }) => [...r.isolated.keys()].filter((k) => r.isolated[k]);

describe('isolatedSamples: spikes out, features and noise in', () => {
  it('finds every spike of 0.1 to 1 on noise 0.01, and no sample of the noise, over 10 seeds', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const rand = seededRandom(100 + seed);
      const spikes = new Set<number>();
      const s = plane(0.01, seed, (dev, at) => {
        for (let q = 0; q < 20; q++) {
          const k = at(5 + Math.floor(rand() * 90), 5 + Math.floor(rand() * 90));
          if (spikes.has(k)) continue;
          spikes.add(k);
          dev[k] = dev[k]! + (rand() < 0.5 ? -1 : 1) * (0.1 + 0.9 * rand());
        }
      });
      const r = isolatedSamples(s.points, s.face, s.dev, 0.01);
      expect(new Set(flagged(r))).toEqual(spikes);
      // The threshold: 6 standard deviations of a sample's difference from its neighbours' median (about 1.1 sigma).
      expect(r.threshold).toBeGreaterThan(0.06);
      expect(r.threshold).toBeLessThan(0.08);
    }
  });

  it('keeps a bump, a ridge one sample wide and three samples in a row: each is seen by a neighbour that agrees', () => {
    const s = plane(0.01, 7, (dev, at) => {
      for (let i = 20; i < 24; i++) for (let j = 20; j < 24; j++) dev[at(i, j)]! += 0.3;
      for (let i = 40; i < 70; i++) dev[at(i, 50)]! += 0.2;
      for (let i = 80; i < 83; i++) dev[at(i, 80)]! -= 0.5;
    });
    expect(isolatedSamples(s.points, s.face, s.dev, 0.01).count).toBe(0);
  });

  it('on a perfect scan (no noise) only a sample beyond the floor is isolated', () => {
    const s = plane(0, 3, (dev, at) => {
      dev[at(50, 50)] = 0.009;
      dev[at(30, 30)] = 0.02;
    });
    expect(flagged(isolatedSamples(s.points, s.face, s.dev, 0.01))).toEqual([30 * 100 + 30]);
  });

  it('compares a sample with its own face only: a step between two faces is no spike', () => {
    const s = plane(0.01, 5);
    // Half the plane is another face 0.5 higher (as a shoulder's top beside a lower face).
    for (let k = 0; k < s.face.length; k++)
      if (s.points[3 * k]! > 50) {
        s.face[k] = 1;
        s.dev[k]! += 0.5;
      }
    expect(isolatedSamples(s.points, s.face, s.dev, 0.01).count).toBe(0);
    // And a sample without a face (-1) is neither judged nor a neighbour.
    s.face[0] = -1;
    s.dev[0] = 5;
    expect(isolatedSamples(s.points, s.face, s.dev, 0.01).isolated[0]).toBe(0);
  });
});

describe('isolatedSamples: noise of its own per face', () => {
  it('keeps every sample of a noisy face beside quiet ones (a hole wall scanned obliquely beside flat faces)', () => {
    const s = plane(0, 9);
    const g = gaussian(21);
    // A strip of 400 samples is another face with noise 0.01; the rest is noise-free.
    for (let k = 0; k < s.face.length; k++)
      if (s.points[3 * k + 1]! < 4) {
        s.face[k] = 1;
        s.dev[k] = 0.01 * g();
      }
    expect(isolatedSamples(s.points, s.face, s.dev, 0.001).count).toBe(0);
    // A spike on the noisy face is still found; one of 0.005 on the quiet face too (its floor 0.001).
    s.dev[50 * 100 + 2] = 0.5;
    s.dev[50 * 100 + 50] = 0.005;
    expect(flagged(isolatedSamples(s.points, s.face, s.dev, 0.001))).toEqual([50 * 100 + 2, 50 * 100 + 50]);
  });
});
