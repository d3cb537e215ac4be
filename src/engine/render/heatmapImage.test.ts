import { createCanvas, loadImage } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeCanvas } from '../../node/nodeCanvas';
import { box, uvSphere } from '../mesh/generators';
import type { CalloutLabel } from './callouts';
import { projectPoint } from './camera';
import { createSurface, type DrawingSurface } from './canvas';
import { deviationColor, NEUTRAL } from './heatColors';
import { drawHeatmap, renderHeatmapPng, type HeatmapImageInput } from './heatmapImage';
import { DEFAULT_BASE_COLOR } from './rasterize';

beforeAll(() => useNodeCanvas());

async function decode(png: Uint8Array) {
  const image = await loadImage(Buffer.from(png));
  const g = createCanvas(image.width, image.height).getContext('2d');
  g.drawImage(image, 0, 0);
  const data = g.getImageData(0, 0, image.width, image.height).data;
  return {
    width: image.width,
    height: image.height,
    at: (x: number, y: number) => {
      const o = 4 * (Math.floor(y) * image.width + Math.floor(x));
      return [data[o]!, data[o + 1]!, data[o + 2]!];
    },
  };
}

/** A Node surface whose context also records every string drawn with fillText. */
function recordingSurface(width: number, height: number): DrawingSurface & { texts: string[] } {
  const surface = createSurface(width, height);
  const texts: string[] = [];
  const real = surface.context as unknown as Record<string | symbol, unknown>;
  const context = new Proxy(real, {
    get(target, prop) {
      const v = target[prop];
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (prop === 'fillText') texts.push(String(args[0]));
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
    set(target, prop, value) {
      target[prop] = value;
      return true;
    },
  }) as unknown as DrawingSurface['context'];
  return { ...surface, context, texts };
}

const near = (got: number[], want: readonly number[], tol: number) => got.forEach((c, k) => expect(Math.abs(c - want[k]!), `channel ${k}: got ${got}, want ${want}`).toBeLessThanOrEqual(tol));

// A sphere of radius 10 standing for the candidate of an offset-sphere pair (reference radius 9.9:
// every candidate vertex is 0.1 proud).
const sphere = uvSphere(10, 192, 96);
const vertexCount = sphere.positions.length / 3;
const offsetValues = new Float32Array(vertexCount).fill(0.1);

describe('heat-map picture', () => {
  it('colours an offset-sphere comparison as the map says at the image centre, and the legend shows the range', async () => {
    const surface = recordingSurface(800, 600);
    const info = drawHeatmap(surface, { mesh: sphere, values: offsetValues, range: 0.2, tolerance: 0.02, view: 'front', units: 'mm', title: 'offset sphere' });
    const image = await decode(await surface.toPng());
    // +0.1 in [-0.2, 0.2] with a 0.02 band: t = 4/9 along the proud arm, a third of the way from
    // RdBu stop (239, 138, 98) to (178, 24, 43): (218.7, 100, 79.7). Face-on at the centre: unshaded.
    near(image.at(info.camera.cx, info.camera.cy), [219, 100, 80], 1);
    // The legend: +0.2 at the top of the bar, -0.2 at the bottom, the neutral band in the middle.
    const bar = info.legend!.bar;
    expect(info.legend!.valueAt(bar.y)).toBeCloseTo(0.2, 2);
    expect(info.legend!.valueAt(bar.y + bar.height - 1)).toBeCloseTo(-0.2, 2);
    const mid = bar.x + bar.width / 2;
    near(image.at(mid, bar.y + 2), [103, 0, 31], 12); // the proud arm's end
    near(image.at(mid, bar.y + bar.height - 3), [5, 48, 97], 12); // the shy arm's end
    near(image.at(mid, bar.y + bar.height / 2), NEUTRAL, 0);
    for (const text of ['+0.200', '\u22120.200', '0.000', '+0.020', '\u22120.020', 'within \u00b10.020', 'mm', 'data max +0.100', 'data min +0.100', 'offset sphere']) expect(surface.texts).toContain(text);
    expect(info.colors).toEqual({ range: 0.2, tolerance: 0.02, steps: null });
  });

  it('uses the app range rule and default tolerance when none is given', async () => {
    const { png, info } = await renderHeatmapPng({ mesh: sphere, values: offsetValues, view: 'front' });
    // Every |value| is 0.1: the 99th percentile is 0.1, the default tolerance 0.01, so +0.1 is the proud arm's end.
    expect(info.colors).toEqual({ range: expect.closeTo(0.1, 7), tolerance: 0.01, steps: null });
    near((await decode(png)).at(info.camera.cx, info.camera.cy), [103, 0, 31], 1);
  });

  it('follows a known gradient: value 0.02 z, neutral on the equator, proud above, shy below', async () => {
    const values = Float32Array.from({ length: vertexCount }, (_, v) => 0.02 * sphere.positions[3 * v + 2]!);
    const { png, info } = await renderHeatmapPng({ mesh: sphere, values, range: 0.2, tolerance: 0.02, view: 'front' });
    const image = await decode(png);
    near(image.at(info.camera.cx, info.camera.cy), NEUTRAL, 1);
    for (const z of [6, -6, 8.5]) {
      // From the front, the image's vertical is z: the value at a pixel row is 0.02 z exactly
      // (interpolation is exact for a linear field); the facet there faces the eye at |n . view| = sqrt(1 - (z/10)^2).
      const [px, py] = projectPoint(info.camera, [0, -Math.sqrt(100 - z * z), z]);
      const light = 0.55 + 0.45 * Math.sqrt(1 - (z / 10) ** 2);
      near(image.at(px, py), deviationColor(0.02 * z, 0.2, 0.02).map((c) => c * light), 3);
    }
  });

  it('covers the expected pixel rectangle with a box seen from the front, below the title and beside nothing', async () => {
    const mesh = box([0, 0, 0], [40, 20, 11], 2);
    const { png, info } = await renderHeatmapPng({ mesh, view: 'front', width: 400, height: 300, title: 'box', axes: false });
    expect(info.legend).toBeNull();
    expect(info.viewport.y).toBeGreaterThan(0); // the title band
    expect(info.viewport.width).toBe(400);
    const [xl, yb] = projectPoint(info.camera, [0, 0, 0]);
    const [xr, yt] = projectPoint(info.camera, [40, 0, 11]);
    // The fit: the 40 x 11 face in the viewport with a 6% margin, one scale, centred.
    const pad = 0.06 * Math.min(info.viewport.width, info.viewport.height);
    expect(info.scale).toBeCloseTo(Math.min((400 - 2 * pad) / 40, (info.viewport.height - 2 * pad) / 11), 9);
    expect((xl + xr) / 2).toBeCloseTo(200, 9);
    expect((yt + yb) / 2).toBeCloseTo(info.viewport.y + info.viewport.height / 2, 9);
    const image = await decode(png);
    let inside = 0;
    const wrong: string[] = [];
    for (let y = info.viewport.y; y < 300; y++) {
      for (let x = 0; x < 400; x++) {
        const d = Math.min(x + 0.5 - xl, xr - x - 0.5, y + 0.5 - yt, yb - y - 0.5);
        // Two pixels off the edge either way: the silhouette and the supersampled edge are in between.
        const want = d > 2 ? DEFAULT_BASE_COLOR : d < -2 ? [255, 255, 255] : null;
        if (d > 2) inside++;
        if (want && image.at(x, y).some((c, k) => c !== want[k])) wrong.push(`${x},${y}: ${image.at(x, y)}`);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    // Whole numbers strictly between lo and hi.
    const between = (lo: number, hi: number) => Math.ceil(hi) - Math.floor(lo) - 1;
    expect(inside).toBe(between(xl + 1.5, xr - 2.5) * between(yt + 1.5, yb - 2.5));
  });

  it('is deterministic: the same input gives the same PNG bytes', async () => {
    const input: HeatmapImageInput = {
      mesh: sphere,
      values: Float32Array.from({ length: vertexCount }, (_, v) => 0.3 * Math.sin(sphere.positions[3 * v]!) * (v % 97 === 0 ? NaN : 1)),
      view: { direction: [1, 2, -0.5] },
      title: 'determinism',
      caption: 'same input, same bytes',
      labels: [
        { number: 1, point: [10, 0, 0], text: 'one' },
        { number: 2, point: [-10, 0, 0], text: 'two' },
      ],
    };
    const a = await renderHeatmapPng(input);
    const b = await renderHeatmapPng(input);
    expect(Buffer.from(a.png).equals(Buffer.from(b.png))).toBe(true);
    expect(a.info.labels).toEqual(b.info.labels);
  });

  it('marks callouts whose point a surface hides, hides them on request, and reports points off the picture', async () => {
    const labels: CalloutLabel[] = [
      { number: 1, point: [0, -10, 0], text: 'front pole' },
      { number: 2, point: [-4, Math.sqrt(75), 3], text: 'on the back' },
      // 0.05 inside the front surface: within the default depth tolerance (0.5% of the 34.6 diagonal).
      { number: 3, point: [3, -Math.sqrt(91) + 0.05, 0], text: 'just under the skin' },
      { number: 4, point: [100, 0, 0], text: 'far away' },
    ];
    const surface = recordingSurface(800, 600);
    const info = drawHeatmap(surface, { mesh: sphere, values: offsetValues, range: 0.2, tolerance: 0.02, view: 'front', labels });
    expect(info.labels.map((l) => l.status)).toEqual(['visible', 'occluded', 'visible', 'outside']);
    expect(info.labels.map((l) => l.box !== null)).toEqual([true, true, true, false]);
    expect(surface.texts).toContain('label hidden');
    const image = await decode(await surface.toPng());
    // A visible point's marker is a filled dark dot; a hidden one's is a hollow dashed ring.
    const [v, h] = [info.labels[0]!.anchor, info.labels[1]!.anchor];
    expect(Math.max(...image.at(v[0], v[1]))).toBeLessThan(60);
    expect(Math.min(...image.at(h[0], h[1]))).toBeGreaterThan(150);

    const hidden = await renderHeatmapPng({ mesh: sphere, values: offsetValues, view: 'front', labels, occludedLabels: 'hide' });
    expect(hidden.info.labels.map((l) => [l.status, l.box !== null])).toEqual([
      ['visible', true],
      ['occluded', false],
      ['visible', true],
      ['outside', false],
    ]);
    // The back pole is visible from the back.
    const back = await renderHeatmapPng({ mesh: sphere, values: offsetValues, view: 'back', labels: labels.slice(0, 2) });
    expect(back.info.labels.map((l) => l.status)).toEqual(['occluded', 'visible']);
  });

  it('places label boxes apart from each other, off every marker, inside the picture', async () => {
    const labels: CalloutLabel[] = [];
    for (let i = 0; i < 14; i++) {
      const a = (2 * Math.PI * i) / 14, z = 8 * Math.sin(3 * a);
      const r = Math.sqrt(100 - z * z);
      labels.push({ number: i + 1, point: [r * Math.cos(a) * 0.7, -Math.sqrt(Math.max(0, 100 - z * z - (r * Math.cos(a) * 0.7) ** 2)), z], text: `${(0.01 * i).toFixed(3)} mm\nlabel ${i + 1}`, value: 0.01 * i });
    }
    const { png, info } = await renderHeatmapPng({ mesh: sphere, values: offsetValues, range: 0.2, view: 'front', labels, title: 'many labels' });
    const boxes = info.labels.map((l) => l.box!);
    expect(info.labels.every((l) => l.status === 'visible')).toBe(true);
    for (let i = 0; i < boxes.length; i++) {
      const b = boxes[i]!;
      expect(b.x).toBeGreaterThanOrEqual(info.viewport.x);
      expect(b.y).toBeGreaterThanOrEqual(info.viewport.y);
      expect(b.x + b.width).toBeLessThanOrEqual(info.viewport.x + info.viewport.width);
      expect(b.y + b.height).toBeLessThanOrEqual(info.viewport.y + info.viewport.height);
      for (let j = 0; j < boxes.length; j++) {
        const o = boxes[j]!;
        if (j > i) expect(b.x + b.width <= o.x || o.x + o.width <= b.x || b.y + b.height <= o.y || o.y + o.height <= b.y, `boxes ${i + 1} and ${j + 1} overlap`).toBe(true);
        const [ax, ay] = info.labels[j]!.anchor;
        expect(ax >= b.x && ax <= b.x + b.width && ay >= b.y && ay <= b.y + b.height, `box ${i + 1} covers point ${j + 1}`).toBe(false);
      }
    }
    expect((await decode(png)).width).toBe(800);
  });

  it('draws an all-ambiguous field grey with a zero range, and skips vertices without coordinates', async () => {
    const values = new Float32Array(vertexCount).fill(NaN);
    const surface = recordingSurface(640, 480);
    const info = drawHeatmap(surface, { mesh: sphere, values, view: 'front' });
    expect(info.colors).toEqual({ range: 0, tolerance: 0, steps: null });
    near((await decode(await surface.toPng())).at(info.camera.cx, info.camera.cy), [128, 128, 128], 1);
    expect(surface.texts).toContain('ambiguous sign');
    expect(surface.texts.some((t) => t.startsWith('data max'))).toBe(false);
    // A NaN vertex: the camera fits the others, its triangles cover nothing.
    const positions = Float64Array.from(sphere.positions);
    positions[3 * 5] = NaN;
    const holed = await renderHeatmapPng({ mesh: { positions, indices: sphere.indices }, view: 'front' });
    const intact = await renderHeatmapPng({ mesh: sphere, view: 'front' });
    let around = 0;
    for (let i = 0; i < sphere.indices.length; i++) if (sphere.indices[i] === 5) around++;
    expect(around).toBe(5);
    expect(intact.info.drawnTriangles - holed.info.drawnTriangles).toBe(around);
    expect(holed.info.scale).toBe(intact.info.scale);
  });

  it('renders 2048 px pictures (one sample per pixel) and refuses larger ones', async () => {
    const { png, info } = await renderHeatmapPng({ mesh: sphere, values: offsetValues, range: 0.2, tolerance: 0.02, view: 'front', width: 2048, height: 2048 });
    const image = await decode(png);
    expect([image.width, image.height]).toEqual([2048, 2048]);
    expect(info.supersample).toBe(1);
    near(image.at(info.camera.cx, info.camera.cy), [219, 100, 80], 1);
    expect(info.legend!.valueAt(info.legend!.bar.y)).toBeCloseTo(0.2, 2);
    await expect(renderHeatmapPng({ mesh: sphere, width: 4096, height: 600 })).rejects.toThrow(/width must be an integer from 64 to 2048/);
    await expect(renderHeatmapPng({ mesh: { positions: new Float64Array(9), indices: new Uint32Array(0) } })).rejects.toThrow(/no triangles/);
  });
});
