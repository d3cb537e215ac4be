import { undoAlignment } from './alignment';
import { formatFigure } from './format';
import type { LinkPlacement } from './stores';
import { MODEL_UNITS } from './units';
import { useScene, useUnits } from './useStores';

/**
 * A placement a share link set, in the alignment card's place: the body stands where the link's
 * author had it (the exact motion, no ICP rerun, so no RMS to show); Undo puts it back where it stood
 * before the link placed it.
 */
export function LinkPlacementCard({ placement, busy }: { placement: LinkPlacement; busy: boolean }) {
  const summary = useScene((s) => s.bodies.find((b) => b.bodyId === placement.movingBodyId)?.summary.placement ?? null);
  // The motion is in the scene's unit: mm when a body declares it (a scan without a unit placed on a
  // STEP part is read in mm, as the comparison does); "model units" only when none does.
  const ids = useScene((s) => s.bodies.map((b) => b.bodyId).join('\n'));
  const units = useUnits(ids.split('\n'));
  return (
    <div className="alignment-card" data-testid="deviation.alignment" data-status={placement.status} data-origin="link">
      <p>
        <strong>{placement.movingBodyId}</strong> placed by the share link
      </p>
      {summary && (
        <dl>
          <div className="stat">
            <dt>Rotation</dt>
            <dd data-testid="deviation.align-rotation">{formatFigure(summary.rotationAngleDegrees)}°</dd>
          </div>
          <div className="stat">
            <dt>Translation</dt>
            <dd data-testid="deviation.align-translation">{formatFigure(Math.hypot(...summary.translation))}{units === MODEL_UNITS ? '' : ` ${units.short}`}</dd>
          </div>
        </dl>
      )}
      <p className="hint">{units.length} · from {placement.previous ? 'where it stood before the link' : "its file's position"} · the link's exact motion, not a new alignment</p>
      {placement.error && (
        <p className="error" role="alert">
          <code>{placement.error.code}</code> {placement.error.message}
        </p>
      )}
      <div className="row">
        <button
          type="button"
          className="button small"
          disabled={busy}
          onClick={() => void undoAlignment()}
          data-testid="deviation.align-undo"
          title={placement.previous ? 'set_placement: back where it stood before the link placed it' : "set_placement without a transform: back where its file put it"}
        >
          Undo placement
        </button>
      </div>
    </div>
  );
}
