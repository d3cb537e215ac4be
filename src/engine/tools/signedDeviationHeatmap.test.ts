import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { memoryFiles } from '../files';
import type { OC } from '../kernel';
import { projectPoint } from '../render/camera';
import { deviationColor } from '../render/heatColors';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { addOffsetSpheres } from '../../test/deviationFixtures';
import type { ToolContext } from './defineTool';
import { heatmapPictures, viewPath, type SignedHeatmapResult } from './signedDeviationHeatmap';

let oc: OC;
let engine: Engine;
let dir: string;
let ctx: ToolContext;
const heatmap = (args: object) => engine.runJson('signed_deviation_heatmap', args).then((r) => r.result as SignedHeatmapResult);

async function decode(png: Uint8Array) {
  const image = await loadImage(Buffer.from(png));
  const g = createCanvas(image.width, image.height).getContext('2d');
  g.drawImage(image, 0, 0);
  const data = g.getImageData(0, 0, image.width, image.height).data;
  return { width: image.width, height: image.height, at: (x: number, y: number) => [0, 1, 2].map((k) => data[4 * (Math.floor(y) * image.width + Math.floor(x)) + k]!) };
}
const near = (got: number[], want: readonly number[], tol: number) => got.forEach((c, k) => expect(Math.abs(c - want[k]!), `channel ${k}: got ${got}, want ${want}`).toBeLessThanOrEqual(tol));

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  addOffsetSpheres(oc, engine.scene);
  dir = mkdtempSync(join(tmpdir(), 'brepscope-heat-'));
  ctx = { scene: engine.scene, files: memoryFiles(), kernel: nodeKernel };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('signed_deviation_heatmap', () => {
  it('colours a +0.1 offset sphere with the legend colour of +0.1 at the image centre, and writes the same picture it draws', async () => {
    const args = { fromBodyId: 'proud', referenceBodyId: 'ref', views: ['front'], clamp: 0.2, tolerance: 0.02, deflection: 0.02 };
    const outputPath = join(dir, 'proud.png');
    const r = await heatmap({ ...args, outputPath });
    expect(r).toMatchObject({ outputPath, width: 800, height: 600, clamp: 0.2, tolerance: 0.02, bands: null, ambiguousVertices: 0, signMode: 'robust', surface: 'exact', mimeType: 'image/png' });
    // Display vertices lie on the r = 10.1 sphere: exactly 0.1 from the exact r = 10 reference.
    expect(r.signedMin!).toBeCloseTo(0.1, 7);
    expect(r.signedMax!).toBeCloseTo(0.1, 7);
    expect(r.images).toEqual([{ view: 'front', path: outputPath, width: 800, height: 600, labels: [] }]);

    const [picture] = (await heatmapPictures(ctx, { ...args, views: ['front'], size: [800, 600], signMode: 'robust', surface: 'exact' })).images;
    const png = new Uint8Array(readFileSync(outputPath));
    expect(Buffer.from(png).equals(Buffer.from(picture!.png))).toBe(true);
    const image = await decode(png);
    const { camera, legend } = picture!.info;
    // The sphere's front pole faces the eye: unshaded, the map's colour of +0.1 in [-0.2, 0.2] with a 0.02 band.
    const [cx, cy] = projectPoint(camera, [0, -10.1, 0]);
    const centre = image.at(cx, cy);
    near(centre, deviationColor(0.1, 0.2, 0.02), 2);
    // The legend bar at the row that reads +0.1 shows the same colour.
    const bar = legend!.bar;
    let row = bar.y;
    for (let y = bar.y; y < bar.y + bar.height; y++) if (Math.abs(legend!.valueAt(y) - 0.1) < Math.abs(legend!.valueAt(row) - 0.1)) row = y;
    near(image.at(bar.x + bar.width / 2, row), centre, 4);
  });

  it("follows the app's colour rule by default and colours a shy candidate blue", async () => {
    const outputPath = join(dir, 'shy.png');
    const args = { fromBodyId: 'shy', referenceBodyId: 'ref', views: ['top' as const], deflection: 0.02 };
    const r = await heatmap({ ...args, outputPath });
    // Every value -0.1: the 99th percentile is 0.1 and the default band 0.01, so -0.1 is the shy arm's end.
    expect(r.clamp).toBeCloseTo(0.1, 7);
    expect(r.tolerance).toBe(0.01);
    const [picture] = (await heatmapPictures(ctx, { ...args, size: [800, 600], signMode: 'robust', surface: 'exact' })).images;
    const [cx, cy] = projectPoint(picture!.info.camera, [0, 0, 9.9]);
    near((await decode(readFileSync(outputPath))).at(cx, cy), [5, 48, 97], 2);
  });

  it('writes one file per view beside the path, in the given size, and draws labels visible or hidden by the surface', async () => {
    const outputPath = join(dir, 'views.png');
    const r = await heatmap({
      fromBodyId: 'proud',
      referenceBodyId: 'ref',
      outputPath,
      views: ['front', 'back', { direction: [1, 1, -1], name: 'under' }],
      size: [400, 300],
      deflection: 0.02,
      labels: { points: [[0, -20, 0]] },
    });
    expect(r.images.map((i) => i.path)).toEqual(['front', 'back', 'under'].map((v) => viewPath(outputPath, v)));
    expect(r.images.map((i) => i.path)).toEqual(['views-front.png', 'views-back.png', 'views-under.png'].map((f) => join(dir, f)));
    expect(r.outputPath).toBe(r.images[0]!.path);
    for (const i of r.images) {
      const image = await decode(readFileSync(i.path));
      expect([image.width, image.height]).toEqual([400, 300]);
    }
    // The label at the front pole: seen from the front, behind the sphere from the back.
    expect(r.images.map((i) => i.labels)).toEqual([[{ number: 1, status: 'visible' }], [{ number: 1, status: 'occluded' }], [{ number: 1, status: 'visible' }]]);
    expect(r.labels![0]!.signed!).toBeCloseTo(0.1, 6);
    expect(Buffer.from(readFileSync(r.images[0]!.path)).equals(readFileSync(r.images[1]!.path))).toBe(false);
  });

  it('refuses bad arguments with INVALID_ARGUMENT and a missing body with BODY_NOT_FOUND', async () => {
    const base = { fromBodyId: 'proud', referenceBodyId: 'ref', outputPath: join(dir, 'bad.png') };
    for (const bad of [{ size: 4096 }, { size: [800, 10] }, { views: ['front', 'front'] }, { views: [{ direction: [0, 0, 0] }] }, { views: ['diagonal'] }, { bands: 1 }, { clamp: 0 }]) {
      await expect(heatmap({ ...base, ...bad }), JSON.stringify(bad)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
    await expect(heatmap({ ...base, referenceBodyId: 'nope' })).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
  });
});
