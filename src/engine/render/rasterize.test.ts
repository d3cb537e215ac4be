import { describe, expect, it } from 'vitest';
import { box, grid, seededRandom } from '../mesh/generators';
import { fitCamera, projectPoint, type View } from './camera';
import { AMBIGUOUS, deviationColor, NEUTRAL, NO_DATA } from './heatColors';
import { AMBIENT, DEFAULT_BASE_COLOR, DIFFUSE, rasterize, type Raster, type RasterColoring, type RasterMesh } from './rasterize';

const PLAIN: RasterColoring = { range: 0, tolerance: 0 };
const WHITE = [255, 255, 255];

function render(mesh: RasterMesh, view: View, width: number, height: number, coloring: RasterColoring = PLAIN, margin = 0.06, supersample = 1) {
  const camera = fitCamera(mesh.positions, view, { x: 30, y: 20, width, height }, { margin });
  const raster = rasterize(mesh, camera, coloring, { supersample, outline: null });
  return { camera, raster };
}

const pixel = (r: Raster, i: number, j: number) => [...r.rgba.subarray(4 * (j * r.width + i), 4 * (j * r.width + i) + 3)];
const covered = (r: Raster) => r.triangle.reduce((n, t) => n + (t >= 0 ? 1 : 0), 0);

describe('rasterizer', () => {
  it('covers exactly the pixel rectangle of a box seen from the front (pixel centres inside the projected face)', () => {
    // Box [0,40] x [0,20] x [0,11]: 400 x 300 with a 6% margin gives 9.1 px per unit, so no pixel
    // centre falls on an edge of the projected front face (x in [0, 40], z in [0, 11]).
    const mesh = box([0, 0, 0], [40, 20, 11], 3);
    const { camera, raster } = render(mesh, 'front', 400, 300);
    expect(camera.scale).toBeCloseTo((400 - 2 * 18) / 40, 12);
    const [xl, yb] = projectPoint(camera, [0, 0, 0]);
    const [xr, yt] = projectPoint(camera, [40, 0, 11]);
    let inside = 0, nearEdge = 0;
    const wrong: string[] = [];
    for (let j = 0; j < raster.height; j++) {
      for (let i = 0; i < raster.width; i++) {
        // Image pixel centre (the viewport starts at (30, 20)).
        const cx = 30 + i + 0.5, cy = 20 + j + 0.5;
        const dIn = Math.min(cx - xl, xr - cx, cy - yt, yb - cy);
        if (Math.abs(dIn) < 0.01) nearEdge++;
        if (dIn > 0) inside++;
        // Face-on: the headlight gives the base colour exactly.
        const want = dIn > 0 ? DEFAULT_BASE_COLOR : WHITE;
        if (pixel(raster, i, j).some((c, k) => c !== want[k])) wrong.push(`${i},${j}`);
      }
    }
    expect(nearEdge).toBe(0);
    expect(wrong.slice(0, 5)).toEqual([]);
    // x from 30 + 18 to 30 + 382, z from 20 + 150 -+ 50.05 in image pixels: columns 48..411, rows 120..219.
    expect([xl, xr, yt, yb].map((v) => Math.round(v * 100) / 100)).toEqual([48, 412, 119.95, 220.05]);
    expect(inside).toBe(364 * 100);
    expect(covered(raster)).toBe(inside);
  });

  it('draws an open surface from both sides, shaded by |n . view| (ambient plus headlight)', () => {
    const sheet = grid(6, 10); // z = 0, normal +z
    for (const view of ['top', 'bottom'] as const) {
      const { raster } = render(sheet, view, 200, 200);
      // 10 units in 200 px less a 12 px margin on each side: 176 x 176 pixels.
      expect(covered(raster)).toBe(176 * 176);
      expect(pixel(raster, 100, 100)).toEqual([...DEFAULT_BASE_COLOR]);
    }
    // Seen 60 degrees off its normal, from above and from below: light = ambient + diffuse x 0.5.
    const light = AMBIENT + DIFFUSE * 0.5;
    const expected = DEFAULT_BASE_COLOR.map((c) => Math.round(c * light));
    for (const dz of [-0.5, 0.5]) {
      const { raster } = render(sheet, { direction: [0, Math.sqrt(3) / 2, dz] }, 200, 200);
      expect(pixel(raster, 100, 100)).toEqual(expected);
    }
  });

  it('leaves no crack and draws no sample twice along shared edges, even through sample centres', () => {
    // A square [0,10]^2 at 10 px per unit: its diagonal passes exactly through pixel centres.
    const positions = Float64Array.from([0, 0, 0, 10, 0, 0, 10, 10, 0, 0, 10, 0]);
    const a = { positions, indices: Uint32Array.from([0, 1, 2]) };
    const b = { positions, indices: Uint32Array.from([0, 2, 3]) };
    const both = { positions, indices: Uint32Array.from([0, 1, 2, 0, 2, 3]) };
    const count = (m: RasterMesh) => covered(render(m, 'top', 100, 100, PLAIN, 0).raster);
    expect(count(both)).toBe(100 * 100);
    expect(count(a) + count(b)).toBe(100 * 100);

    // A jittered grid: every interior sample covered.
    const sheet = grid(30, 10);
    const random = seededRandom(7);
    for (let v = 0; v < sheet.positions.length / 3; v++) {
      const x = sheet.positions[3 * v]!, y = sheet.positions[3 * v + 1]!;
      if (x > 0 && x < 10 && y > 0 && y < 10) {
        sheet.positions[3 * v] = x + (random() - 0.5) * 0.2;
        sheet.positions[3 * v + 1] = y + (random() - 0.5) * 0.2;
      }
    }
    expect(covered(render(sheet, 'top', 97, 97, PLAIN, 0, 2).raster)).toBe(97 * 97 * 4);
  });

  it('keeps the nearest surface whatever the triangle order', () => {
    // Two squares over [0,1]^2: z = 0 valued +1 (proud) and z = 1 valued -1 (shy). From the top, z = 1 is nearer.
    const positions = Float64Array.from([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]);
    const values = Float32Array.from([1, 1, 1, 1, -1, -1, -1, -1]);
    const shy = deviationColor(-1, 1, 0).map(Math.round);
    const proud = deviationColor(1, 1, 0).map(Math.round);
    for (const order of [[0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7], [4, 5, 6, 4, 6, 7, 0, 1, 2, 0, 2, 3]]) {
      const mesh = { positions, indices: Uint32Array.from(order) };
      expect(pixel(render(mesh, 'top', 50, 50, { values, range: 1, tolerance: 0 }).raster, 25, 25)).toEqual(shy);
      expect(pixel(render(mesh, 'bottom', 50, 50, { values, range: 1, tolerance: 0 }).raster, 25, 25)).toEqual(proud);
    }
  });

  it('interpolates values, then maps them: the tolerance band ends on the exact pixel column', () => {
    // A strip x in [0,10], y in [0,1], value -1 at x = 0 rising linearly to +1 at x = 10.
    const positions = Float64Array.from([0, 0, 0, 10, 0, 0, 10, 1, 0, 0, 1, 0]);
    const mesh = { positions, indices: Uint32Array.from([0, 1, 2, 0, 2, 3]) };
    const values = Float32Array.from([-1, 1, 1, -1]);
    // 400 x 40 pixels with no margin: 40 px per unit; column i's centre is at x = (i + 0.5) / 40.
    const { raster } = render(mesh, 'top', 400, 40, { values, range: 1, tolerance: 0.25 }, 0);
    for (let i = 0; i < 400; i++) {
      const v = -1 + (i + 0.5) / 200;
      const got = pixel(raster, i, 20);
      // |v| <= 0.25 exactly for columns 150..249: neutral, with no blend at the band's edges.
      if (i >= 150 && i <= 249) expect(got).toEqual([...NEUTRAL]);
      else {
        const want = deviationColor(v, 1, 0.25);
        got.forEach((c, k) => expect(Math.abs(c - want[k]!)).toBeLessThanOrEqual(1));
        expect(got).not.toEqual([...NEUTRAL]);
      }
    }
  });

  it('gives a sample the class of its nearest corner: ambiguous and no-data corners show as crisp regions', () => {
    // One triangle (0,0) (10,0) (0,10), 10 px per unit; corner 2 (top left in the image... y up) is NaN.
    const positions = Float64Array.from([0, 0, 0, 10, 0, 0, 0, 10, 0]);
    const mesh = { positions, indices: Uint32Array.from([0, 1, 2]) };
    const values = Float32Array.from([0.5, 0.5, NaN]);
    const { camera, raster } = render(mesh, 'top', 100, 100, { values, range: 1, tolerance: 0 }, 0);
    const at = (x: number, y: number) => {
      const [px, py] = projectPoint(camera, [x, y, 0]);
      return pixel(raster, Math.floor(px - 30), Math.floor(py - 20));
    };
    const half = deviationColor(0.5, 1, 0).map(Math.round);
    expect(at(1, 8)).toEqual([...AMBIGUOUS]); // nearest corner is the NaN one
    expect(at(2, 2)).toEqual(half); // the others: their value (ambiguous corner ignored)
    expect(at(6, 1)).toEqual(half);
    const noData = Uint8Array.from([0, 1, 0]);
    const flagged = render(mesh, 'top', 100, 100, { values, noData, range: 1, tolerance: 0 }, 0).raster;
    const [px, py] = projectPoint(camera, [8, 1, 0]);
    expect(pixel(flagged, Math.floor(px - 30), Math.floor(py - 20))).toEqual([...NO_DATA]);
  });

  it('is deterministic: the same input gives the same bytes', () => {
    const mesh = box([0, 0, 0], [3, 2, 1], 5);
    const values = Float32Array.from({ length: mesh.positions.length / 3 }, (_, v) => Math.sin(v) * 0.3);
    const one = render(mesh, 'iso', 320, 240, { values, range: 0.25, tolerance: 0.05 }, 0.06, 2).raster;
    const two = render(mesh, 'iso', 320, 240, { values, range: 0.25, tolerance: 0.05 }, 0.06, 2).raster;
    expect(Buffer.from(one.rgba).equals(Buffer.from(two.rgba))).toBe(true);
    expect(one.drawnTriangles).toBe(two.drawnTriangles);
  });

  it('rejects malformed meshes and colourings with a message naming the problem', () => {
    const mesh = { positions: Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: Uint32Array.from([0, 1, 3]) };
    const camera = fitCamera(mesh.positions, 'top', { x: 0, y: 0, width: 10, height: 10 });
    expect(() => rasterize(mesh, camera, PLAIN)).toThrow(/index 3 .* out of range/);
    const ok = { ...mesh, indices: Uint32Array.from([0, 1, 2]) };
    expect(() => rasterize(ok, camera, { values: new Float32Array(2), range: 1, tolerance: 0 })).toThrow(/one per vertex/);
    expect(() => rasterize(ok, camera, { range: -1, tolerance: 0 })).toThrow(/range/);
    expect(() => rasterize(ok, camera, PLAIN, { supersample: 4 })).toThrow(/supersample/);
  });
});
