import { useStore } from 'zustand';
import { clearPick } from './picking';
import { CopyableValues, ValueTree } from './ValueTree';
import { useScene, useUnits } from './useStores';
import { viewCoverStore } from './viewCovers';

/** The card's width (app.css .pick-panel; 220 in a view under 640 px wide) and its margin from the view's edges. */
const CARD_WIDTH = 300;
const COMPACT_CARD_WIDTH = 220;
const MARGIN = 10;

/**
 * The card's top: beside the view toolbar when both fit across the view, else under it. At 1024x700
 * (a 485 px view) the card sat over the toolbar's Grid, Axes and Edges buttons while a face was picked.
 */
export function cardTop(view: { width: number }, toolbar: { left: number; top: number; width: number; height: number } | undefined): number {
  if (!toolbar) return MARGIN;
  const width = view.width < 640 ? COMPACT_CARD_WIDTH : CARD_WIDTH;
  return toolbar.left + toolbar.width + MARGIN <= view.width - MARGIN - width ? MARGIN : toolbar.top + toolbar.height + 8;
}

/** The picked face or edge: its id and its query_topology entry. */
export function SelectionPanel() {
  const picked = useScene((s) => s.picked);
  const kind = useScene((s) => s.bodies.find((b) => b.bodyId === s.picked?.bodyId)?.summary.kind);
  const units = useUnits([picked?.bodyId]);
  const top = useStore(viewCoverStore, (s) => cardTop(s.view, s.covers.toolbar));
  if (!picked) return null;
  return (
    <section
      className="panel pick-panel"
      style={top === MARGIN ? undefined : { top }}
      aria-label={`Picked ${picked.entity}`} data-testid="pick.panel" data-entity={picked.entity} data-face-id={picked.id} data-body-id={picked.bodyId}>
      <div className="panel-head">
        <h2>
          Picked · {picked.bodyId} <code data-testid="pick.id">{picked.id}</code>
        </h2>
        <button type="button" className="icon-button" aria-label={`Clear the picked ${picked.entity}`} onClick={clearPick}>
          ×
        </button>
      </div>
      {kind === 'mesh' && picked.entity === 'face' && <p className="hint">A mesh body has one face per triangle: face[N] is triangle N.</p>}
      {picked.status === 'loading' && <p className="hint">Asking query_topology…</p>}
      {picked.status === 'failed' && picked.error && (
        <p className="error" role="alert">
          <code className="error-code">{picked.error.code}</code> {picked.error.message}
        </p>
      )}
      {picked.status === 'done' &&
        (picked.entry ? (
          <CopyableValues label={`${picked.id} topology entry`}>
            <ValueTree value={picked.entry} name="topology entry" units={units} />
          </CopyableValues>
        ) : (
          <p className="hint">query_topology has no entry {picked.id}.</p>
        ))}
    </section>
  );
}
