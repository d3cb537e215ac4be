import { Fragment } from 'react';
import { useStore } from 'zustand';
import { formatNumber } from './format';
import { alignmentWords, checkAlignment, checkCharacteristics, gdtStore, highlightFaces, pmiBodyOf, toneOf, type CharacteristicRow } from './gdt';
import { kindName } from './gdtNames';
import { inspectStore, toolStore } from './stores';
import { rolePairs } from './roles';
import { useScene } from './useStores';

const num = (v: number | null) => (v === null ? '–' : formatNumber(Number(v.toPrecision(4))));
/** Actual values in mm to 3 decimals (a micrometre), the resolution tolerances are written in; angles too. */
const fixed = (v: number | null) => (v === null ? '–' : v.toFixed(3).replace(/^-(0\.0+)$/, '$1').replace(/^-/, '−'));

const SIZE_SYMBOL: Record<string, string> = { diameter: '⌀', radius: 'R', sphericalDiameter: 'S⌀', sphericalRadius: 'SR' };

/** A size's nominal as a drawing writes it after its name (⌀35, R5, 90°); empty for a tolerance. */
function nominalOf(c: CharacteristicRow): string {
  if (c.tolerance !== null || c.nominal === null) return '';
  return ` ${SIZE_SYMBOL[c.kind] ?? ''}${num(c.nominal)}${c.kind === 'angle' ? '°' : ''}`;
}

/** The name cell: the full name where it fits, the short form where the panel is narrow (app.css), the full name in the tooltip. */
function NameOf({ c }: { c: CharacteristicRow }) {
  const { full, short } = kindName(c.kind);
  const nominal = nominalOf(c);
  return (
    <>
      <span className="gdt-kind-full">{full}</span>
      {short !== full && (
        <abbr className="gdt-kind-short" title={full}>
          {short}
        </abbr>
      )}
      {nominal}
    </>
  );
}

/** The tolerance column: a zone (with any MMC/LMC bonus) or a size's limits. */
export function toleranceText(c: CharacteristicRow): string {
  if (c.tolerance !== null) return c.bonus > 0 ? `${num(c.tolerance)} (bonus ${num(c.bonus)})` : num(c.tolerance);
  if (c.upper === null || c.lower === null) return '–';
  return c.upper === -c.lower ? `±${num(c.upper)}` : `+${num(c.upper)}/${num(c.lower).replace(/^-/, '−')}`;
}

/** Limits like +0.05/−0.1 may wrap after the slash: in the 62 px column they ran into the verdict at 1024 and 1440 px. */
function BreakAfterSlash({ text }: { text: string }) {
  const parts = text.split('/');
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {p}
          {i < parts.length - 1 && (
            <>
              /<wbr />
            </>
          )}
        </Fragment>
      ))}
    </>
  );
}

export function verdictText(c: CharacteristicRow): string {
  if (c.pass === null) return `not evaluated: ${c.reason ?? 'no reason given'}`;
  return `${c.pass ? 'PASS' : 'FAIL'}${c.withinUncertainty ? ", not proven: within the reading's uncertainty of a limit" : ''}`;
}

/**
 * Why a verdict is not proven: the reading within its uncertainty (evaluate_gdt's, from the fit) of
 * a limit. Said under the row, as a reason is, so a GOM user does not take a FAIL by a micrometre on a
 * hole seen on a narrow arc for a scrapped part, nor a PASS by as little for a good one.
 */
export function uncertaintyNote(c: CharacteristicRow): string {
  const limits = c.nominal !== null && c.upper !== null && c.lower !== null ? [c.nominal + c.lower, c.nominal + c.upper] : [];
  const nearest = c.actual === null ? undefined : limits.reduce<number | undefined>((best, l) => (best === undefined || Math.abs(l - c.actual!) < Math.abs(best - c.actual!) ? l : best), undefined);
  const reading = c.actual === null ? '' : `Read ${fixed(c.actual)}${c.uncertainty === undefined ? '' : ` ± ${String(Number(c.uncertainty.toPrecision(2)))}`}`;
  const limit = nearest === undefined ? 'a limit' : `its limit ${fixed(nearest)}`;
  return `${reading}: within its uncertainty of ${limit}. The scan cannot prove this ${c.pass ? 'PASS' : 'FAIL'}; more points on the feature, or all round it, narrow it.`;
}

/**
 * "Check characteristics" and its table (evaluate_gdt on the scene's nominal and actual): one row
 * per characteristic with nominal, actual, tolerance and verdict; a click on a row colours its faces
 * on the nominal by the verdict (green PASS, red FAIL, grey not evaluated).
 */
export function CharacteristicsTable() {
  const bodies = useScene((s) => s.bodies);
  const mark = useStore(inspectStore, (s) => s.nominalMark);
  const pmi = useStore(gdtStore, (s) => s.pmi);
  const check = useStore(gdtStore, (s) => s.check);
  const highlight = useStore(gdtStore, (s) => s.highlight);
  const running = useStore(toolStore, (s) => s.running);
  const onDatums = useStore(gdtStore, (s) => s.onDatums);
  // Read so the hint follows a proposed alignment as it comes and goes.
  useStore(inspectStore, (s) => s.alignment);
  const nominal = pmiBodyOf();
  const pair = rolePairs(bodies, mark).find((p) => p.nominal === nominal);
  const hasPmi = !!pmi?.result && pmi.bodyId === nominal && pmi.result.tolerances.length + pmi.result.dimensions.length > 0;
  if (!nominal || (!hasPmi && !check)) return null;
  const rows = check?.status === 'done' ? check.result!.characteristics : null;
  // The longest datum reference of the PMI's tolerances (A | B | C): what "fit to the datums" fits.
  const reference = hasPmi ? pmi.result!.tolerances.reduce<string[]>((best, t) => (t.datums.length > best.length ? t.datums : best), []) : [];
  const proposed = pair ? checkAlignment(pair.actual, pair.nominal, false) : null;
  const counts = rows ? { pass: rows.filter((c) => c.pass === true).length, fail: rows.filter((c) => c.pass === false).length, none: rows.filter((c) => c.pass === null).length, near: rows.filter((c) => c.withinUncertainty).length } : null;
  return (
    <section className="panel gdt-panel" aria-label="Characteristics" data-testid="gdt.panel">
      <div className="panel-head">
        <h2>Characteristics</h2>
        <button type="button" className="button small" disabled={!pair || !!running} onClick={() => pair && void checkCharacteristics(pair.nominal, pair.actual)} data-testid="gdt.check">
          {rows ? 'Check again' : 'Check characteristics'}
        </button>
      </div>
      {!pair && <p className="hint">Load the scan of this part to check its PMI characteristics on it.</p>}
      {pair && !check && (
        <p className="hint">
          Checks each PMI callout of {pair.nominal} on {pair.actual}
          {proposed ? ', with the proposed alignment (not applied yet).' : `, where ${pair.actual} stands now: align it first.`}
        </p>
      )}
      {pair && reference.length > 0 && (
        <label className="gdt-datums-option" title="evaluate_gdt fits the scan's datum reference frame onto the nominal's before checking (the datum alignment a CMM report assumes)">
          <input type="checkbox" checked={onDatums} onChange={(e) => gdtStore.setState({ onDatums: e.target.checked })} data-testid="gdt.onDatums" />
          Fit to the datums {reference.join(' | ')} first
        </label>
      )}
      {check?.status === 'running' && <p className="hint">Checking the characteristics on {check.actualBodyId}…</p>}
      {check?.status === 'failed' && (
        <p className="error" role="alert">
          <code className="error-code">{check.error?.code}</code> {check.error?.message}
        </p>
      )}
      {rows && counts && (
        <>
          <p className="gdt-summary" data-testid="gdt.summary">
            {check!.actualBodyId} against {check!.nominalBodyId}: <strong>{counts.pass} pass</strong>, <strong>{counts.fail} fail</strong>
            {counts.none ? `, ${counts.none} not evaluated` : ''}
            {counts.near ? ` (${counts.near} not proven: within the reading's uncertainty of a limit)` : ''}; {alignmentWords(check!.result!)}. Lengths in mm, angles in degrees; click a row to see its faces.
          </p>
          <div className="gdt-table-wrap">
            <table className="result-table gdt-table" data-testid="gdt.table">
              <thead>
                <tr>
                  <th>
                    <span className="gdt-kind-full">Characteristic</span>
                    <abbr className="gdt-kind-short" title="Characteristic">
                      Char.
                    </abbr>
                  </th>
                  <th className="num">Actual</th>
                  <th className="num" title="Tolerance zone (with any MMC/LMC bonus) or size limits">Tol.</th>
                  <th>Result</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((c) => {
                  const selected = highlight?.key === c.id && highlight.bodyId === check!.nominalBodyId;
                  const verdict = verdictText(c);
                  return (
                    <Fragment key={c.id}>
                    <tr
                      className={`gdt-row ${toneOf(c.pass)}${selected ? ' selected' : ''}`}
                      tabIndex={0}
                      aria-selected={selected}
                      onClick={() => highlightFaces(check!.nominalBodyId, c.id, c.faces, toneOf(c.pass))}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter' || e.key === ' ') {
                          e.preventDefault();
                          highlightFaces(check!.nominalBodyId, c.id, c.faces, toneOf(c.pass));
                        }
                      }}
                      data-testid="gdt.row"
                      data-id={c.id}
                      data-pass={String(c.pass)}
                    >
                      <td className="gdt-name" title={`${kindName(c.kind).full}${nominalOf(c)}${c.datums.length ? ` | ${c.datums.join(' | ')}` : ''}${c.composite ? `, the ${c.composite} segment of a composite frame` : ''} (${c.id}: ${c.samples} samples, ${c.method})`}>
                        <NameOf c={c} />
                        {c.datums.length > 0 && <span className="gdt-datums">| {c.datums.join(' | ')}</span>}
                        {c.composite && <span className="gdt-datums"> (composite, {c.composite})</span>}
                      </td>
                      <td className="num" title={c.actual === null ? undefined : `${c.actual}${c.uncertainty === undefined ? '' : ` ± ${c.uncertainty} (the fit's uncertainty, k = 2)`}`}>
                        {fixed(c.actual)}
                      </td>
                      <td className="num" title={toleranceText(c)}>
                        {c.tolerance !== null && c.bonus > 0 ? (
                          <>
                            {num(c.tolerance)}
                            <span className="gdt-bonus">(bonus {num(c.bonus)})</span>
                          </>
                        ) : (
                          <BreakAfterSlash text={toleranceText(c)} />
                        )}
                      </td>
                      <td className={`verdict ${toneOf(c.pass)}`} title={verdict}>
                        {c.pass === null ? 'not evaluated' : c.pass ? 'PASS' : 'FAIL'}
                        {c.withinUncertainty && <span className="gdt-unproven" aria-label="not proven"> ≈</span>}
                      </td>
                    </tr>
                    {/* Why, on a line of its own under the row: in the verdict's 54 px column it stood one word a line and ran out of the cell. */}
                    {c.pass === null && (
                      <tr className="gdt-reason-row">
                        <td colSpan={4} className="gdt-reason" data-testid="gdt.reason">
                          {c.reason}
                        </td>
                      </tr>
                    )}
                    {c.pass !== null && c.withinUncertainty && (
                      <tr className="gdt-reason-row">
                        <td colSpan={4} className="gdt-reason" data-testid="gdt.unproven">
                          {uncertaintyNote(c)}
                        </td>
                      </tr>
                    )}
                    </Fragment>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
