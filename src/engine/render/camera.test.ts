import { describe, expect, it } from 'vitest';
import { fitCamera, projectPoint, VIEW_NAMES, viewBasis, type Vec3, type ViewName } from './camera';

const close = (a: Vec3, b: Vec3) => a.forEach((x, i) => expect(x).toBeCloseTo(b[i]!, 12));

describe('render camera', () => {
  it('orients the named views as the app viewer does (z up; top sees +Y up, bottom -Y up)', () => {
    const table: Record<string, [Vec3, Vec3, Vec3]> = {
      // look, screen right, screen up
      front: [[0, 1, 0], [1, 0, 0], [0, 0, 1]],
      back: [[0, -1, 0], [-1, 0, 0], [0, 0, 1]],
      right: [[-1, 0, 0], [0, 1, 0], [0, 0, 1]],
      left: [[1, 0, 0], [0, -1, 0], [0, 0, 1]],
      top: [[0, 0, -1], [1, 0, 0], [0, 1, 0]],
      bottom: [[0, 0, 1], [1, 0, 0], [0, -1, 0]],
    };
    for (const [name, [look, right, up]] of Object.entries(table)) {
      const b = viewBasis(name as ViewName);
      close(b.forward, look);
      close(b.right, right);
      close(b.up, up);
    }
    // iso looks from the front-right-top corner (1, -1.3, 0.9); its right is horizontal, its up leans to +Z.
    const iso = viewBasis('iso');
    const n = Math.hypot(1, -1.3, 0.9);
    close(iso.forward, [-1 / n, 1.3 / n, -0.9 / n]);
    close(iso.right, [1.3 / Math.hypot(1.3, 1), 1 / Math.hypot(1.3, 1), 0]);
    expect(iso.up[2]).toBeGreaterThan(0.8);
  });

  it('gives right-handed orthonormal frames for every view and for given directions', () => {
    const views = [...VIEW_NAMES, { direction: [1, 2, 3] as Vec3 }, { direction: [0, 0, -5] as Vec3 }, { direction: [0, 0, 2] as Vec3 }, { direction: [1, 1, 0] as Vec3, up: [0, 0, -1] as Vec3 }];
    for (const v of views) {
      const { forward: f, right: r, up: u } = viewBasis(v);
      for (const a of [f, r, u]) expect(Math.hypot(...a)).toBeCloseTo(1, 12);
      expect(f[0] * r[0] + f[1] * r[1] + f[2] * r[2]).toBeCloseTo(0, 12);
      expect(f[0] * u[0] + f[1] * u[1] + f[2] * u[2]).toBeCloseTo(0, 12);
      // right x up = -forward (toward the eye), as in a camera looking down its -z.
      close([r[1] * u[2] - r[2] * u[1], r[2] * u[0] - r[0] * u[2], r[0] * u[1] - r[1] * u[0]], [-f[0], -f[1], -f[2]]);
    }
    // A direction straight down or up without an up vector behaves like top and bottom.
    close(viewBasis({ direction: [0, 0, -5] }).up, [0, 1, 0]);
    close(viewBasis({ direction: [0, 0, 2] }).up, [0, -1, 0]);
    // A given up is projected onto the image plane.
    close(viewBasis({ direction: [0, 1, 0], up: [0, 1, 1] }).up, [0, 0, 1]);
  });

  it('rejects a zero direction and an up parallel to the direction', () => {
    expect(() => viewBasis({ direction: [0, 0, 0] })).toThrow(/render: the view direction/);
    expect(() => viewBasis({ direction: [1, 0, 0], up: [2, 0, 0] })).toThrow(/parallel/);
    expect(() => viewBasis('sideways' as never)).toThrow(/unknown view/);
  });

  it('fits a box seen from the front into the viewport with the margin, centred, one scale', () => {
    // Box [0,40] x [0,20] x [0,10]: seen from the front, 40 wide (x) and 10 high (z).
    const positions = Float64Array.from([0, 0, 0, 40, 20, 10, 40, 0, 0, 0, 20, 10]);
    const cam = fitCamera(positions, 'front', { x: 10, y: 50, width: 400, height: 300 });
    const pad = 0.06 * 300;
    expect(cam.scale).toBeCloseTo(Math.min((400 - 2 * pad) / 40, (300 - 2 * pad) / 10), 12);
    const [x0, y0] = projectPoint(cam, [0, 0, 0]);
    const [x1, y1] = projectPoint(cam, [40, 0, 10]);
    expect(x0).toBeCloseTo(10 + pad, 9);
    expect(x1).toBeCloseTo(410 - pad, 9);
    // Vertically centred: the 10 high box spans 10 x scale pixels around the viewport's middle row.
    expect((y0 + y1) / 2).toBeCloseTo(50 + 150, 9);
    expect(y0 - y1).toBeCloseTo(10 * cam.scale, 9);
    expect(cam.depthRange).toEqual([0, 20]);
    // Depth grows away from the eye: the back face (y = 20) is farther.
    expect(projectPoint(cam, [0, 20, 0])[2]).toBeGreaterThan(projectPoint(cam, [0, 0, 0])[2]);
  });

  it('fits only the vertices the triangles use when given indices, and survives a flat or point-like mesh', () => {
    const positions = Float64Array.from([0, 0, 0, 1, 0, 0, 0, 0, 1, 1000, 1000, 1000]);
    const cam = fitCamera(positions, 'front', { x: 0, y: 0, width: 100, height: 100 }, {}, Uint32Array.from([0, 1, 2]));
    expect(cam.scale).toBeCloseTo(88, 9);
    const flat = fitCamera(Float64Array.from([0, 0, 0, 5, 0, 0]), 'front', { x: 0, y: 0, width: 100, height: 100 });
    expect(flat.scale).toBeCloseTo(88 / 5, 9);
    expect(fitCamera(Float64Array.from([1, 2, 3]), 'top', { x: 0, y: 0, width: 100, height: 100 }).scale).toBe(1);
    expect(() => fitCamera(Float64Array.from([NaN, 0, 0]), 'top', { x: 0, y: 0, width: 100, height: 100 })).toThrow(/finite vertex coordinates/);
  });
});
