import { afterEach, describe, expect, it } from 'vitest';
import type { AlignResult } from '../engine';
import { alignedAsPlaced, discardAlignment, showAlignment } from './alignment';
import { inspectStore, resetStores, sceneStore, type AlignmentState, type BodyEntry, type DoneCallOf } from './stores';

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

  it('already aligned where it stands: OK keeps the finding for this pair while the actual stays where it stood', () => {
    const T = [[1, 0, 0, 2], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]];
    const scanAt = (transform: number[][] | null) =>
      sceneStore.setState({ bodies: [{ bodyId: 'scan', summary: transform ? { placement: { transform } } : {} } as unknown as BodyEntry] });
    scanAt(T);
    const a = answer('alreadyAligned', 0);
    (a.result as { rmsBefore: number }).rmsBefore = 0.0025;
    showAlignment(a);
    expect(alignedAsPlaced('scan', 'part')).toBeNull();
    discardAlignment();
    expect(inspectStore.getState().alignment).toBeNull();
    expect(alignedAsPlaced('scan', 'part')).toEqual({ movingBodyId: 'scan', fixedBodyId: 'part', rms: 0.0025, transform: T });
    expect(alignedAsPlaced('scan', 'other')).toBeNull();
    // Moved since (here back to its file position): the finding no longer holds.
    scanAt(null);
    expect(alignedAsPlaced('scan', 'part')).toBeNull();
  });

  it('"no better pose" is not kept as a finding', () => {
    showAlignment(answer('noBetterPose', 0));
    discardAlignment();
    expect(inspectStore.getState().alignChecked).toBeNull();
  });
});
