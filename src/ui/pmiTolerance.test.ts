import { afterEach, describe, expect, it } from 'vitest';
import type { BodySummary } from '../engine';
import { setTolerance } from './deviationReview';
import { gdtStore, type PmiResult } from './gdt';
import { adoptPmiTolerance, nominalGeneralTolerance } from './pmiTolerance';
import { DEFAULT_TOLERANCE, inspectStore, resetStores, sceneStore, type BodyEntry } from './stores';

/** The tolerance field's default follows the STEP nominal's general tolerance (a profile all over), never overrides the user's. */
const body = (bodyId: string, kind: 'brep' | 'mesh', sourceFormat: string, faces: number): BodyEntry =>
  ({ bodyId, summary: { bodyId, kind, sourceFormat, faces } as unknown as BodySummary, color: '#888', visible: true, opacity: 1 }) as BodyEntry;

const profile = (id: string, value: number | null, modifiers: string[], faces: string[]) => ({ id, kind: 'surfaceProfile', name: '', value, zone: 'width' as const, modifiers, datums: ['A'], faces });
const pmiOf = (tolerances: PmiResult['tolerances']): PmiResult => ({ datums: [], dimensions: [], tolerances, warnings: [] });

function scene(pmi: PmiResult | null): void {
  sceneStore.setState({ bodies: [body('part', 'brep', 'step', 4), body('scan', 'mesh', 'stl', 1000)] });
  gdtStore.setState({ pmi: pmi ? { bodyId: 'part', status: 'done', result: pmi } : { bodyId: 'part', status: 'running' } });
}

afterEach(() => {
  resetStores();
  gdtStore.setState({ pmi: null, check: null, highlight: null });
});

describe('tolerance default from the CAD\'s PMI', () => {
  it('a profile all over (0.3) sets +-0.15 with source pmi; a user\'s value then stays, even when the PMI is read again', () => {
    scene(pmiOf([profile('tolerance[0]', 0.3, ['allOver'], ['face[0]'])]));
    expect(inspectStore.getState().tolerance).toEqual({ value: DEFAULT_TOLERANCE, source: 'default' });
    adoptPmiTolerance();
    expect(inspectStore.getState().tolerance).toEqual({ value: 0.15, source: 'pmi' });
    expect(nominalGeneralTolerance()).toEqual({ value: 0.15, id: 'tolerance[0]', zone: 0.3, reason: 'allOver' });
    setTolerance(0.05);
    adoptPmiTolerance();
    expect(inspectStore.getState().tolerance).toEqual({ value: 0.05, source: 'user' });
  });

  it('a profile on every face of the nominal (4 faces) counts; on some faces, or while the PMI is being read, the stated default stays', () => {
    scene(pmiOf([profile('tolerance[1]', 0.2, [], ['face[0]', 'face[1]', 'face[2]'])]));
    adoptPmiTolerance();
    expect(inspectStore.getState().tolerance).toEqual({ value: DEFAULT_TOLERANCE, source: 'default' });
    expect(nominalGeneralTolerance()).toBeNull();
    scene(pmiOf([profile('tolerance[1]', 0.2, [], ['face[0]', 'face[1]', 'face[2]', 'face[3]'])]));
    adoptPmiTolerance();
    expect(inspectStore.getState().tolerance).toEqual({ value: 0.1, source: 'pmi' });
    scene(null);
    expect(nominalGeneralTolerance()).toBeUndefined();
  });

  it('a link\'s tolerance is kept; a PMI value goes back to the stated default when the nominal has none any more', () => {
    scene(pmiOf([profile('tolerance[0]', 0.4, ['allOver'], [])]));
    setTolerance(0.15, 'link');
    adoptPmiTolerance();
    expect(inspectStore.getState().tolerance).toEqual({ value: 0.15, source: 'link' });
    resetStores();
    scene(pmiOf([profile('tolerance[0]', 0.4, ['allOver'], [])]));
    adoptPmiTolerance();
    expect(inspectStore.getState().tolerance).toEqual({ value: 0.2, source: 'pmi' });
    // The nominal removed: no STEP nominal, the stated default again.
    sceneStore.setState({ bodies: [body('scan', 'mesh', 'stl', 1000)] });
    adoptPmiTolerance();
    expect(inspectStore.getState().tolerance).toEqual({ value: DEFAULT_TOLERANCE, source: 'default' });
  });
});
