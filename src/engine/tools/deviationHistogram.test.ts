import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { box, cylinder } from '../mesh/generators';
import { CHART_HEIGHT, CHART_WIDTH, PROUD_COLOR, SHY_COLOR } from '../render/histogramChart';
import { testEngine } from '../../test/testEngine';
import { addMeshBody, invertedCylinder, thinWallCandidate, thinWallReference } from '../../test/deviationFixtures';
import { HISTOGRAM_BUCKETS, type HistogramResult } from './deviationHistogram';

let engine: Engine;
let dir: string;
const histogram = (args: object) => engine.runJson('deviation_histogram', args).then((r) => r.result) as Promise<HistogramResult>;

beforeAll(() => {
  engine = testEngine();
  dir = mkdtempSync(join(tmpdir(), 'brepscope-histogram-'));
  // A 10 mm cube and the same cube moved +0.3 in x: its +x face is 0.3 proud, its -x face 0.3 shy.
  addMeshBody(engine.scene, 'cube', box([0, 0, 0], [10, 10, 10], 4));
  addMeshBody(engine.scene, 'shifted', box([0.3, 0, 0], [10.3, 10, 10], 4));
  addMeshBody(engine.scene, 'ref', cylinder({ radius: 10, height: 40, segments: 256, stacks: 4, caps: true }));
  addMeshBody(engine.scene, 'cand', cylinder({ radius: 10.2, height: 40, segments: 256, stacks: 4, caps: true }));
  addMeshBody(engine.scene, 'thinRef', thinWallReference());
  addMeshBody(engine.scene, 'thinCand', thinWallCandidate());
  addMeshBody(engine.scene, 'inverted', invertedCylinder());
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function hexRgb(hex: string): [number, number, number] {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

describe('deviation_histogram', () => {
  it('every field; 40 buckets over the signed range that count every signed sample; withinTolerance only with a tolerance', async () => {
    const r = await histogram({ fromBodyId: 'shifted', referenceBodyId: 'cube' });
    expect(r.signMode).toBe('robust');
    expect(r.withinTolerance).toBeUndefined();
    expect(r.imagePath).toBeUndefined();
    expect(r.buckets).toHaveLength(HISTOGRAM_BUCKETS);
    expect(r.samples).toBe(50000);
    expect(r.signedSamples + r.ambiguousSamples).toBe(r.samples);
    expect(r.ambiguousFraction).toBe(r.ambiguousSamples / r.samples);
    expect(r.buckets.reduce((n, b) => n + b.count, 0)).toBe(r.signedSamples);
    expect(r.buckets[0]!.lo).toBe(r.signedMin);
    expect(r.buckets[HISTOGRAM_BUCKETS - 1]!.hi).toBe(r.signedMax);
    for (let i = 1; i < r.buckets.length; i++) expect(r.buckets[i]!.lo).toBeCloseTo(r.buckets[i - 1]!.hi, 12);
    // +x face (a sixth of the area) at +0.3; the other four faces 0 where they overlap the cube and
    // up to +0.3 on their 0.3-wide strip beyond it. The -x face lies 0.3 inside the cube, but a
    // point t < 0.3 from its border is only t from the cube's side face: its value is -min(t, 0.3)
    // (the nearest distance, issue 33). Over a side L = 10 square, with c = 0.3,
    //   integral of min(t, c) = integral_0^c (L - 2s)^2 ds = (L^3 - (L - 2c)^3) / 6,
    //   integral of min(t, c)^2 = integral_0^c 2s (L - 2s)^2 ds = L^2 c^2 - 8 L c^3 / 3 + 2 c^4.
    const L = 10, c = 0.3;
    const shy1 = (L ** 3 - (L - 2 * c) ** 3) / 6, shy2 = L * L * c * c - (8 * L * c ** 3) / 3 + 2 * c ** 4;
    expect(r.signedMin!).toBeCloseTo(-0.3, 9);
    expect(r.signedMax!).toBeCloseTo(0.3, 9);
    expect(r.maxAbs).toBeCloseTo(0.3, 9);
    const expectedMean = (0.3 * 100 - shy1 + (4 * 10 * (0.3 * 0.3)) / 2) / 600;
    expect(Math.abs(r.mean! - expectedMean)).toBeLessThan(0.001);
    // E[x^2] = (100 * 0.09 + shy2 + 4 * 10 * 0.3^3 / 3) / 600, population std.
    const expectedStd = Math.sqrt((100 * 0.09 + shy2 + (4 * 10 * 0.027) / 3) / 600 - expectedMean ** 2);
    expect(Math.abs(r.std! - expectedStd)).toBeLessThan(0.001);
    expect(Math.abs(r.median!)).toBeLessThan(1e-9);
    expect(r.p95).toBeCloseTo(0.3, 9);

    const t = await histogram({ fromBodyId: 'shifted', referenceBodyId: 'cube', tolerance: 0.1 });
    // Within 0.1: the four side faces (4/6 of the area) except their strip beyond 0.1 of x = 10,
    // and the -x face's band within 0.1 of its border (L^2 - (L - 0.2)^2).
    const expectedWithin = (4 * 100 - 4 * 10 * 0.2 + (L * L - (L - 0.2) ** 2)) / 600;
    expect(Math.abs(t.withinTolerance! - expectedWithin)).toBeLessThan(0.003);
    expect((await histogram({ fromBodyId: 'shifted', referenceBodyId: 'cube', tolerance: 0.5 })).withinTolerance).toBe(1);
  });

  it('candidate 0.2 proud all round: mean +0.2, sigma small; a flat distribution widens by 0.5 each side', async () => {
    const r = await histogram({ fromBodyId: 'cand', referenceBodyId: 'ref', maxSamples: 5000, tolerance: 0.25 });
    expect(r.samples).toBeLessThanOrEqual(5000);
    expect(r.signedSamples).toBe(r.samples);
    expect(r.withinTolerance).toBe(1);
    // Lateral 0.2; caps 0 inside r = 10 and up to 0.2 on the rim strip (the caps are coplanar).
    expect(r.signedMax!).toBeLessThan(0.2 + 1e-3);
    expect(r.signedMin!).toBeGreaterThan(-1e-9);
    const self = await histogram({ fromBodyId: 'ref', referenceBodyId: 'ref', maxSamples: 2000 });
    expect(self.signedMax! - self.signedMin!).toBeLessThan(1e-9);
    expect(self.buckets[0]!.lo).toBeCloseTo(self.signedMin! - 0.5, 12);
    expect(self.buckets[HISTOGRAM_BUCKETS - 1]!.hi).toBeCloseTo(self.signedMax! + 0.5, 12);
    expect(self.mean!).toBeCloseTo(0, 12);
  });

  it('thin-walled reference: robust mode withholds the signs it cannot give (never |signed| 4.5 > maxAbs 2.5) and warns', async () => {
    const r = await histogram({ fromBodyId: 'thinCand', referenceBodyId: 'thinRef', maxSamples: 2000 });
    expect(Math.abs(r.maxAbs - 2.5)).toBeLessThan(0.005);
    // 2.5 outside the inner skin (nearest), 4.5 inside the outer one (facing it): no sign (issue 33).
    expect(r.signedSamples).toBe(0);
    expect(r.signedMin).toBeNull();
    expect(r.warnings.filter((w) => w.code === 'THIN_WALLED_REFERENCE').map((w) => w.message)).toEqual([expect.stringContaining(': 2000 of 2000 samples (100.0%) lie nearer a surface of the reference that faces away from them')]);
    const n = await histogram({ fromBodyId: 'thinCand', referenceBodyId: 'thinRef', maxSamples: 2000, signMode: 'nearest' });
    expect(n.maxAbs).toBe(r.maxAbs);
    expect(Math.abs(n.mean! - 2.5)).toBeLessThan(0.005);
    expect(n.signedMin!).toBeGreaterThanOrEqual(-n.maxAbs);
  });

  it('nothing signed (inverted reference): null statistics, empty buckets, no PNG even when asked', async () => {
    const outputPath = join(dir, 'inverted.png');
    const r = await histogram({ fromBodyId: 'cand', referenceBodyId: 'inverted', outputPath, tolerance: 0.3, maxSamples: 3000 });
    expect(r.signedSamples).toBe(0);
    expect(r.ambiguousFraction).toBe(1);
    for (const k of ['mean', 'std', 'median', 'signedMin', 'signedMax'] as const) expect(r[k]).toBeNull();
    expect(r.buckets).toEqual([]);
    // Magnitudes still use every sample.
    expect(Math.abs(r.maxAbs - 0.2)).toBeLessThan(0.01);
    expect(r.withinTolerance).toBe(1);
    expect(r.imagePath).toBeUndefined();
    expect(r.warnings.map((w) => w.code)).toEqual(['NO_SIGNED_SAMPLES']);
    expect(existsSync(outputPath)).toBe(false);
  });

  it('writes a real 800 x 480 PNG chart with proud red and shy blue bars', async () => {
    const outputPath = join(dir, 'nested', 'shifted.png');
    const r = await histogram({ fromBodyId: 'shifted', referenceBodyId: 'cube', tolerance: 0.1, outputPath });
    expect(r.imagePath).toBe(outputPath);
    const bytes = readFileSync(outputPath);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const image = await loadImage(bytes);
    expect(image.width).toBe(CHART_WIDTH);
    expect(image.height).toBe(CHART_HEIGHT);
    const canvas = createCanvas(image.width, image.height);
    const g = canvas.getContext('2d');
    g.drawImage(image, 0, 0);
    const data = g.getImageData(0, 0, image.width, image.height).data;
    const count = (rgb: [number, number, number]) => {
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - rgb[0]) + Math.abs(data[i + 1]! - rgb[1]) + Math.abs(data[i + 2]! - rgb[2]) < 12) n++;
      return n;
    };
    // Both bar colours cover real areas (the two face bars at -0.3 and +0.3 are the tallest).
    expect(count(hexRgb(SHY_COLOR))).toBeGreaterThan(500);
    expect(count(hexRgb(PROUD_COLOR))).toBeGreaterThan(500);
  });

  it('bad input: INVALID_ARGUMENT for a negative tolerance, maxSamples 0, deflection 0; WRITE_FAILED for an unwritable path', async () => {
    const base = { fromBodyId: 'shifted', referenceBodyId: 'cube' };
    for (const bad of [{ tolerance: -1 }, { maxSamples: 0 }, { deflection: 0 }, { signMode: 'x' }, { outputPath: '' }, { toBodyId: 'cube' }]) {
      await expect(histogram({ ...base, ...bad })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
    await expect(histogram({ ...base, referenceBodyId: 'none' })).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
    const blocker = join(dir, 'file.png');
    await histogram({ ...base, outputPath: blocker, maxSamples: 500 });
    await expect(histogram({ ...base, outputPath: join(blocker, 'below.png'), maxSamples: 500 })).rejects.toMatchObject({ code: 'WRITE_FAILED' });
  });
});
