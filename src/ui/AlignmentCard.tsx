import { useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import type { AlignResult } from '../engine';
import { alignBodies, applyAlignment, discardAlignment, undoAlignment } from './alignment';
import { alignSetupStore, clearAlignFace, DATUM_COLOURS, DATUM_ROLES, GHOST_COLOUR, methodArgs, setMethod, setPreview, startPicking, type PickSlot, type SetupMethod } from './alignSetup';
import { alignRoles } from './deviationReview';
import { formatCount, formatNumber } from './format';
import { Stat } from './Stat';
import { sceneStore, type AlignmentState } from './stores';
import { MODEL_UNITS } from './units';
import { useUnits } from './useStores';

/**
 * The Align step's controls (issue 28): the method (best fit, 3-2-1 datums, local best fit) with
 * the faces picked on the nominal, the Align button, and the answer: a preview (the scan drawn as a
 * ghost where Apply would put it) with RMS before and after, the motion and any ambiguity in
 * words; Apply / Discard, then Undo.
 */

const fig = (v: number) => formatNumber(Number(v.toPrecision(4)));
/** Residuals in a narrow table (full values in the JSON): below half the last digit they read 0 (a constraint met exactly). */
const small = (v: number, digits: number) => (Math.abs(v) < 0.5 * 10 ** -digits ? '0' : v.toFixed(digits));

const METHODS: { method: SetupMethod; label: string; title: string }[] = [
  { method: 'bestFit', label: 'Best fit', title: 'The whole surface: global search, then ICP against the exact CAD faces' },
  { method: '3-2-1', label: '3-2-1 datums', title: 'Primary plane, secondary plane or axis, tertiary plane or point: faces you pick on the nominal, fitted to the scan and constrained in order' },
  { method: 'localBestFit', label: 'Local fit', title: 'A best fit on the faces you pick on the nominal only' },
];

const ROLE_WORDS: Record<PickSlot, string> = { primary: 'Primary', secondary: 'Secondary', tertiary: 'Tertiary', faces: 'Faces' };

/** "Align <actual> to <nominal>": the actual (a mesh, a cloud or a second CAD) moves, after the user confirms. */
export function AlignButton({ pair, running, testId, disabled = false, reason }: { pair: { from: string; to: string }; running: boolean; testId: string; disabled?: boolean; reason?: string | undefined }) {
  const { moving, fixed } = alignRoles(pair);
  return (
    <button
      type="button"
      className="button small"
      disabled={running || disabled}
      onClick={() => void alignBodies(moving, fixed)}
      data-testid={testId}
      data-moving={moving}
      title={reason ?? 'align_bodies: the chosen method against the exact surface; you see the result before the actual moves'}
    >
      Align {moving} to {fixed}
    </button>
  );
}

/** A picked face's chip: its colour, its id, and a button that clears the slot (and picks it again). */
function SlotChip({ slot, faces, picking, busy }: { slot: PickSlot; faces: number[]; picking: boolean; busy: boolean }) {
  return (
    <div className={`align-slot${picking ? ' picking' : ''}`} data-testid={`align.slot-${slot}`} data-faces={faces.join(',')}>
      <i style={{ background: DATUM_COLOURS[slot] }} aria-hidden="true" />
      <span className="slot-role">{ROLE_WORDS[slot]}</span>
      <span className="slot-faces">{faces.length ? faces.map((f) => `face[${f}]`).join(', ') : picking ? 'click a face of the nominal' : '–'}</span>
      {!picking && (
        <button type="button" className="link-button" disabled={busy} onClick={() => (faces.length ? clearAlignFace(slot) : startPicking(slot))} data-testid={`align.pick-${slot}`}>
          {faces.length ? (slot === 'faces' ? 'clear' : 're-pick') : 'pick'}
        </button>
      )}
    </div>
  );
}

/** The method and its faces, then Align. */
export function AlignControls({ pair, running }: { pair: { from: string; to: string }; running: boolean }) {
  const setup = useStore(alignSetupStore);
  const ready = methodArgs(setup);
  const { fixed } = alignRoles(pair);
  const brep = useStore(sceneStore, (s) => s.bodies.find((b) => b.bodyId === fixed)?.summary.kind === 'brep');
  return (
    <div className="align-controls" data-testid="align.controls">
      <div className="row segmented" role="radiogroup" aria-label="Alignment method">
        {METHODS.map((m) => (
          <button
            key={m.method}
            type="button"
            role="radio"
            aria-checked={setup.method === m.method}
            className="button small"
            disabled={running || (m.method !== 'bestFit' && !brep)}
            onClick={() => setMethod(m.method)}
            title={m.method !== 'bestFit' && !brep ? 'Datums and local fits are faces of a CAD nominal' : m.title}
            data-testid={`align.method-${m.method}`}
          >
            {m.label}
          </button>
        ))}
      </div>
      {setup.method === '3-2-1' && (
        <div className="align-slots">
          {DATUM_ROLES.map((r) => (
            <SlotChip key={r} slot={r} faces={setup.datums[r] === undefined ? [] : [setup.datums[r]]} picking={setup.picking === r} busy={running} />
          ))}
        </div>
      )}
      {setup.method === 'localBestFit' && (
        <div className="align-slots">
          <SlotChip slot="faces" faces={setup.faces} picking={setup.picking === 'faces'} busy={running} />
          {setup.picking === 'faces' && setup.faces.length > 0 && <span className="hint">click more faces; a picked face again to drop it</span>}
        </div>
      )}
      <AlignButton pair={pair} running={running} testId="deviation.align" disabled={!ready.ok} reason={ready.ok ? undefined : ready.reason} />
      {!ready.ok && <span className="hint">{ready.reason}</span>}
    </div>
  );
}

/** The rotation axis in words when it is a world axis (within half a degree), else as a vector. */
function axisWords(axis: AlignResult['rotationAxis']): string {
  if (!axis) return '';
  const names = ['x', 'y', 'z'];
  const i = axis.findIndex((c) => Math.abs(c) > Math.cos((0.5 * Math.PI) / 180));
  if (i >= 0) return ` about ${axis[i]! < 0 ? '−' : ''}${names[i]}`;
  return ` about (${axis.map((c) => c.toFixed(2)).join(', ')})`;
}

/** How far the moving body's centre moves (the matrix's translation depends on where the origin is). */
function centreShift(bodyId: string, t: AlignResult['transform']): number | null {
  const box = sceneStore.getState().bodies.find((b) => b.bodyId === bodyId)?.mesh?.viewer?.box;
  if (!box) return null;
  const c = [0, 1, 2].map((i) => (box.min[i]! + box.max[i]!) / 2);
  const moved = [0, 1, 2].map((i) => t[i]![0]! * c[0]! + t[i]![1]! * c[1]! + t[i]![2]! * c[2]! + t[i]![3]!);
  return Math.hypot(moved[0]! - c[0]!, moved[1]! - c[1]!, moved[2]! - c[2]!);
}

/** At most this many angles are listed; more (a turned part: 23) pushed Apply below the fold at 1024x700. */
const LISTED_TURNS = 6;

/** The ambiguity, in words a metrologist acts on. */
export function ambiguityWords(r: Pick<AlignResult, 'equivalentPoses'>): string {
  const n = r.equivalentPoses.length;
  const others = r.equivalentPoses.slice(1).map((p) => Math.round(p.rotationAngleDegrees));
  const turns =
    others.length > LISTED_TURNS
      ? `${others.slice(0, LISTED_TURNS).map((a) => `${a}°`).join(', ')} … up to ${Math.max(...others)}° (${others.length} poses)`
      : others.map((a) => `${a}°`).join(', ');
  return (
    `Ambiguous: the part fits the scan equally well in ${n} poses (it is symmetric, and nothing on it tells them apart). ` +
    `The one nearest where the scan stands was taken${others.length ? `; the others turn it by ${turns}` : ''}. ` +
    'If a feature (a keyway, a flat) fixes the orientation, check it, or align on 3-2-1 datums.'
  );
}

const ROLE_SHORT: Record<string, string> = { primary: 'A', secondary: 'B', tertiary: 'C', face: '' };

/** Residuals per constraint: what each datum or chosen face left after the alignment. */
function Constraints({ r, unit }: { r: AlignResult; unit: string }) {
  if (!r.constraints.length) return null;
  const datum = r.method === '3-2-1' || r.method === 'datums';
  return (
    <table className="align-constraints" data-testid="align.constraints">
      <thead>
        <tr>
          <th>{datum ? 'Datum' : 'Face'}</th>
          <th title="scan samples attributed to the face">pts</th>
          <th title={datum ? 'RMS of the samples about the feature fitted to them' : 'RMS of the samples against the face'}>{datum ? 'form' : 'RMS'}</th>
          <th title="angle of the fitted feature to the nominal one">angle</th>
          <th title="where the fitted feature stands off the nominal one (a plane: along its normal)">off{unit}</th>
        </tr>
      </thead>
      <tbody>
        {r.constraints.map((c) => (
          <tr key={c.role + c.face} data-testid="align.constraint" data-role={c.role} data-face={c.face}>
            <td>
              {c.role !== 'face' && <i className="swatch" style={{ background: DATUM_COLOURS[c.role] }} aria-hidden="true" />}
              <span title={`${c.kind}${ROLE_SHORT[c.role] ? `, datum ${ROLE_SHORT[c.role]}` : ''}`}>{c.face}</span>
            </td>
            <td>{formatCount(c.points)}</td>
            <td>{c.form !== null ? small(c.form, 3) : c.rms !== null ? small(c.rms, 3) : '–'}</td>
            <td>{c.angleDegrees !== null ? `${small(c.angleDegrees, 2)}°` : '–'}</td>
            <td>{c.distance !== null ? small(c.distance, 3) : c.meanSigned !== null ? small(c.meanSigned, 3) : '–'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const METHOD_WORDS: Record<AlignResult['method'], string> = { bestFit: 'best fit', '3-2-1': '3-2-1 datums', datums: 'datums', localBestFit: 'local best fit' };

/** align_bodies' answer: a preview to Apply or Discard (nothing to apply when nothing is better), then Undo. */
export function AlignmentCard({ alignment, busy }: { alignment: AlignmentState; busy: boolean }) {
  const r = alignment.result;
  const units = useUnits([alignment.movingBodyId, alignment.fixedBodyId]);
  const u = units.short === MODEL_UNITS.short ? '' : ` ${units.short}`;
  const preview = useStore(alignSetupStore, (s) => s.preview);
  const pending = alignment.status === 'proposed' || alignment.status === 'applying';
  const proposal = r.outcome === 'aligned';
  const shift = centreShift(alignment.movingBodyId, r.transform);
  const ref = useRef<HTMLDivElement | null>(null);
  // A new answer comes into view with its buttons (the panel may have been scrolled down to Compare).
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [r]);
  return (
    <div ref={ref} className="alignment-card" data-testid="deviation.alignment" data-status={alignment.status} data-outcome={r.outcome}>
      <p className="align-title">
        <strong>{alignment.movingBodyId}</strong> → <strong>{alignment.fixedBodyId}</strong> · {METHOD_WORDS[r.method]}
        {alignment.status === 'applied' ? ' · applied' : pending && proposal ? ' · preview, not applied' : ''}
        {pending && proposal && (
          <label className="ghost-toggle" title="The scan drawn where Apply would put it, translucent, beside where it stands">
            <input type="checkbox" checked={preview} onChange={(e) => setPreview(e.target.checked)} data-testid="align.preview" />
            <i style={{ background: GHOST_COLOUR }} aria-hidden="true" /> ghost
          </label>
        )}
      </p>
      <dl>
        <Stat label="RMS before" value={`${fig(r.rmsBefore)}${u}`} testId="deviation.align-rms-before" />
        <Stat label={proposal ? 'RMS after' : 'RMS at the best pose found'} value={`${fig(proposal ? r.rmsAfter : (r.rejected?.rmsAfter ?? r.rmsAfter))}${u}`} testId="deviation.align-rms-after" />
        <Stat label="Rotation" value={`${fig(r.rotationAngleDegrees)}°${r.rotationAngleDegrees > 0 ? axisWords(r.rotationAxis) : ''}`} testId="deviation.align-rotation" />
        <Stat label="Translation" value={`${fig(Math.hypot(...r.translation))}${u}`} testId="deviation.align-translation" />
      </dl>
      <p className="hint" data-testid="deviation.align-detail">
        {shift !== null && proposal ? `its centre moves ${fig(shift)}${u} · ` : ''}
        lengths in {units.length} · {(r.overlap * 100).toFixed(0)} % of {formatCount(r.samples)} samples paired · {r.iterations} ICP iterations{r.converged ? '' : ' (not converged)'}
      </p>
      {alignment.error && (
        <p className="error" role="alert">
          <code>{alignment.error.code}</code> {alignment.error.message}
        </p>
      )}
      {!proposal && (
        <p className="hint outcome" data-testid="deviation.align-outcome" data-outcome={r.outcome}>
          {r.outcome === 'alreadyAligned' ? 'Already aligned: the best fit is where the actual stands. Nothing to apply.' : 'No better pose found than where the actual stands (the RMS would not drop). Nothing to apply.'}
        </p>
      )}
      {r.ambiguous && (
        <p className="warning" data-testid="deviation.align-ambiguous">
          {ambiguityWords(r)}
        </p>
      )}
      <Constraints r={r} unit={u} />
      <div className="row">
        {pending && !proposal && (
          <button type="button" className="button small" onClick={() => discardAlignment()} data-testid="deviation.align-discard">
            OK
          </button>
        )}
        {pending && proposal && (
          <>
            <button type="button" className="button small primary" disabled={busy || alignment.status === 'applying'} onClick={() => void applyAlignment()} data-testid="deviation.align-apply">
              {r.warnings.length ? 'Apply anyway' : 'Apply alignment'}
            </button>
            <button type="button" className="button small" disabled={alignment.status === 'applying'} onClick={() => discardAlignment()} data-testid="deviation.align-discard">
              Discard
            </button>
          </>
        )}
        {alignment.status === 'applied' && (
          <button type="button" className="button small" disabled={busy} onClick={() => void undoAlignment()} data-testid="deviation.align-undo" title="set_placement back to where the actual stood before: the file's own position, or the placement it had">
            Undo alignment
          </button>
        )}
      </div>
    </div>
  );
}
