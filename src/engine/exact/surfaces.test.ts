import { describe, expect, it } from 'vitest';
import { evaluateSurface, projectElementary, type Surface } from './surfaces';

const frame = Float64Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1);
const footDistance = (s: Surface, p: [number, number, number], other = false): number | null => {
  const uv = new Float64Array(2);
  if (!projectElementary(s, ...p, 0, uv, other)) return null;
  const e = evaluateSurface(s, uv[0]!, uv[1]!, new Float64Array(18));
  return Math.hypot(e[0]! - p[0], e[1]! - p[1], e[2]! - p[2]);
};

describe('projectElementary: closed-form feet', () => {
  it('spindle torus (minor 2 > major 1): a point beside the axis is nearest the far circle (0.5), not the near one (1.5)', () => {
    const torus: Surface = { kind: 'torus', frame, major: 1, minor: 2 };
    // Meridian plane y = 0: circles of radius 2 about (1, 0, 0) and (-1, 0, 0); p = (0.5, 0, 0.3).
    const p: [number, number, number] = [0.5, 0, 0.3];
    const near = Math.abs(Math.hypot(0.5 - 1, 0.3) - 2), far = Math.abs(Math.hypot(0.5 + 1, 0.3) - 2);
    expect(far).toBeLessThan(near);
    expect(footDistance(torus, p)).toBeCloseTo(far, 12);
    expect(footDistance(torus, p, true)).toBeCloseTo(near, 12);
  });

  it('ring torus: the near circle, the far circle as the other minimum', () => {
    const torus: Surface = { kind: 'torus', frame, major: 5, minor: 1 };
    const p: [number, number, number] = [0, 3, 2];
    expect(footDistance(torus, p)).toBeCloseTo(Math.hypot(3 - 5, 2) - 1, 12);
    expect(footDistance(torus, p, true)).toBeCloseTo(Math.hypot(3 + 5, 2) - 1, 12);
  });

  it('cone: the mirrored line as the other minimum; planes, cylinders and spheres have none', () => {
    const a = Math.PI / 6;
    const cone: Surface = { kind: 'cone', frame, radius: 2, semiAngle: a };
    // Generators in the plane of p: lines through (+-2, 0) with direction (+-sin a, cos a); p = (3, 0, 1).
    const line = (x0: number, sx: number) => Math.abs((3 - x0) * Math.cos(a) - 1 * sx);
    expect(footDistance(cone, [3, 0, 1])).toBeCloseTo(line(2, Math.sin(a)), 12);
    expect(footDistance(cone, [3, 0, 1], true)).toBeCloseTo(line(-2, -Math.sin(a)), 12);
    for (const s of [{ kind: 'plane', frame }, { kind: 'cylinder', frame, radius: 1 }, { kind: 'sphere', frame, radius: 1 }] as Surface[]) {
      expect(footDistance(s, [3, 0, 1], true)).toBeNull();
    }
  });
});
