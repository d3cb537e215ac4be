import { afterEach, describe, expect, it } from 'vitest';
import type { AlignResult } from '../engine';
import { discardAlignment, showAlignment } from './alignment';
import { inspectStore, resetStores, type AlignmentState, type DoneCallOf } from './stores';

/** An align_bodies answer as the page receives it (only the fields the page's state keeps matter here). */
const answer = (outcome: AlignResult['outcome'], rotationAngleDegrees: number): DoneCallOf<'align_bodies'> =>
  ({ tool: 'align_bodies', args: {}, ok: true, outputs: [], ms: 1, result: { movingBodyId: 'scan', fixedBodyId: 'part', outcome, applied: false, rotationAngleDegrees } as AlignResult }) as DoneCallOf<'align_bodies'>;

afterEach(() => resetStores());

describe('an alignment answer on the page', () => {
  it('a proposal is shown not applied; Discard drops it', () => {
    showAlignment(answer('aligned', 25));
    expect(inspectStore.getState().alignment).toMatchObject({ status: 'proposed', movingBodyId: 'scan' });
    expect((inspectStore.getState().alignment as AlignmentState).prior).toBeUndefined();
    discardAlignment();
    expect(inspectStore.getState().alignment).toBeNull();
  });

  it('nothing better than an applied alignment: OK puts the applied one back on show (with its Undo)', () => {
    const applied: AlignmentState = { movingBodyId: 'scan', fixedBodyId: 'part', status: 'applied', result: answer('aligned', 25).result, previous: null };
    inspectStore.setState({ alignment: applied });
    showAlignment(answer('alreadyAligned', 0));
    expect(inspectStore.getState().alignment).toMatchObject({ status: 'proposed', result: { outcome: 'alreadyAligned' } });
    discardAlignment();
    expect(inspectStore.getState().alignment).toBe(applied);
  });

  it('a new proposal over an applied alignment: Discard puts the applied one back; another body\'s is not kept', () => {
    const applied: AlignmentState = { movingBodyId: 'scan', fixedBodyId: 'part', status: 'applied', result: answer('aligned', 25).result, previous: null };
    inspectStore.setState({ alignment: applied });
    showAlignment(answer('aligned', 3));
    expect(inspectStore.getState().alignment).toMatchObject({ status: 'proposed', result: { rotationAngleDegrees: 3 } });
    discardAlignment();
    expect(inspectStore.getState().alignment).toBe(applied);
    inspectStore.setState({ alignment: { ...applied, movingBodyId: 'other' } });
    showAlignment(answer('aligned', 3));
    discardAlignment();
    expect(inspectStore.getState().alignment).toBeNull();
  });
});
