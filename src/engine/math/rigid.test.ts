import { describe, expect, it } from 'vitest';
import { axisAngle, compose, fromMatrix4, orthonormalized, toMatrix4, type Rigid } from './rigid';

/** A seeded motion: rotation about a random axis, translation up to 100. */
function motion(seed: number): Rigid {
  let s = seed;
  const rnd = () => ((s = (s * 16807) % 2147483647) / 2147483647);
  const axis = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
  const l = Math.hypot(...axis);
  return { r: axisAngle(axis.map((v) => v / l), rnd() * Math.PI), t: [100 * rnd(), -50 * rnd(), rnd()] };
}

const read = (m: Rigid) => fromMatrix4(toMatrix4(m)) as Rigid;

describe('fromMatrix4', () => {
  it('keeps a placement read back bit for bit: a rotation orthonormal to rounding is taken as given', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const once = read(motion(seed));
      expect(read(once)).toEqual(once);
      // A composition (set_placement with compose, an applied alignment) is stored unorthonormalized; it too reads back unchanged.
      const composed = compose(once, read(motion(seed + 1000)));
      expect(read(composed)).toEqual(composed);
    }
  });

  it('still makes a rotation that is off by more than rounding exactly orthonormal (a matrix typed with 9 digits)', () => {
    const m = toMatrix4(motion(7)).map((row) => row.map((v) => Number(v.toPrecision(9))));
    const r = fromMatrix4(m) as Rigid;
    expect(r).toEqual(orthonormalized({ r: [...m[0]!.slice(0, 3), ...m[1]!.slice(0, 3), ...m[2]!.slice(0, 3)], t: [m[0]![3]!, m[1]![3]!, m[2]![3]!] }));
    expect(r.r).not.toEqual([...m[0]!.slice(0, 3), ...m[1]!.slice(0, 3), ...m[2]!.slice(0, 3)]);
  });

  it('refuses what is not a rigid motion', () => {
    expect(fromMatrix4([[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0], [0, 0, 0, 1]])).toMatch(/not rigid motions/);
    expect(fromMatrix4([[-1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])).toMatch(/mirror/);
  });
});
