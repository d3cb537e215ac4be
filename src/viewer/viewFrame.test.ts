import { PerspectiveCamera, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { fieldHeightPx, fitDistance, frameCamera, freeRect } from './viewFrame';

describe('the frame the overlays leave free', () => {
  it('beside a tall legend: the strip on its left, a gap clear of it', () => {
    // 1440x900: a view of about 780 x 600, the legend 270 wide and 450 tall at its bottom right.
    const legend = { left: 780 - 10 - 270, top: 600 - 10 - 450, width: 270, height: 450 };
    expect(freeRect(780, 600, [legend])).toEqual({ left: 0, top: 0, width: 500 - 8, height: 600 });
  });

  it('over a short wide legend in a narrow view: the strip above it', () => {
    // 800x600: a view of 260 x 320, the folded legend 240 x 120.
    const legend = { left: 10, top: 190, width: 240, height: 120 };
    expect(freeRect(260, 320, [legend])).toEqual({ left: 0, top: 0, width: 260, height: 182 });
  });

  it('two covers: the largest square-ish rectangle clear of both; nothing covered or no room: the whole view', () => {
    const toolbar = { left: 10, top: 10, width: 300, height: 40 };
    const legend = { left: 500, top: 140, width: 270, height: 450 };
    expect(freeRect(780, 600, [toolbar, legend])).toEqual({ left: 0, top: 58, width: 492, height: 542 });
    expect(freeRect(780, 600, [])).toBeNull();
    // Off the view: ignored.
    expect(freeRect(780, 600, [{ left: 900, top: 0, width: 50, height: 50 }])).toBeNull();
    // Covering almost everything: what is left is no use, the whole view is used.
    expect(freeRect(260, 320, [{ left: 5, top: 40, width: 250, height: 270 }])).toBeNull();
  });

  it('a camera framed into the free rectangle and fit to a sphere draws the sphere inside it', () => {
    const W = 780, H = 600;
    const frame = { left: 0, top: 0, width: 492, height: 600 };
    for (const f of [frame, { left: 0, top: 0, width: 260, height: 182 }, { left: 120, top: 58, width: 400, height: 300 }]) {
      const camera = new PerspectiveCamera(40, W / H, 0.1, 1000);
      frameCamera(camera, W, H, f);
      expect(fieldHeightPx(camera, H)).toBe(f.height);
      const centre = new Vector3(3, -2, 5), radius = 7;
      const dir = new Vector3(1, -1.3, 0.9).normalize();
      camera.position.copy(centre).addScaledVector(dir, fitDistance(radius, camera.fov, camera.aspect));
      camera.up.set(0, 0, 1);
      camera.lookAt(centre);
      camera.updateMatrixWorld();
      // The sphere's centre at the frame's centre; every point of the sphere inside the frame.
      const c = centre.clone().project(camera);
      expect((c.x + 1) * (W / 2)).toBeCloseTo(f.left + f.width / 2, 6);
      expect((1 - c.y) * (H / 2)).toBeCloseTo(f.top + f.height / 2, 6);
      let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
      for (let i = 0; i < 2000; i++) {
        // Fibonacci sphere: points spread over the whole surface.
        const z = 1 - (2 * (i + 0.5)) / 2000, r = Math.sqrt(1 - z * z), phi = i * Math.PI * (3 - Math.sqrt(5));
        const p = new Vector3(r * Math.cos(phi), r * Math.sin(phi), z).multiplyScalar(radius).add(centre).project(camera);
        const x = (p.x + 1) * (W / 2), y = (1 - p.y) * (H / 2);
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
      expect(minX).toBeGreaterThan(f.left);
      expect(maxX).toBeLessThan(f.left + f.width);
      expect(minY).toBeGreaterThan(f.top);
      expect(maxY).toBeLessThan(f.top + f.height);
      // Tight: the sphere fills the frame's shorter side to within the 5 % margin.
      const span = Math.min(maxX - minX, maxY - minY) / Math.min(f.width, f.height);
      expect(span).toBeGreaterThan(0.9);
      frameCamera(camera, W, H, null);
      expect(camera.aspect).toBe(W / H);
      expect(camera.view?.enabled ?? false).toBe(false);
    }
  });
});
