import { clearPick } from './picking';
import { CopyableValues, ValueTree } from './ValueTree';
import { useScene, useUnits } from './useStores';

/** The picked face or edge: its id and its query_topology entry. */
export function SelectionPanel() {
  const picked = useScene((s) => s.picked);
  const kind = useScene((s) => s.bodies.find((b) => b.bodyId === s.picked?.bodyId)?.summary.kind);
  const units = useUnits([picked?.bodyId]);
  if (!picked) return null;
  return (
    <section className="panel pick-panel" aria-label={`Picked ${picked.entity}`} data-testid="pick.panel" data-entity={picked.entity} data-face-id={picked.id} data-body-id={picked.bodyId}>
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
