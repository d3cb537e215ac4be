import type { BodyEntry } from './stores';
import { removeBody, selectBody, setVisible } from './actions';
import { formatCount } from './format';
import { useKernel, useScene } from './useStores';

function counts(entry: BodyEntry): string {
  const s = entry.summary;
  if (s.kind === 'mesh') return `${formatCount(s.triangles ?? s.faces)} triangles`;
  return `${formatCount(s.faces)} faces · ${formatCount(s.solids)} solid${s.solids === 1 ? '' : 's'}`;
}

function validity(entry: BodyEntry): { label: string; ok: boolean; title: string } {
  const s = entry.summary;
  if (s.kind === 'mesh') {
    if (!s.valid) return { label: 'invalid', ok: false, title: 'non-manifold, degenerate or inconsistently wound triangles' };
    return s.watertight ? { label: 'valid', ok: true, title: 'closed, manifold, consistently wound' } : { label: 'valid · open', ok: true, title: 'manifold but not closed' };
  }
  return s.valid ? { label: 'valid', ok: true, title: 'BRepCheck_Analyzer finds no fault' } : { label: 'invalid', ok: false, title: 'BRepCheck_Analyzer rejects the shape' };
}

/** The scene: every body with its kind, counts and validity; pending imports below. */
export function BodyList() {
  const bodies = useScene((s) => s.bodies);
  const pending = useScene((s) => s.pending);
  const selectedId = useScene((s) => s.selectedId);
  const kernel = useKernel((s) => s.status);
  return (
    <section className="panel body-list" aria-label="Bodies">
      <h2>Bodies</h2>
      {bodies.length === 0 && pending.length === 0 && <p className="hint">No bodies yet.</p>}
      <ul data-testid="body-list">
        {bodies.map((b) => {
          const v = validity(b);
          const selected = b.bodyId === selectedId;
          return (
            <li key={b.bodyId} className={`body-item${selected ? ' selected' : ''}`} data-testid="body-item" data-body-id={b.bodyId}>
              <button type="button" className="body-main" aria-pressed={selected} onClick={() => selectBody(selected ? null : b.bodyId)}>
                <span className="swatch" style={{ background: b.color }} aria-hidden="true" />
                <span className="body-text">
                  <span className="body-name">{b.summary.name}</span>
                  <span className="body-meta">
                    <span className="kind">{b.summary.kind === 'brep' ? 'BREP' : 'mesh'}</span> {b.summary.sourceFormat.toUpperCase()} · {counts(b)}
                  </span>
                  {b.meshError && <span className="body-warning">not drawn: {b.meshError.code}</span>}
                  {!b.mesh && !b.meshError && <span className="body-meta">preparing the view…</span>}
                </span>
                <span className={`badge ${v.ok ? 'ok' : 'bad'}`} title={v.title} data-testid="body-valid">
                  {v.label}
                </span>
              </button>
              <label className="visibility" title="Show or hide">
                <input type="checkbox" checked={b.visible} onChange={(e) => setVisible(b.bodyId, e.target.checked)} aria-label={`Show ${b.summary.name}`} />
              </label>
              <button type="button" className="icon-button" aria-label={`Remove ${b.summary.name}`} onClick={() => void removeBody(b.bodyId)}>
                ×
              </button>
            </li>
          );
        })}
        {pending.map((p) => (
          <li key={p.key} className="body-item pending" data-testid="pending-import">
            <span className="spinner" aria-hidden="true" />
            <span className="body-text">
              <span className="body-name">{p.fileName}</span>
              <span className="body-meta">{kernel !== 'ready' && !/\.stl$/i.test(p.fileName) ? 'importing, waiting for the CAD kernel…' : 'importing…'}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
