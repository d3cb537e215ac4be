import { beforeEach, describe, expect, it } from 'vitest';
import { alignSetupStore, clearAlignFace, methodArgs, pickAlignFace, pickedAlignFaces, setMethod, DATUM_COLOURS } from './alignSetup';
import { resetStores } from './stores';

describe('alignSetup: the Align step method and picked faces', () => {
  beforeEach(() => resetStores());

  it('best fit needs no faces and picks nothing', () => {
    expect(methodArgs(alignSetupStore.getState())).toEqual({ ok: true, args: {} });
    expect(alignSetupStore.getState().picking).toBeNull();
  });

  it('3-2-1: clicks fill primary, secondary, tertiary in order, then picking stops', () => {
    setMethod('3-2-1');
    expect(alignSetupStore.getState().picking).toBe('primary');
    expect(methodArgs(alignSetupStore.getState()).ok).toBe(false);
    pickAlignFace(4);
    expect(alignSetupStore.getState().picking).toBe('secondary');
    pickAlignFace(0);
    pickAlignFace(7);
    const s = alignSetupStore.getState();
    expect(s.datums).toEqual({ primary: 4, secondary: 0, tertiary: 7 });
    expect(s.picking).toBeNull();
    expect(methodArgs(s)).toEqual({ ok: true, args: { method: '3-2-1', datums: [{ face: 'face[4]' }, { face: 'face[0]' }, { face: 'face[7]' }] } });
    expect(pickedAlignFaces(s)).toEqual([
      { face: 4, color: DATUM_COLOURS.primary },
      { face: 0, color: DATUM_COLOURS.secondary },
      { face: 7, color: DATUM_COLOURS.tertiary },
    ]);
  });

  it('3-2-1: a face already used moves to the slot being picked; a cleared slot is picked again', () => {
    setMethod('3-2-1');
    pickAlignFace(4);
    pickAlignFace(0);
    clearAlignFace('primary');
    expect(alignSetupStore.getState().picking).toBe('primary');
    // A secondary without a primary is no frame.
    expect(methodArgs(alignSetupStore.getState()).ok).toBe(false);
    pickAlignFace(0);
    expect(alignSetupStore.getState().datums).toEqual({ primary: 0 });
    expect(alignSetupStore.getState().picking).toBe('secondary');
    expect(methodArgs(alignSetupStore.getState())).toEqual({ ok: true, args: { method: '3-2-1', datums: [{ face: 'face[0]' }] } });
  });

  it('local best fit: clicks toggle faces and picking goes on', () => {
    setMethod('localBestFit');
    expect(methodArgs(alignSetupStore.getState()).ok).toBe(false);
    pickAlignFace(2);
    pickAlignFace(9);
    pickAlignFace(2);
    pickAlignFace(5);
    const s = alignSetupStore.getState();
    expect(s.faces).toEqual([9, 5]);
    expect(s.picking).toBe('faces');
    expect(methodArgs(s)).toEqual({ ok: true, args: { method: 'localBestFit', faces: ['face[9]', 'face[5]'] } });
    clearAlignFace('faces');
    expect(alignSetupStore.getState().faces).toEqual([]);
  });

  it('a click while not picking changes nothing; best fit highlights no faces', () => {
    pickAlignFace(3);
    expect(alignSetupStore.getState()).toMatchObject({ datums: {}, faces: [] });
    setMethod('3-2-1');
    pickAlignFace(3);
    setMethod('bestFit');
    expect(pickedAlignFaces(alignSetupStore.getState())).toEqual([]);
    // The datums stay for when the user comes back to 3-2-1 (picking the next empty slot).
    setMethod('3-2-1');
    expect(alignSetupStore.getState()).toMatchObject({ datums: { primary: 3 }, picking: 'secondary' });
  });
});
