import { useStore } from 'zustand';
import { toolStore, type BodyEntry, type PendingImport } from './stores';
import { assemblyFileOf, openAssemblyOf } from './assembly';
import { removeBody, selectBody, setColor, setOpacity, setVisible } from './bodies';
import { formatCount, formatFigure, formatNumber, kindLabel } from './format';
import { useKernel, useScene } from './useStores';
import { MODEL_UNITS, unitsOf } from './units';
import { validityBadge } from './bodyBadge';
import { laterCopies } from './sameFile';

function counts(entry: BodyEntry): string {
  const s = entry.summary;
  if (s.kind === 'mesh') return `${formatCount(s.triangles ?? s.faces)} triangles`;
  if (s.kind === 'points') return `${formatCount(s.points ?? 0)} points · ${s.hasNormals ? 'with normals' : 'no normals'}`;
  return `${formatCount(s.faces)} faces · ${formatCount(s.solids)} solid${s.solids === 1 ? '' : 's'}`;
}

/** Files read without the CAD kernel (meshes and point clouds): their import never waits for it. */
const MESH_FILE = /\.(stl|ply|obj|3mf|xyz|pts|txt|csv|asc)$/i;

function stageText(p: PendingImport, kernel: string): string {
  switch (p.stage) {
    case 'downloading':
      return `downloading${p.fraction !== undefined ? ` ${Math.round(p.fraction * 100)} %` : '…'}`;
    case 'reading':
      return `reading${p.fraction !== undefined ? ` ${Math.round(p.fraction * 100)} %` : '…'}`;
    case 'importing':
      return kernel !== 'ready' && !MESH_FILE.test(p.fileName) ? 'importing, waiting for the CAD kernel…' : 'importing…';
    case 'drawing':
      return 'preparing the view…';
  }
}

function unitTitle(entry: BodyEntry): string {
  const s = entry.summary;
  if (!s.lengthUnit) return `${s.sourceFormat.toUpperCase()} files declare no length unit: lengths are in the file's own (model) units`;
  return `the file declares ${s.declaredUnit ?? s.lengthUnit}${s.declaredUnit && s.declaredUnit !== s.lengthUnit ? `; lengths are in ${s.lengthUnit}` : ''}`;
}

/** A placement's move in four decimals of the body's unit: an aligned scan moved back 5.757e-5 reads 0.0001. */
function movedText(d: number): string {
  return formatNumber(Number(d.toFixed(4)));
}

/** The scene: every body with its kind, counts, unit and validity; pending imports below. */
export function BodyList() {
  const bodies = useScene((s) => s.bodies);
  const pending = useScene((s) => s.pending);
  const selectedId = useScene((s) => s.selectedId);
  const kernel = useKernel((s) => s.status);
  const running = useStore(toolStore, (s) => s.running);
  // A mesh or cloud without a unit is read in the scene's declared unit when compared (issue 29.4).
  const sceneUnit = unitsOf(bodies.map((b) => b.bodyId)).length;
  const declared = sceneUnit === MODEL_UNITS.length ? null : sceneUnit;
  const copyOf = laterCopies(bodies);
  return (
    <section className="panel body-list" aria-label="Bodies">
      <h2>Bodies</h2>
      {bodies.length === 0 && pending.length === 0 && <p className="hint">No bodies yet.</p>}
      <ul data-testid="bodies.list">
        {bodies.map((b) => {
          const v = validityBadge(b.summary, b.validation);
          const selected = b.bodyId === selectedId;
          return (
            <li key={b.bodyId} className={`body-item${selected ? ' selected' : ''}`} data-testid="bodies.item" data-body-id={b.bodyId}>
              <button type="button" className="body-main" aria-pressed={selected} onClick={() => selectBody(selected ? null : b.bodyId)}>
                <span className="swatch" style={{ background: b.color }} aria-hidden="true" />
                <span className="body-text">
                  <span className="body-name">{b.summary.name}</span>
                  <span className="body-meta">
                    <span className="kind">{kindLabel(b.summary.kind)}</span> {b.summary.sourceFormat.toUpperCase()} · {counts(b)} ·{' '}
                    <span data-testid="bodies.unit" title={unitTitle(b)}>
                      {b.summary.lengthUnit ?? (declared ? `no unit (read in ${declared})` : 'model units')}
                    </span>
                  </span>
                  {b.summary.notes?.map((n) => (
                    <span key={n} className="body-meta body-note">
                      {n}
                    </span>
                  ))}
                  {b.summary.placement && (
                    <span className="body-meta" data-testid="bodies.placement" title={`Placed in the scene by ${b.summary.placement.setBy.tool} (the file is unchanged): every tool measures it where it stands. These figures are the whole placement from the file's own position; the Align card shows what one alignment moved.`}>
                      from its file: turned {formatFigure(b.summary.placement.rotationAngleDegrees)}° · moved {movedText(Math.hypot(...b.summary.placement.translation))}{' '}
                      {b.summary.lengthUnit ?? declared ?? 'model units'}
                    </span>
                  )}
                  {copyOf.get(b.bodyId) && (
                    <span className="body-warning" data-testid="bodies.same-file" data-code="SAME_FILE" title="The same bytes (SHA-256) as that body's file: a second copy, not a second part">
                      same file as {copyOf.get(b.bodyId)}
                    </span>
                  )}
                  {b.meshError && <span className="body-warning">not drawn: {b.meshError.code}</span>}
                  {!b.mesh && !b.meshError && <span className="body-meta">preparing the view…</span>}
                </span>
                <span className={`badge ${v.tone}`} title={v.title} data-testid="bodies.valid" data-by={v.by}>
                  {v.label}
                </span>
              </button>
              <label className="visibility" title="Show or hide">
                <input type="checkbox" checked={b.visible} onChange={(e) => setVisible(b.bodyId, e.target.checked)} aria-label={`Show ${b.bodyId}`} />
              </label>
              <button type="button" className="icon-button" aria-label={`Remove ${b.bodyId}`} title="Remove from the scene" onClick={() => void removeBody(b.bodyId)}>
                ×
              </button>
              <div className="body-style">
                <label className="color-pick" title="Colour">
                  <input type="color" value={b.color} onChange={(e) => setColor(b.bodyId, e.target.value)} aria-label={`Colour of ${b.bodyId}`} />
                </label>
                <label className="opacity">
                  <span className="hint">opacity</span>
                  <input
                    type="range"
                    min={0.1}
                    max={1}
                    step={0.05}
                    value={b.opacity}
                    onChange={(e) => setOpacity(b.bodyId, Number(e.target.value))}
                    aria-label={`Opacity of ${b.bodyId}`}
                  />
                </label>
                {b.bodyId !== b.summary.name && <span className="hint">id {b.bodyId}</span>}
                {assemblyFileOf(b.bodyId) && (
                  <button
                    type="button"
                    className="button small"
                    disabled={!!running}
                    onClick={() => void openAssemblyOf(b.bodyId)}
                    title={`inspect_assembly on the file ${b.summary.name} came from`}
                    data-testid="bodies.assembly"
                  >
                    Assembly tree
                  </button>
                )}
              </div>
            </li>
          );
        })}
        {pending.map((p) => (
          <li key={p.key} className="body-item pending" data-testid="bodies.pending" data-stage={p.stage}>
            <span className="spinner" aria-hidden="true" />
            <span className="body-text">
              <span className="body-name">{p.fileName}</span>
              <span className="body-meta">{stageText(p, kernel)}</span>
              {(p.stage === 'reading' || p.stage === 'downloading') && p.fraction !== undefined && (
                <span
                  className="progress small"
                  role="progressbar"
                  aria-label={`${p.stage} ${p.fileName}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={Math.round(p.fraction * 100)}
                >
                  <span className="progress-fill" style={{ width: `${Math.round(p.fraction * 100)}%` }} />
                </span>
              )}
              {(p.stage === 'importing' || p.stage === 'drawing' || p.fraction === undefined) && (
                <span className="progress small indeterminate" role="progressbar" aria-label={`${p.stage} ${p.fileName}`}>
                  <span className="progress-fill" />
                </span>
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
