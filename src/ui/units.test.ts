import { afterEach, describe, expect, it } from 'vitest';
import type { BodySummary } from '../engine';
import { roundStep, unitOf } from './format';
import { resetStores, sceneStore, type BodyEntry } from './stores';
import { bodiesOfArgs, MODEL_UNITS, unitsOf, unitText } from './units';

const entry = (bodyId: string, lengthUnit: 'mm' | null): BodyEntry => ({
  bodyId,
  summary: { bodyId, name: bodyId, kind: 'mesh', sourceFormat: 'stl', valid: true, source: null, solids: 0, shells: 1, faces: 1, edges: 3, vertices: 3, lengthUnit, placement: null } satisfies BodySummary,
  color: '#000',
  visible: true,
  opacity: 1,
});

afterEach(() => resetStores());

describe('units on the page (issue 20.8)', () => {
  it('every length of a deviation record carries a unit (mean and rms too); counts, shares and unit vectors none', () => {
    for (const key of ['max', 'rms', 'mean', 'p95', 'signedMean', 'signedMin', 'worstPoint', 'symmetricHausdorff', 'deflection', 'maxAbs', 'median', 'std', 'axisCoord', 'overlap', 'shapeL2', 'diameter', 'depth', 'radius', 'lo', 'hi']) {
      expect([key, unitOf(key)]).toEqual([key, 'length']);
    }
    for (const key of ['samples', 'signedSamples', 'ambiguousFraction', 'withinTolerance', 'areaRatio', 'worstStation', 'station', 'fromContours', 'faces', 'axis', 'direction', 'normal', 'principalAxes', 'signMode', 'n', 'valid', 'through']) {
      expect([key, unitOf(key)]).toEqual([key, '']);
    }
    expect(unitOf('volume')).toBe('volume');
    expect(unitOf('symmetricDifferenceVolumeMm3')).toBe('volume');
    expect(unitOf('surfaceArea')).toBe('area');
    expect(unitOf('startAngle')).toBe('angle');
    // A graph's valence is a count, whatever its mean is called.
    expect(unitOf('mean', 'valence')).toBe('');
    // align_bodies' overlap is a share of its samples; cross_section_compare's a length range.
    expect(unitOf('overlap', 'align_bodies')).toBe('');
    expect(unitOf('overlap', 'cross_section_compare')).toBe('length');
  });

  it('a comparison is in the unit its bodies declare; a body without one takes it, with a note; none: model units', () => {
    sceneStore.setState({ bodies: [entry('part', 'mm'), entry('scan', null), entry('cube', null)] });
    expect(unitsOf(['part'])).toEqual({ length: 'mm', short: 'mm' });
    expect(unitsOf(['part', 'scan'])).toEqual({ length: 'mm', short: 'mm', note: 'mm, from part; scan declares no unit' });
    expect(unitsOf(['scan', 'cube'])).toBe(MODEL_UNITS);
    expect(unitsOf(['gone'])).toBe(MODEL_UNITS);
    expect(unitText('area', unitsOf(['part']))).toBe('mm²');
    expect(unitText('volume', MODEL_UNITS)).toBe('model units³');
    expect(unitText('length', MODEL_UNITS, true)).toBe('mu');
    expect(bodiesOfArgs({ fromBodyId: 'part', toBodyId: 'scan', deflection: 0.1 })).toEqual(['part', 'scan']);
  });

  it('the tolerance slider steps in round values', () => {
    expect([0.00442, 0.0123, 0.05, 0.3, 0.7, 1, 4.4].map(roundStep)).toEqual([0.005, 0.02, 0.05, 0.5, 1, 1, 5]);
  });
});
