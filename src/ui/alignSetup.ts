import { store } from './stores';

/**
 * How the next alignment is asked for (issue 28.3): the method, the datums or faces picked on the
 * nominal in the viewport, and whether a proposal is previewed as a ghost. Picking is a mode: while
 * `picking` is set, a click on the nominal's faces fills that slot instead of selecting the face.
 */

export type SetupMethod = 'bestFit' | '3-2-1' | 'localBestFit';
export const DATUM_ROLES = ['primary', 'secondary', 'tertiary'] as const;
export type DatumRole = (typeof DATUM_ROLES)[number];
export type PickSlot = DatumRole | 'faces';

export interface AlignSetup {
  method: SetupMethod;
  /** Face indices of the nominal, per datum role (unset: not picked yet). */
  datums: Partial<Record<DatumRole, number>>;
  /** Faces a local best fit is restricted to. */
  faces: number[];
  /** The slot the next click on the nominal fills; null: clicks pick faces as usual. */
  picking: PickSlot | null;
  /** The proposal drawn as a ghost at its pose (on by default). */
  preview: boolean;
}

export const alignSetupStore = store<AlignSetup>(() => ({ method: 'bestFit', datums: {}, faces: [], picking: null, preview: true }));

/** Colours of the picked faces in the viewport and beside their names in the card. */
export const DATUM_COLOURS: Record<PickSlot, string> = { primary: '#1f6fd1', secondary: '#0fa3a3', tertiary: '#c2409a', faces: '#0fa3a3' };

/** The ghost of a proposal: a colour that is neither the body palette's nor the heat map's. */
export const GHOST_COLOUR = '#12a150';

export function setMethod(method: SetupMethod): void {
  alignSetupStore.setState({ method, picking: method === '3-2-1' ? firstEmpty(alignSetupStore.getState().datums) : method === 'localBestFit' ? 'faces' : null });
}

export function startPicking(slot: PickSlot | null): void {
  alignSetupStore.setState({ picking: slot });
}

export function setPreview(preview: boolean): void {
  alignSetupStore.setState({ preview });
}

function firstEmpty(datums: AlignSetup['datums']): DatumRole | null {
  return DATUM_ROLES.find((r) => datums[r] === undefined) ?? null;
}

/**
 * A click on the nominal while picking: a datum slot takes the face and picking moves to the next
 * empty slot (a face already used by another datum moves to this one); the local-fit faces toggle
 * the face and stay in picking.
 */
export function pickAlignFace(face: number): void {
  const s = alignSetupStore.getState();
  if (!s.picking) return;
  if (s.picking === 'faces') {
    alignSetupStore.setState({ faces: s.faces.includes(face) ? s.faces.filter((f) => f !== face) : [...s.faces, face] });
    return;
  }
  const datums: AlignSetup['datums'] = {};
  for (const r of DATUM_ROLES) if (s.datums[r] !== undefined && s.datums[r] !== face) datums[r] = s.datums[r];
  datums[s.picking] = face;
  alignSetupStore.setState({ datums, picking: firstEmpty(datums) });
}

export function clearAlignFace(slot: PickSlot): void {
  const s = alignSetupStore.getState();
  if (slot === 'faces') alignSetupStore.setState({ faces: [], picking: s.method === 'localBestFit' ? 'faces' : s.picking });
  else {
    const datums = { ...s.datums };
    delete datums[slot];
    alignSetupStore.setState({ datums, picking: slot });
  }
}

/** The faces to highlight on the nominal: each picked face with its slot's colour. */
export function pickedAlignFaces(s: AlignSetup): { face: number; color: string }[] {
  if (s.method === '3-2-1') return DATUM_ROLES.flatMap((r) => (s.datums[r] === undefined ? [] : [{ face: s.datums[r], color: DATUM_COLOURS[r] }]));
  if (s.method === 'localBestFit') return s.faces.map((face) => ({ face, color: DATUM_COLOURS.faces }));
  return [];
}

/** align_bodies' method arguments for the setup, or why it cannot run yet. */
export function methodArgs(s: AlignSetup): { ok: true; args: Record<string, unknown> } | { ok: false; reason: string } {
  if (s.method === 'bestFit') return { ok: true, args: {} };
  if (s.method === 'localBestFit') {
    return s.faces.length ? { ok: true, args: { method: 'localBestFit', faces: s.faces.map((f) => `face[${f}]`) } } : { ok: false, reason: 'pick the faces to fit on' };
  }
  const picked = DATUM_ROLES.flatMap((r) => (s.datums[r] === undefined ? [] : [s.datums[r]]));
  // The datums in order, without a gap: a secondary without a primary is no frame.
  const inOrder = DATUM_ROLES.slice(0, picked.length).every((r) => s.datums[r] !== undefined);
  if (!picked.length || !inOrder) return { ok: false, reason: 'pick the primary datum first, then the secondary and tertiary' };
  return { ok: true, args: { method: '3-2-1', datums: picked.map((f) => ({ face: `face[${f}]` })) } };
}
