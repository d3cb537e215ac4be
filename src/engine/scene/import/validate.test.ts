import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeKernel } from '../../../node/nodeEngine';
import { dataPath } from '../../../test/data';
import { writeBrepBytes } from '../../graph/brepFile';
import { withKernel } from '../../kernel';
import { readBrepShape } from './brep';
import { MAX_SHAPE_DEPTH, validateBrepText } from './validateBrep';
import { MAX_IGES_NESTING, validateIges } from './validateIges';
import { writeIges } from '../../../test/igesWriter';
import { MAX_STEP_NESTING, validateStep } from './validateStep';

const read = (file: string): Uint8Array => new Uint8Array(readFileSync(dataPath(file)));
const GOOD: [string, (bytes: Uint8Array, name: string) => void][] = [
  ...['occt/bottle.brep', 'occt/CrankArm.brep', 'occt/Pump_Nut.brep', 'occt/face.brep', 'occt/shell1.brep', 'occt/wedge_ok.brep', 'cax-if/as1_pe_203.brep'].map((f) => [f, validateBrepText] as [string, typeof validateBrepText]),
  ['occt/screw.step', validateStep],
  ['cax-if/as1_pe_203.stp', validateStep],
  ['cax-if/sg1-c5-214.stp', validateStep],
  ['occt/hammer.iges', validateIges],
];

describe('pre-kernel validation', () => {
  it.each(GOOD)('%s: every real file passes', (file, validate) => {
    expect(() => validate(read(file), file)).not.toThrow();
  });

  it('a damaged line before the version line is skipped, as BRepTools::Read skips it', async () => {
    // wing.brep with its first line's '_' flipped to '^' (DBRep^DrawableShape): native OCCT 7.6.3 reads
    // it as the original, surface area 12.3773278735483; the check refused it (no 'CASCADE Topology' header).
    const wing = read('occt/wing.brep');
    const flipped = wing.slice();
    flipped[5] = flipped[5]! ^ 1;
    expect(new TextDecoder().decode(flipped.subarray(0, 19))).toBe('DBRep^DrawableShape');
    expect(() => validateBrepText(flipped, 'flip.brep')).not.toThrow();
    const oc = await nodeKernel();
    const area = withKernel(oc, (own) => {
      const props = own(new oc.GProp_GProps_1());
      oc.BRepGProp.SurfaceProperties_2(own(readBrepShape(oc, flipped, 'flip.brep')), props, 1e-9, false);
      return props.Mass();
    });
    expect(Math.abs(area / 12.3773278735483 - 1)).toBeLessThan(1e-12);
    // Line numbers still count from the file's start: a damaged version line is reported where it is.
    const text = new TextDecoder('latin1').decode(wing).replace('CASCADE Topology V1', 'CASCADE Topology X1');
    expect(() => validateBrepText(new TextEncoder().encode(text), 'v.brep')).toThrow(/v\.brep: line 3: unknown BREP format version 'X1,'/);
  });

  it("every BREP test file, rewritten by this kernel's BRepTools::Write (format V3, triangulations kept), passes", async () => {
    const oc = await nodeKernel();
    for (const [file, validate] of GOOD) {
      if (validate !== validateBrepText) continue;
      const written = withKernel(oc, (own) => writeBrepBytes(oc, own(readBrepShape(oc, read(file), file))));
      expect(new TextDecoder().decode(written.subarray(0, 60))).toMatch(/CASCADE Topology V3/);
      expect(() => validateBrepText(written, `${file} (rewritten)`)).not.toThrow();
    }
  });
});

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const asText = (file: string): string => new TextDecoder('latin1').decode(read(file));

/** An IGES line held by `depth - 1` composite curves, each holding the next. */
const nestedCurves = (depth: number): Uint8Array =>
  writeIges([...Array.from({ length: depth - 1 }, (_, i) => ({ type: 102, params: `1,${2 * i + 3}`, dependent: i > 0 })), { type: 110, params: '0.,0.,0.,1.,0.,0.', dependent: true }]);

/** A BREP of `depth` empty compounds, each holding the one before. */
const nestedCompounds = (depth: number): Uint8Array => {
  let b = 'CASCADE Topology V1, (c) Matra-Datavision\nLocations 0\nCurve2ds 0\nCurves 0\nPolygon3D 0\nPolygonOnTriangulations 0\nSurfaces 0\nTriangulations 0\n\nTShapes ' + depth + '\nCo\n\n0101000\n*\n';
  for (let i = 1; i < depth; i++) b += `Co\n\n0101000\n+${depth - i + 1} 0 *\n`;
  return text(`${b}\n+1 0 \n`);
};

/** A STEP file whose one point's coordinates sit inside `depth` parentheses (the attribute list's own included). */
const nested = (depth: number): Uint8Array =>
  text(`ISO-10303-21;\nHEADER;\nFILE_NAME('x');\nENDSEC;\nDATA;\n#1=CARTESIAN_POINT('',${'('.repeat(depth - 1)}0.${')'.repeat(depth - 1)});\nENDSEC;\nEND-ISO-10303-21;\n`);

describe('pre-kernel validation refuses corrupt files with PARSE_FAILED naming the line', () => {
  const bottle = asText('occt/bottle.brep');
  const wedge = asText('occt/wedge_ok.brep');
  const step = asText('cax-if/sg1-c5-214.stp');
  const iges = asText('occt/hammer.iges').split('\n');
  /** hammer.iges with one field of directory entry D`seq` replaced. */
  const igesField = (seq: number, field: number, value: string): Uint8Array => {
    const lines = [...iges];
    const i = lines.findIndex((l) => l[72] === 'D' && Number(l.slice(73)) === seq);
    lines[i] = lines[i]!.slice(0, field * 8) + value.padStart(8) + lines[i]!.slice(field * 8 + 8);
    return text(lines.join('\n'));
  };
  const cases: { what: string; file: string; bytes: () => Uint8Array; validate: (b: Uint8Array, n: string) => void; message: RegExp }[] = [
    { what: 'BREP cut at 90% (the kernel allocated for 64 s on this)', file: 'cut.brep', bytes: () => text(bottle.slice(0, Math.floor(bottle.length * 0.9))), validate: validateBrepText, message: /cut\.brep: line \d+: .*the file ends/ },
    { what: 'BREP cut at 33% (the kernel threw NCollection_IndexedMap::FindKey)', file: 'cut.brep', bytes: () => text(bottle.slice(0, Math.floor(bottle.length * 0.33))), validate: validateBrepText, message: /cut\.brep: line \d+: / },
    { what: 'BREP whose sub-shape list has lost its *', file: 'star.brep', bytes: () => text(wedge.replace(/-34 0 \+33 0 \*/, '-34 0 +33 0')), validate: validateBrepText, message: /star\.brep: line \d+: shape 3 \(Ed\) sub-shape: 'Ve' is not a shape reference/ },
    { what: 'BREP sub-shape referring to a shape not read yet', file: 'fwd.brep', bytes: () => text(wedge.replace('-34 0 +33 0 *', '-34 0 +3 0 *')), validate: validateBrepText, message: /fwd\.brep: line \d+: shape 3 \(Ed\) sub-shape: '\+3' refers to a shape that is not defined before it/ },
    { what: 'BREP with a huge curve count', file: 'huge.brep', bytes: () => text(wedge.replace('Curves 12', 'Curves 2147483647')), validate: validateBrepText, message: /huge\.brep: line \d+: Curves 2147483647 cannot fit/ },
    { what: 'BREP with a curve index past the table', file: 'idx.brep', bytes: () => text(wedge.replace('1  1 0 0 8', '1  99 0 0 8')), validate: validateBrepText, message: /idx\.brep: line \d+: shape 3 \(Ed\) curve: 99 is outside 0\.\.12/ },
    { what: 'BREP with a letter flipped into a number', file: 'flip.brep', bytes: () => text(wedge.replace('1e-07\n8 0 0', '1e-07\n8 0 O')), validate: validateBrepText, message: /flip\.brep: line 57: shape 1 \(Ve\): 'O' is not a number/ },
    { what: 'a STEP file given as BREP (graph commands, read_brep) says it is STEP', file: 'part.brep', bytes: () => text(step), validate: validateBrepText, message: /part\.brep: not an OCCT BREP file \(no 'CASCADE Topology' header\): its content is a STEP file \(import_file reads it; read_brep and the graph commands on a file read BREP only\)$/ },
    { what: 'an IGES file given as BREP says it is IGES', file: 'surf.brep', bytes: () => text(iges.join('\n')), validate: validateBrepText, message: /surf\.brep: not an OCCT BREP file \(no 'CASCADE Topology' header\): its content is an IGES file/ },
    { what: 'other text given as BREP: no guess', file: 'x.brep', bytes: () => text('hello world\n'), validate: validateBrepText, message: /x\.brep: not an OCCT BREP file \(no 'CASCADE Topology' header\)$/ },
    { what: 'STEP cut short', file: 'cut.stp', bytes: () => text(step.slice(0, Math.floor(step.length * 0.6))), validate: validateStep, message: /cut\.stp: line \d+: / },
    { what: 'STEP cut inside an entity name (NIST CTC 05 cut at 50% ends in `#7584=CAR`): no parentheses open, and not said to be', file: 'name.stp', bytes: () => text(step.replace(/(#\d+\s*=\s*CAR)TESIAN_POINT[\s\S]*$/, '$1')), validate: validateStep, message: /name\.stp: line \d+: the file ends inside an entity \(before its closing ';'\) \(not a readable/ },
    { what: 'STEP without its trailer', file: 'cut.stp', bytes: () => text(step.replace(/END-ISO-10303-21;\s*$/, '')), validate: validateStep, message: /cut\.stp: line \d+: the file ends without END-ISO-10303-21/ },
    { what: 'STEP with a header and an empty DATA section (the kernel loaded, then said "no transferable shape")', file: 'empty.stp', bytes: () => text("ISO-10303-21;\nHEADER;\nFILE_NAME('a.stp','',(''),(''),'','','');\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n"), validate: validateStep, message: /^empty\.stp: line 5: the DATA section holds no entity instances \(a header with nothing to read\) \(not a readable STEP file: corrupt or truncated\)$/ },
    { what: 'STEP entity referring to itself', file: 'self.stp', bytes: () => text(step.replace(/#(\d+)(\s*=\s*EDGE_LOOP\([^#]*)#\d+/, '#$1$2#$1')), validate: validateStep, message: /self\.stp: line \d+: a reference cycle: #(\d+) -> #\1 /},
    { what: 'STEP pair referring to each other', file: 'pair.stp', bytes: () => text('ISO-10303-21;\nHEADER;\nFILE_NAME(\'x\');\nENDSEC;\nDATA;\n#1=CLOSED_SHELL(\'\',(#2));\n#2=ADVANCED_FACE(\'\',(#1),#3,.T.);\n#3=PLANE(\'\',$);\nENDSEC;\nEND-ISO-10303-21;\n'), validate: validateStep, message: /pair\.stp: line 6: a reference cycle: #1 -> #2 -> #1/ },
    { what: 'STEP reference to an undefined entity', file: 'undef.stp', bytes: () => text(step.replace(/(#\d+\s*=\s*[A-Z_]+\([^#;]*)#\d+/, '$1#987654')), validate: validateStep, message: /undef\.stp: line \d+: #\d+ refers to #987654, which is not defined/ },
    { what: 'STEP with an entity defined twice', file: 'dup.stp', bytes: () => text(step.replace(/DATA;\s*/, 'DATA;\n#1=DUMMY();\n#1=DUMMY();\n')), validate: validateStep, message: /dup\.stp: line \d+: #1 is defined twice/ },
    { what: 'STEP with an unclosed string', file: 'str.stp', bytes: () => text(step.replace(/ENDSEC;\s*END-ISO-10303-21;\s*$/, "#999999=X('open);\nENDSEC;\nEND-ISO-10303-21;\n")), validate: validateStep, message: /str\.stp: line \d+: a string is never closed/ },
    { what: 'STEP with parentheses nested 20,000 deep (the kernel overflowed its stack: FILE_ABORTED_KERNEL)', file: 'deep.stp', bytes: () => nested(20_000), validate: validateStep, message: /deep\.stp: line 6: parentheses nested more than 100 deep/ },
    { what: 'STEP with parentheses nested 101 deep, one past the bound', file: 'deep.stp', bytes: () => nested(MAX_STEP_NESTING + 1), validate: validateStep, message: /deep\.stp: line 6: parentheses nested more than 100 deep/ },
    { what: 'BREP of compounds nested 50,000 deep (the kernel overflowed its stack: FILE_ABORTED_KERNEL)', file: 'deep.brep', bytes: () => nestedCompounds(50_000), validate: validateBrepText, message: /deep\.brep: line \d+: shape 257 \(Co\): shapes nested more than 256 deep/ },
    { what: 'IGES of composite curves nested 20,000 deep (the kernel overflowed its stack: FILE_ABORTED_KERNEL)', file: 'deep.igs', bytes: () => nestedCurves(20_000), validate: validateIges, message: /deep\.igs: line \d+: entity D1 \(type 102\) starts a chain of 20000 entities/ },
    { what: 'IGES chain one past the bound', file: 'deep.igs', bytes: () => nestedCurves(MAX_IGES_NESTING + 1), validate: validateIges, message: /deep\.igs: line \d+: entity D1 \(type 102\) starts a chain of 257 entities/ },
    { what: 'IGES cut short', file: 'cut.igs', bytes: () => text(iges.slice(0, Math.floor(iges.length * 0.7)).join('\n')), validate: validateIges, message: /cut\.igs: line \d+: no Terminate \(T\) record/ },
    { what: 'IGES with a P record lost', file: 'lost.igs', bytes: () => text(iges.filter((l, i) => !(l[72] === 'P' && i === iges.length - 5)).join('\n')), validate: validateIges, message: /lost\.igs: line \d+: the Terminate record declares \d+ P records but the file has/ },
    { what: 'IGES entity transformed by itself', file: 'self.igs', bytes: () => igesField(1, 6, '1'), validate: validateIges, message: /self\.igs: line \d+: a reference cycle: D1 \(type 402\) -> D1/ },
    { what: 'IGES pointer past the directory', file: 'ptr.igs', bytes: () => igesField(1, 6, '99999'), validate: validateIges, message: /ptr\.igs: line \d+: directory entry 1: transformation matrix pointer 99999 is not a directory entry/ },
    { what: 'IGES parameter data outside the P section', file: 'par.igs', bytes: () => igesField(1, 1, '9999999'), validate: validateIges, message: /par\.igs: line \d+: directory entry 1: parameter data at P9999999/ },
  ];

  it('IGES of a chain of exactly 256 entities passes', () => {
    expect(() => validateIges(nestedCurves(MAX_IGES_NESTING), 'deep.igs')).not.toThrow();
  });

  it('BREP of compounds nested exactly 256 deep passes', () => {
    expect(() => validateBrepText(nestedCompounds(MAX_SHAPE_DEPTH), 'deep.brep')).not.toThrow();
  });

  it('STEP with parentheses nested exactly 100 deep passes', () => {
    expect(() => validateStep(nested(MAX_STEP_NESTING), 'deep.stp')).not.toThrow();
  });

  it.each(cases)('$what', ({ file, bytes, validate, message }) => {
    let error: unknown;
    try {
      validate(bytes(), file);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'PARSE_FAILED' });
    expect((error as Error).message).toMatch(message);
  });
});
