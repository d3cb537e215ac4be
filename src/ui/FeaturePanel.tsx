import { useStore } from 'zustand';
import type { Feature } from '../engine';
import { findFeatures, hoverFeature, selectFeature } from './features';
import { formatNumber } from './format';
import { inspectStore, toolStore } from './stores';
import type { Units } from './units';
import { useScene, useUnits } from './useStores';

const num = (v: number) => formatNumber(Number(v.toPrecision(4)));

/** A feature's key dimensions in words: ⌀ 8 × 24 mm, through; 40 × 20 × 5 mm, closed. */
function dimensions(f: Feature, units: Units): string {
  if (f.kind === 'hole') return `⌀ ${num(f.diameter)} × ${num(f.depth)} ${units.length}${f.through === null ? '' : f.through ? ', through' : ', blind'}`;
  return `${num(f.length)} × ${num(f.width)} × ${num(f.depth)} ${units.length}, ${f.closed ? 'closed' : 'open'}`;
}

/**
 * Holes and pockets of the selected BREP body (recognize_features, docs/features.md): hovering or
 * focusing a row highlights its faces in 3D, a click keeps them highlighted (a second click lets
 * go); the row names the faces by id (face[N]) as picking and query_topology do.
 */
export function FeaturePanel() {
  const selectedId = useScene((s) => s.selectedId);
  const body = useScene((s) => s.bodies.find((b) => b.bodyId === s.selectedId));
  const features = useStore(inspectStore, (s) => (s.features && s.features.bodyId === selectedId ? s.features : null));
  const running = useStore(toolStore, (s) => s.running);
  const units = useUnits([selectedId]);
  if (!body || body.summary.kind !== 'brep') return null;
  const list = features?.status === 'done' ? features.features : null;
  return (
    <section className="panel feature-panel" aria-label="Features" data-testid="features.panel">
      <div className="panel-head">
        <h2>Holes and pockets</h2>
        <button type="button" className="button small" disabled={!!running} onClick={() => void findFeatures(body.bodyId)} data-testid="features.find">
          {list ? 'Find again' : `Find in ${body.bodyId}`}
        </button>
      </div>
      {features?.status === 'running' && <p className="hint">Looking for holes and pockets…</p>}
      {features?.status === 'failed' && (
        <p className="error" role="alert">
          <code className="error-code">{features.error?.code}</code> {features.error?.message}
        </p>
      )}
      {list && list.length === 0 && <p className="hint">No hole or pocket found (docs/features.md says what counts).</p>}
      {list && list.length > 0 && (
        <ul className="feature-list" role="listbox" aria-label={`Holes and pockets of ${body.bodyId}: hover or focus one to see its faces, click to keep them highlighted`} onMouseLeave={() => hoverFeature(null)}>
          {list.map((f, i) => {
            const selected = features!.selected === i;
            return (
              <li key={f.faces.join(' ')} role="option" aria-selected={selected}>
                <button
                  type="button"
                  className={`feature-row${selected ? ' selected' : ''}${features!.hovered === i ? ' hovered' : ''}`}
                  onMouseEnter={() => hoverFeature(i)}
                  onFocus={() => hoverFeature(i)}
                  onBlur={() => hoverFeature(null)}
                  onClick={() => selectFeature(i)}
                  data-testid="features.item"
                  data-index={i}
                  data-kind={f.kind}
                >
                  <span className={`feature-kind ${f.kind}`}>{f.kind === 'hole' ? 'Hole' : 'Pocket'}</span>
                  <span className="feature-dims">{dimensions(f, units)}</span>
                  <span className="feature-faces hint" title={f.faces.join(', ')}>
                    {f.faces.length === 1 ? f.faces[0] : `${f.faces.length} faces: ${f.faces.slice(0, 3).join(', ')}${f.faces.length > 3 ? ' …' : ''}`}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
