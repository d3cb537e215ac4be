import { describe, expect, it } from 'vitest';
import { testEngine } from '../../../test/testEngine';
import { MAX_COORDINATE } from './coordinateRange';

const b64 = (text: string): string => Buffer.from(text).toString('base64');
const triangleObj = (x: string): string => `v ${x} 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n`;
const cloud = (x: string): string => `${x} 0 0\n0 1 0\n0 0 1\n1 1 1\n`;

/**
 * Bad-input sweep: an OBJ vertex or a cloud point at 1e300 imported; display_mesh then gave null
 * positions (float32), and measure_deviation of the cloud answered with null max, rms and mean.
 */
describe('a mesh or scan coordinate past float32\'s range is refused at import', () => {
  it('OBJ, text points, ASCII STL at 1e300 or 1e39: PARSE_FAILED naming the value, and the scene as it was', async () => {
    const engine = testEngine();
    const stl = (x: string): string => `solid a\nfacet normal 0 0 1\nouter loop\nvertex ${x} 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid a\n`;
    for (const [fileName, text, what] of [
      ['far.obj', triangleObj('1e300'), "a vertex has x = 1.00e+300"],
      ['far.xyz', cloud('-1e39'), "a point has x = -1.00e+39"],
      ['far.stl', stl('4e38'), "a vertex has x = 4.00e+38"],
    ] as const) {
      await expect(engine.run('import_file', { bytes: b64(text), fileName })).rejects.toMatchObject({
        code: 'PARSE_FAILED',
        message: `${fileName}: ${what}, past ±3.4e38 (float32's range): no part or scan is that large; the file is damaged or in a wrong unit`,
      });
    }
    expect((await engine.run('list_bodies', {})).result).toEqual({ bodies: [] });
  });

  it('float32\'s largest value itself imports and displays as itself', async () => {
    const engine = testEngine();
    expect(MAX_COORDINATE).toBe(2 ** 128 - 2 ** 104);
    await engine.run('import_file', { bytes: b64(triangleObj(String(MAX_COORDINATE))), fileName: 'edge.obj', bodyId: 'edge' });
    const shown = (await engine.run('display_mesh', { bodyId: 'edge' })).result as { positions: ArrayLike<number> };
    expect(Array.from(shown.positions).map(Math.abs)).toContain(MAX_COORDINATE);
  });

  it('a unit\'s scaling is judged too: 1e37 inch is 2.54e38 mm, 2e37 inch is past the range', async () => {
    const engine = testEngine();
    await engine.run('import_file', { bytes: b64(cloud('1e37')), fileName: 'ok.xyz', unit: 'inch', bodyId: 'ok' });
    await expect(engine.run('import_file', { bytes: b64(cloud('2e37')), fileName: 'far.xyz', unit: 'inch' })).rejects.toMatchObject({
      code: 'PARSE_FAILED',
      message: "far.xyz: a point has x = 5.08e+38 (in millimetres), past ±3.4e38 (float32's range): no part or scan is that large; the file is damaged or in a wrong unit",
    });
  });
});
