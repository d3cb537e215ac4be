import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { BrepscopeError } from '../engine/errors';
import { setImportMemoryBudget } from '../engine/scene/import/importLimits';
import { parseObj } from '../engine/scene/import/obj';
import { parsePly } from '../engine/scene/import/ply';
import { parsePointText } from '../engine/scene/import/pointText';
import { parse3mf } from '../engine/scene/import/threeMf';
import { validateBrepText } from '../engine/scene/import/validateBrep';
import { validateStep } from '../engine/scene/import/validateStep';

// Issue 35, items 2 to 4: parsers strict where the format is, messages bounded, and a reader's
// expanded size checked against the memory ceiling before it allocates.

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

function failure(work: () => unknown): { code: string; message: string } {
  try {
    work();
  } catch (e) {
    if (e instanceof BrepscopeError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected a BrepscopeError');
}

const model = (resources: string, build: string, unit = 'millimeter'): Uint8Array =>
  zipSync({ '3D/3dmodel.model': strToU8(`<model unit="${unit}"><resources>${resources}</resources><build>${build}</build></model>`) });
const TRIANGLE = '<object id="1"><mesh><vertices><vertex x="0" y="0" z="0"/><vertex x="1" y="0" z="0"/><vertex x="0" y="1" z="0"/></vertices><triangles><triangle v1="0" v2="1" v3="2"/></triangles></mesh></object>';

describe('issue 35: every polygon corner is checked', () => {
  it("OBJ 'f 1 2 3 99' (the bad index in the 4th corner or later) is PARSE_FAILED naming it, not vertex 0", () => {
    const square = 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n';
    for (const face of ['f 1 2 3 99', 'f 1 2 3 4 99', 'f 99 1 2 3']) {
      const f = failure(() => parseObj(text(`${square}${face}\n`), 'bad.obj'));
      expect(f, face).toEqual({ code: 'PARSE_FAILED', message: 'bad.obj: line 5: face index 99 refers to no vertex (the file defines 4)' });
    }
    // A forward reference resolved later in the file is still fine, in any corner.
    const ok = parseObj(text('v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3 4\nv 0 1 0\n'), 'fwd.obj');
    expect(ok.kind === 'mesh' && [...ok.mesh.indices]).toEqual([0, 1, 2, 0, 2, 3]);
  });
});

describe('issue 35: unknown 3MF units are refused, never looked up on a prototype', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'parsec'])("unit '%s' is PARSE_FAILED", (unit) => {
    const f = failure(() => parse3mf(model(TRIANGLE, '<item objectid="1"/>', unit), 'u.3mf'));
    expect(f.code).toBe('PARSE_FAILED');
    expect(f.message).toContain(`unknown 3MF unit '${unit}'`);
  });

  it('the known units still scale to millimetres (inch: 25.4)', () => {
    const { mesh } = parse3mf(model(TRIANGLE, '<item objectid="1"/>', 'inch'), 'in.3mf');
    expect([...mesh.positions]).toEqual([0, 0, 0, 25.4, 0, 0, 0, 25.4, 0]);
  });
});

describe('issue 35: non-finite transforms and numbers are coded errors', () => {
  it('3MF: 1e308 transforms whose composition overflows are PARSE_FAILED; 1e400 in a transform too', () => {
    const big = '1e308 0 0 0 1e308 0 0 0 1e308 0 0 0';
    const nested = `${TRIANGLE}<object id="2"><components><component objectid="1" transform="${big}"/></components></object>`;
    expect(failure(() => parse3mf(model(nested, `<item objectid="2" transform="${big}"/>`), 'o.3mf')).message).toContain('o.3mf: the placement of object 1 overflows');
    // One finite transform times finite vertices past the double range.
    const far = TRIANGLE.replace('x="1"', 'x="1e300"');
    expect(failure(() => parse3mf(model(far, '<item objectid="1" transform="1e10 0 0 0 1 0 0 0 1 0 0 0"/>'), 'f.3mf'))).toEqual({
      code: 'PARSE_FAILED',
      message: 'f.3mf: object 1: vertex 1 placed at a non-finite position (the transform overflows)',
    });
    expect(failure(() => parse3mf(model(TRIANGLE, '<item objectid="1" transform="1e400 0 0 0 1 0 0 0 1 0 0 0"/>'), 'i.3mf')).code).toBe('PARSE_FAILED');
  });

  it("STEP: a real '1e400' (or -1.E+999) is PARSE_FAILED naming it; 1e300 and names with digits pass", () => {
    const stepText = (value: string): string =>
      `ISO-10303-21;\nHEADER;\nFILE_NAME('a');\nENDSEC;\nDATA;\n#1=CARTESIAN_POINT('p1e400',(0.,${value},2.5E-3));\n#2=AXIS2_PLACEMENT_3D('',#1,$,$);\nENDSEC;\nEND-ISO-10303-21;\n`;
    const step = (value: string): Uint8Array => text(stepText(value));
    expect(failure(() => validateStep(step('1e400'), 's.step'))).toEqual({
      code: 'PARSE_FAILED',
      message: `s.step: line 6: '1e400' at byte ${stepText('1e400').indexOf('0.,1e400') + 3} is not a finite number (not a readable STEP file: corrupt or truncated)`,
    });
    expect(failure(() => validateStep(step('-1.E+999'), 's.step')).message).toContain(`'1.E+999' at byte ${stepText('-1.E+999').indexOf('1.E+999')} is not a finite number`);
    expect(() => validateStep(step('1.E300'), 's.step')).not.toThrow();
  });

  it('PLY: 1e400 in a coordinate is PARSE_FAILED (not a finite number), not an infinite vertex', () => {
    const ply = 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n1 1e400 0\n0 1 0\n';
    expect(failure(() => parsePly(text(ply), 'big.ply'))).toEqual({ code: 'PARSE_FAILED', message: `big.ply: line 9: vertex 1: '1e400' is not a finite number (y) at byte ${ply.indexOf('1e400')}` });
  });
});

describe('issue 35: a bad token is quoted to at most 80 characters, with its offset', () => {
  const long = 'Z'.repeat(1_000_000);
  // The file's text; the offset expected is where the long token (the last one, for the header) starts in it.
  const cases: [string, string, (bytes: Uint8Array) => unknown, number?][] = [
    ['XYZ', `1 2 3\n4 ${long} 6\n`, (b) => parsePointText(b, 'big.xyz')],
    ['XYZ header', `${long}\n${long}\n${long}\n${long}\n${long}\n${long}\n`, (b) => parsePointText(b, 'head.xyz'), 5 * (long.length + 1)],
    ['OBJ vertex', `v 0 ${long} 0\n`, (b) => parseObj(b, 'big.obj')],
    ['OBJ face', `v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 ${long}\n`, (b) => parseObj(b, 'face.obj')],
    ['PLY', `ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 ${long} 0\n`, (b) => parsePly(b, 'big.ply')],
    ['BREP', `${long}\n`, (b) => validateBrepText(b, 'big.brep')],
  ];
  it.each(cases)('%s: the message quotes 80 characters, the token length and its byte', (_what, input, read, at) => {
    const offset = at ?? input.indexOf('Z');
    const f = failure(() => read(text(input)));
    expect(f.code).toBe('PARSE_FAILED');
    expect(f.message.length).toBeLessThan(400);
    expect(f.message).toContain(`'${'Z'.repeat(80)}…' (1000000 bytes)`);
    expect(f.message).toContain(`at byte ${offset}`);
  });

  it('a sparse file (NUL bytes, no newline) is a coded error with a short message, not a RangeError', () => {
    const f = failure(() => parsePointText(new Uint8Array(8 * 2 ** 20), 'sparse.xyz'));
    expect(f).toEqual({ code: 'EMPTY_MESH', message: 'sparse.xyz: the file has no lines of x y z numbers' });
  });
});

describe('issue 35: a reader checks its expanded size against the memory ceiling before allocating', () => {
  /** Objects 2..depth+1 each place the one below twice: 2^depth triangles from a few KB. */
  function fanOut(depth: number): Uint8Array {
    let resources = TRIANGLE;
    for (let k = 2; k <= depth + 1; k++) {
      resources += `<object id="${k}"><components><component objectid="${k - 1}"/><component objectid="${k - 1}" transform="1 0 0 0 1 0 0 0 1 1 0 0"/></components></object>`;
    }
    return model(resources, `<item objectid="${depth + 1}"/>`);
  }

  function withBudget<T>(mib: number, work: () => T): T {
    setImportMemoryBudget(mib * 2 ** 20, `--max-memory ${mib}`);
    try {
      return work();
    } finally {
      setImportMemoryBudget(Number.POSITIVE_INFINITY, '');
    }
  }

  it('3MF fan-out depth 40 (2^40 triangles, under 10 KB): FILE_TOO_LARGE naming the expanded count, at once', () => {
    const bytes = fanOut(40);
    expect(bytes.length).toBeLessThan(10_000);
    const f = withBudget(1024, () => failure(() => parse3mf(bytes, 'fan.3mf')));
    expect(f.code).toBe('FILE_TOO_LARGE');
    expect(f.message).toContain(`its build places ${2 ** 40} triangles and ${3 * 2 ** 40} vertices`);
    expect(f.message).toContain('1024 MiB memory ceiling (--max-memory 1024)');
  });

  it('a fan-out under the ceiling is read whole: 2^10 triangles, each copy placed one unit along x', () => {
    const { mesh } = withBudget(1024, () => parse3mf(fanOut(10), 'fan.3mf'));
    expect(mesh.indices.length).toBe(3 * 2 ** 10);
    let maxX = 0;
    for (let i = 0; i < mesh.positions.length; i += 3) maxX = Math.max(maxX, mesh.positions[i]!);
    // Level k shifts its second copy by 1: the farthest copy sits at 1 + 1 + ... (10 levels), plus the triangle's own x = 1.
    expect(maxX).toBe(11);
  });

  it('3MF: seven parts whose declared sizes pass one by one but not together: FILE_TOO_LARGE before inflating', () => {
    // Seven parts of 256 KiB each (1.75 MiB together, as the zip declares them) against a 1 MiB ceiling. Their
    // bytes are pseudo-random digits, so they compress like real data, under zipBudget's ratio limit.
    let seed = 12345;
    const blank = new Uint8Array(2 ** 18).map(() => 48 + ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) % 10);
    const parts: Record<string, Uint8Array> = { '3D/3dmodel.model': strToU8(`<model><resources>${TRIANGLE}</resources><build><item objectid="1"/></build></model>`) };
    for (let k = 0; k < 7; k++) parts[`3D/part${k}.model`] = blank;
    const bytes = zipSync(parts, { level: 9 });
    const f = withBudget(1, () => failure(() => parse3mf(bytes, 'many.3mf')));
    expect(f.code).toBe('FILE_TOO_LARGE');
    expect(f.message).toContain(`its model parts declare ${7 * 2 ** 18 + parts['3D/3dmodel.model']!.length} bytes uncompressed together`);
    // Under a ceiling they fit, the same package reads.
    expect(withBudget(2, () => parse3mf(bytes, 'many.3mf')).mesh.indices.length).toBe(3);
  });

  it('PLY: declared counts over the ceiling are FILE_TOO_LARGE before the arrays are made', () => {
    // 30M vertices of 3 uchar each fit the bytes after the header (90 MB) and take 720 MB as float64 positions.
    const header = 'ply\nformat binary_little_endian 1.0\nelement vertex 30000000\nproperty uchar x\nproperty uchar y\nproperty uchar z\nend_header\n';
    const bytes = new Uint8Array(header.length + 90_000_000);
    bytes.set(text(header));
    const f = withBudget(512, () => failure(() => parsePly(bytes, 'many.ply')));
    expect(f).toEqual({ code: 'FILE_TOO_LARGE', message: 'many.ply: the header declares 30000000 vertices: about 687 MiB to hold, over the 512 MiB memory ceiling (--max-memory 512)' });
  });
});
