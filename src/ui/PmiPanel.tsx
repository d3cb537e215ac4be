import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { formatNumber } from './format';
import { dropGdtOfRemoved, gdtStore, highlightFaces, loadPmi, pmiBodyOf, type PmiResult } from './gdt';
import { adoptPmiTolerance } from './pmiTolerance';
import { inspectStore } from './stores';
import { useScene } from './useStores';

const num = (v: number | null) => (v === null ? '–' : formatNumber(Number(v.toPrecision(6))));

/** Words for PMI kinds (read_pmi's camelCase). */
export function kindWords(kind: string): string {
  return kind.replace(/([A-Z])/g, ' $1').toLowerCase();
}

/** One line of a tolerance as a drawing would read it: position ⌀0.75 | A | B | C. */
export function toleranceLine(t: PmiResult['tolerances'][number]): string {
  const zone = t.zone === 'diameter' ? '⌀' : t.zone === 'sphericalDiameter' ? 'S⌀' : '';
  const mods = t.modifiers.includes('maximumMaterial') ? ' Ⓜ' : t.modifiers.includes('leastMaterial') ? ' Ⓛ' : '';
  const all = (t.modifiers.includes('allAround') ? ' (all around)' : '') + (t.composite ? ` (composite, ${t.composite.segment} segment)` : '');
  return `${kindWords(t.kind)} ${zone}${num(t.value)}${mods}${t.datums.length ? ' | ' + t.datums.join(' | ') : ''}${all}`;
}

function dimensionLine(d: PmiResult['dimensions'][number]): string {
  const sym = d.kind === 'diameter' ? '⌀' : d.kind === 'radius' ? 'R' : '';
  if (d.nominal === null) return `${kindWords(d.kind)} (no value)`;
  const unit = d.kind === 'angle' ? '°' : '';
  const tol = d.upper === null || d.lower === null ? '' : d.upper === -d.lower ? ` ±${num(d.upper)}` : ` +${num(d.upper)} / ${num(d.lower)}`;
  return `${kindWords(d.kind)} ${sym}${num(d.nominal)}${unit}${tol}`;
}

interface Entry {
  key: string;
  label: string;
  faces: string[];
}

function Group({ title, entries, bodyId, selectedKey, testId }: { title: string; entries: Entry[]; bodyId: string; selectedKey: string | null; testId: string }) {
  const [open, setOpen] = useState(true);
  if (entries.length === 0) return null;
  return (
    <li role="treeitem" aria-expanded={open} aria-selected={false} className="pmi-group">
      <button type="button" className="pmi-group-head" onClick={() => setOpen(!open)}>
        {open ? '▾' : '▸'} {title} ({entries.length})
      </button>
      {open && (
        <ul role="group">
          {entries.map((e) => {
            const faces = e.faces.filter((f) => f.startsWith('face[')).length;
            return (
              <li key={e.key} role="treeitem" aria-selected={selectedKey === e.key}>
                <button
                  type="button"
                  className={`pmi-entry${selectedKey === e.key ? ' selected' : ''}`}
                  onClick={() => highlightFaces(bodyId, e.key, e.faces, 'pmi')}
                  disabled={faces === 0}
                  title={faces ? `Highlight its ${faces} face(s) in the view` : 'No face attached in the file'}
                  data-testid={testId}
                  data-key={e.key}
                >
                  <span className="pmi-label">{e.label}</span>
                  <span className="pmi-faces">{faces ? `${faces} face${faces > 1 ? 's' : ''}` : 'no face'}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </li>
  );
}

/**
 * The nominal's PMI (read_pmi): datums, dimensions and geometric tolerances as a tree beside the
 * assembly tree. A click on an entry highlights its faces on the nominal (teal); a second click lets
 * go. Read once per STEP nominal, in the worker, without taking the tool panel.
 */
export function PmiPanel() {
  const bodies = useScene((s) => s.bodies);
  // The nominal follows the user's mark: re-read which body that is when it changes.
  useStore(inspectStore, (s) => s.nominalMark);
  const pmi = useStore(gdtStore, (s) => s.pmi);
  const highlight = useStore(gdtStore, (s) => s.highlight);
  const bodyId = pmiBodyOf();
  useEffect(() => {
    dropGdtOfRemoved(new Set(bodies.map((b) => b.bodyId)));
    // The tolerance field follows the nominal's general tolerance, when its PMI has one (pmiTolerance.ts).
    if (bodyId) void loadPmi(bodyId).then(adoptPmiTolerance);
    else adoptPmiTolerance();
  }, [bodies, bodyId]);
  if (!bodyId || !pmi || pmi.bodyId !== bodyId) return null;
  const r = pmi.result;
  const selectedKey = highlight?.bodyId === bodyId ? highlight.key : null;
  return (
    <section className="panel pmi-panel" aria-label="PMI" data-testid="pmi.panel">
      <h2>PMI of {bodyId}</h2>
      {pmi.status === 'running' && <p className="hint">Reading the drawing callouts (PMI) in the STEP file…</p>}
      {pmi.status === 'failed' && (
        <p className="error" role="alert">
          <code className="error-code">{pmi.error?.code}</code> {pmi.error?.message}
        </p>
      )}
      {r && r.datums.length + r.dimensions.length + r.tolerances.length === 0 && <p className="hint">This file carries no semantic PMI (datums, dimensions or tolerances).</p>}
      {r && r.datums.length + r.dimensions.length + r.tolerances.length > 0 && (
        <>
          <p className="hint">Click a callout to see its faces.</p>
          <ul role="tree" aria-label={`PMI of ${bodyId}`} className="pmi-tree" data-testid="pmi.tree">
            <Group title="Datums" bodyId={bodyId} selectedKey={selectedKey} testId="pmi.datum" entries={r.datums.map((d) => ({ key: `datum ${d.label}`, label: `${d.label} (${d.kind})`, faces: d.faces }))} />
            <Group title="Tolerances" bodyId={bodyId} selectedKey={selectedKey} testId="pmi.tolerance" entries={r.tolerances.map((t) => ({ key: t.id, label: toleranceLine(t), faces: t.faces }))} />
            <Group title="Dimensions" bodyId={bodyId} selectedKey={selectedKey} testId="pmi.dimension" entries={r.dimensions.map((d) => ({ key: d.id, label: dimensionLine(d), faces: d.faces }))} />
          </ul>
        </>
      )}
    </section>
  );
}
