import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../Engine';
import { testEngine } from '../../../test/testEngine';
import { dataPath } from '../../../test/data';
import { stepContextLengthUnit } from './stepContextUnit';

const SG1 = readFileSync(dataPath('cax-if/sg1-c5-214.stp'), 'latin1');
const MM_UNIT = '#12=(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT(.MILLI.,.METRE.)) ;';
/**
 * sg1-c5-214.stp with its context's length unit written as NIST CTC 05 writes it: a complex
 * CONVERSION_BASED_UNIT('inch') whose NAMED_UNIT names its dimensional exponents. Native OCCT 7.6.3:
 * STEPControl_Reader.FileUnits names no length unit for it, and the coordinates are read in inches
 * (volume 5831793642.1057 mm3 against 355877.882829145 mm3 for the original, 25.4^3 times).
 */
const SG1_INCH = SG1.replace(
  MM_UNIT,
  "#12=(CONVERSION_BASED_UNIT('inch',#90004)LENGTH_UNIT()NAMED_UNIT(#90006)) ;\n#90003=(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT(.MILLI.,.METRE.)) ;\n#90004=MEASURE_WITH_UNIT(LENGTH_MEASURE(25.4),#90003) ;\n#90006=DIMENSIONAL_EXPONENTS(1.,0.,0.,0.,0.,0.,0.) ;",
);
const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));

let engine: Engine;
beforeAll(() => {
  engine = testEngine();
});

describe('the length unit of a STEP representation context, from the text', () => {
  it('names the unit the context assigns: conversion-based, SI with a prefix, or none', () => {
    expect(SG1.includes(MM_UNIT)).toBe(true);
    expect(stepContextLengthUnit(bytes(SG1_INCH))).toBe('inch');
    expect(stepContextLengthUnit(bytes(SG1))).toBe('millimetre');
    expect(stepContextLengthUnit(bytes(SG1.replace('SI_UNIT(.MILLI.,.METRE.)', 'SI_UNIT($,.METRE.)')))).toBe('metre');
    expect(stepContextLengthUnit(bytes(SG1.replace(/GLOBAL_UNIT_ASSIGNED_CONTEXT\([^)]*\)\)/, '')))).toBeNull();
  });

  it('a STEP part whose unit FileUnits cannot name (NIST CTC 05 form) says inch, and its volume is in mm3 as native OCCT reads it', async () => {
    const body = (await engine.run('import_file', { bytes: Buffer.from(bytes(SG1_INCH)).toString('base64'), fileName: 'sg1-inch.stp', bodyId: 'inch' })).result as { lengthUnit: string | null; declaredUnit?: string; notes?: string[] };
    expect(body).toMatchObject({ lengthUnit: 'mm', declaredUnit: 'inch', notes: ['STEP length unit inch: the kernel converted coordinates to millimetres'] });
    const m = (await engine.run('compute_metrics', { bodyId: 'inch', metrics: ['volume'] })).result as { volume: number };
    expect(Math.abs(m.volume / 5831793642.1057 - 1)).toBeLessThan(1e-9);
    expect(Math.abs(m.volume / (355877.882829145 * 25.4 ** 3) - 1)).toBeLessThan(1e-9);
  });
});
