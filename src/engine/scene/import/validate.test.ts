import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dataPath } from '../../../test/data';
import { validateBrepText } from './validateBrep';
import { validateIges } from './validateIges';
import { validateStep } from './validateStep';

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
});
