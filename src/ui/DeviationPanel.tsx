import { useId, useMemo, useRef, useState } from 'react';
import type { DirectedRecord } from '../engine';
import { useStore } from 'zustand';
import { formatCount, formatNumber, roundStep } from './format';
import { AMBIGUOUS, cssColor, deviationColor, NEUTRAL, NO_DATA } from './heatColors';
import { alignBodies, applyAlignment, discardAlignment, undoAlignment } from './alignment';
import { alignRoles, clearHeatmap, comparePairs, compareBodies, downloadReport, flyTo, plotDeviationSections, removeLabel, setLabelAdding, setTolerance, swapRoles } from './deviationReview';
import type { ShownError } from './stores';
import { cutSections } from './sections';
import { LinkPlacementCard } from './LinkPlacementCard';
import { inspectStore, toolStore, type AlignmentState, type HeatState, type Vec3 } from './stores';
import type { Units } from './units';
import { useCompactView } from './useCompactView';
import { useScene, useUnits } from './useStores';

/** Model units, 4 significant digits, with an explicit sign. */
export function signed(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const s = Number(v.toPrecision(4));
  return `${s > 0 ? '+' : s < 0 ? '−' : ''}${formatNumber(Math.abs(s))}`;
}

function percent(share: number | null | undefined): string {
  return share === null || share === undefined ? '–' : `${(share * 100).toFixed(1)} %`;
}

/** The colour bar's CSS gradient over [-m, m]: both arms sampled, the tolerance band one flat neutral. */
function gradient(m: number, tol: number): string {
  if (!(m > 0)) return cssColor(NEUTRAL);
  const stops: string[] = [];
  const pct = (x: number) => `${(((x + m) / (2 * m)) * 100).toFixed(2)}%`;
  const arm = (sign: 1 | -1) => {
    const n = 12;
    const out: string[] = [];
    for (let i = 0; i <= n; i++) {
      const a = tol + ((m - tol) * i) / n;
      const x = sign * a;
      out.push(`${cssColor(deviationColor(x === 0 ? sign * 1e-12 : x, m, Math.min(tol, a - 1e-12)))} ${pct(x)}`);
    }
    return out;
  };
  stops.push(...arm(-1).reverse());
  if (tol > 0) stops.push(`${cssColor(NEUTRAL)} ${pct(-tol)}`, `${cssColor(NEUTRAL)} ${pct(tol)}`);
  stops.push(...arm(1));
  return `linear-gradient(to right, ${stops.join(', ')})`;
}

/** Legend in the bodies' unit: the symmetric range, the tolerance band, ambiguous grey, no data; the band is adjustable. */
function Legend({ heat, units }: { heat: HeatState; units: Units }) {
  const m = heat.range;
  const tol = heat.tolerance;
  const inputId = useId();
  const [text, setText] = useState<string | null>(null);
  const bar = useMemo(() => gradient(m, Math.min(tol, m)), [m, tol]);
  // The band's own ticks only when they cannot collide with 0 and the ends.
  const ticks = m > 0 ? [-m, ...(tol > 0.3 * m && tol < 0.7 * m ? [-tol, tol] : []), 0, m] : [0];
  return (
    <div className="legend" data-testid="heat.legend" aria-label="Deviation colour legend">
      <p className="sign-convention" data-testid="heat.sign">
        <strong>+</strong> {heat.fromBodyId} outside {heat.toBodyId} · <strong>−</strong> inside
      </p>
      <div className="legend-bar" style={{ background: bar }} role="img" aria-label={`blue shy to red proud, from ${signed(-m)} to ${signed(m)} ${units.length}; within ±${formatNumber(tol)} neutral`} />
      <div className="legend-ticks">
        {ticks.map((t) => (
          <span key={t} className={m > 0 && t === -m ? 'first' : m > 0 && t === m ? 'last' : undefined} style={{ left: `${m > 0 ? ((t + m) / (2 * m)) * 100 : 50}%` }}>
            {signed(t)}
          </span>
        ))}
      </div>
      <div className="legend-keys">
        <span>
          <i style={{ background: cssColor(deviationColor(-m, m, 0)) }} /> shy (inside)
        </span>
        <span>
          <i style={{ background: cssColor(NEUTRAL) }} /> within ±{formatNumber(tol)}
        </span>
        <span>
          <i style={{ background: cssColor(deviationColor(m, m, 0)) }} /> proud (outside)
        </span>
        <span>
          <i style={{ background: cssColor(AMBIGUOUS) }} /> ambiguous
        </span>
        {hasNoData(heat) && (
          <span data-testid="heat.legend-no-data" title={`no counterpart on ${heat.toBodyId}: beyond its open boundary or farther than ${formatNumber(Number((heat.maxDistance ?? 0).toPrecision(3)))} ${units.length}; left out of every figure`}>
            <i style={{ background: cssColor(NO_DATA) }} /> no data
          </span>
        )}
      </div>
      <p className="hint">
        {units.length} · colours saturate beyond ±{formatNumber(Number(m.toPrecision(3)))} (99th percentile of |d| at the coloured vertices)
      </p>
      <div className="tolerance">
        <label htmlFor={inputId}>Tolerance&nbsp;±</label>
        <input
          id={inputId}
          type="number"
          min={0}
          step="any"
          value={text ?? String(Number(tol.toPrecision(6)))}
          onChange={(e) => {
            setText(e.target.value);
            const v = Number(e.target.value);
            if (e.target.value.trim() !== '' && Number.isFinite(v) && v >= 0) setTolerance(v);
          }}
          onBlur={() => setText(null)}
          data-testid="heat.tolerance"
        />
        <input
          type="range"
          min={0}
          max={m > 0 ? m : 1}
          step={roundStep(m > 0 ? m / 100 : 0.01)}
          value={Math.min(tol, m)}
          aria-label="Tolerance band"
          onChange={(e) => {
            setText(null);
            setTolerance(Number(e.target.value));
          }}
          data-testid="heat.tolerance-slider"
        />
      </div>
    </div>
  );
}

/** Whether the review has samples or coloured vertices without a counterpart on the reference. */
function hasNoData(heat: HeatState): boolean {
  return (heat.noDataVertices ?? 0) > 0 || (heat.histogram?.noDataSamples ?? 0) > 0;
}

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

/** The stats card: deviation_histogram's figures, from measure_deviation's own samples at its settings. */
function StatsCard({ heat, units }: { heat: HeatState; units: Units }) {
  const h = heat.histogram;
  if (heat.histogramStatus === 'failed') {
    return (
      <p className="error" role="alert">
        <code>{heat.histogramError?.code}</code> {heat.histogramError?.message}
      </p>
    );
  }
  if (!h) return <p className="hint">Sampling the surface for the statistics…</p>;
  return (
    <div className="stats-card" data-testid="heat.stats">
      <dl>
        <Stat label="Signed mean" value={signed(h.mean)} testId="heat.stat-mean" />
        <Stat label="Sigma" value={h.std === null ? '–' : formatNumber(Number(h.std.toPrecision(4)))} testId="heat.stat-sigma" />
        <Stat label="p95 |d|" value={formatNumber(Number(h.p95.toPrecision(4)))} testId="heat.stat-p95" />
        <Stat label="Max |d|" value={formatNumber(Number(h.maxAbs.toPrecision(4)))} testId="heat.stat-max" />
        <Stat label={`Within ±${formatNumber(heat.tolerance)}`} value={percent(h.withinTolerance)} testId="heat.stat-within" />
        <Stat label="Ambiguous" value={percent(h.ambiguousFraction)} testId="heat.stat-ambiguous" />
        <Stat label="No data" value={`${formatCount(h.noDataSamples)} (${percent(h.noDataSamples / (h.samples + h.noDataSamples))})`} testId="heat.stat-no-data" />
      </dl>
      <p className="hint" data-testid="heat.settings">
        {units.note ?? units.length} · {formatCount(h.samples)} samples of {heat.fromBodyId} against {heat.toBodyId} · deflection {formatNumber(Number(h.deflection.toPrecision(4)))}
        {heat.settings.deflection === undefined ? ' (default)' : ''} · max distance {formatNumber(Number(h.maxDistance.toPrecision(3)))}
        {heat.settings.maxDistance === undefined ? ' (default)' : ''} · {h.signMode}, as the last measure_deviation
        {heat.histogramStatus === 'running' ? ' · updating…' : ''}
      </p>
    </div>
  );
}

const AXES: Record<string, Vec3> = { x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] };

/** Stations along an axis: measure_deviation's sections (chart) and cross_section_compare (planes and images). */
function SectionControls() {
  const running = useStore(toolStore, (s) => s.running);
  const [axis, setAxis] = useState('x');
  const [count, setCount] = useState('12');
  const axisId = useId();
  const countId = useId();
  const n = Math.round(Number(count));
  const ok = Number.isFinite(n) && n >= 2 && n <= 200;
  return (
    <fieldset className="section-controls">
      <legend>Along an axis</legend>
      <div className="row">
        <label htmlFor={axisId}>Axis</label>
        <select id={axisId} value={axis} onChange={(e) => setAxis(e.target.value)} data-testid="deviation.section-axis">
          <option value="x">x</option>
          <option value="y">y</option>
          <option value="z">z</option>
        </select>
        <label htmlFor={countId}>Stations</label>
        <input id={countId} type="number" min={2} max={200} value={count} onChange={(e) => setCount(e.target.value)} className="short" />
      </div>
      <div className="row">
        <button type="button" className="button small" disabled={!!running || !ok} onClick={() => void plotDeviationSections(AXES[axis]!, n)} data-testid="deviation.plot-sections">
          Plot deviation along {axis}
        </button>
        <button type="button" className="button small" disabled={!!running || !ok} onClick={() => void cutSections(AXES[axis]!, n)} data-testid="deviation.cut-sections">
          Cut sections along {axis}
        </button>
      </div>
    </fieldset>
  );
}

/** What the roles mean for a model and a scan, in the words of each trade. */
function rolesNote(from: string, to: string, kind: (bodyId: string) => string | undefined): string {
  if (kind(from) === 'mesh' && kind(to) === 'brep') return `Inspection: ${from} is the actual, ${to} the nominal; + is material added, − material missing.`;
  if (kind(from) === 'brep' && kind(to) === 'mesh') return `Reverse engineering (the spec's framing): ${from} is the candidate, ${to} the reference; + where the model stands proud of the scan.`;
  return `+ where ${from} lies outside ${to}, − inside.`;
}

/** Which body is measured (coloured) and which is the reference, and the swap (before and after a run). */
function Roles({ from, to, running }: { from: string; to: string; running: boolean }) {
  const bodies = useScene((s) => s.bodies);
  const kind = (bodyId: string) => bodies.find((b) => b.bodyId === bodyId)?.summary.kind;
  return (
    <div className="roles" data-testid="deviation.roles">
      <dl className="kv">
        <div>
          <dt>Measured (coloured)</dt>
          <dd data-testid="deviation.measured">{from}</dd>
        </div>
        <div>
          <dt>Reference</dt>
          <dd data-testid="deviation.reference">{to}</dd>
        </div>
      </dl>
      <button type="button" className="button small" disabled={running} onClick={() => void swapRoles()} data-testid="deviation.swap" title={`Measure ${to} against ${from} instead`}>
        ⇄ Swap roles
      </button>
      <p className="hint" data-testid="deviation.roles-note">
        {rolesNote(from, to, kind)}
      </p>
    </div>
  );
}

/** Deviation labels: "Add labels" makes a click on the coloured body place one; each is listed with its value and can be removed. */
function LabelList({ heat }: { heat: HeatState }) {
  const labels = heat.labels;
  const adding = labels?.adding ?? false;
  const points = labels?.points ?? [];
  return (
    <fieldset className="label-list" data-testid="deviation.labels">
      <legend>Labels</legend>
      <button type="button" className="button small" aria-pressed={adding} onClick={() => setLabelAdding(!adding)} data-testid="deviation.add-labels">
        {adding ? `Done adding labels` : 'Add labels'}
      </button>
      {adding && <p className="hint">Click the coloured surface of {heat.fromBodyId} to place a label.</p>}
      {points.length > 0 && (
        <ol>
          {points.map((p, i) => {
            const l = labels?.status === 'done' ? labels.result?.[i] : undefined;
            return (
              <li key={`${i}:${p.join(',')}`} data-testid="deviation.label">
                <span data-testid="deviation.label-value">{l ? (l.signed === null ? `±${formatNumber(Number(l.distance.toPrecision(4)))} (sign ?)` : signed(l.signed)) : '…'}</span>{' '}
                {l && <span className={l.pass ? 'pass' : 'fail'}>{l.pass ? 'PASS' : 'FAIL'}</span>}{' '}
                <button type="button" className="icon-button" onClick={() => removeLabel(i)} title={`Remove label ${i + 1}`} data-testid="deviation.label-remove">
                  ×
                </button>
              </li>
            );
          })}
        </ol>
      )}
      {labels?.status === 'failed' && (
        <p className="error" role="alert">
          <code>{labels.error?.code}</code> {labels.error?.message}
        </p>
      )}
    </fieldset>
  );
}

/** "Download report": the comparison on screen as one self-contained HTML file (inspection_report). */
function ReportButton() {
  const running = useStore(toolStore, (s) => s.running);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  return (
    <div className="report-row">
      <button
        type="button"
        className="button small"
        disabled={!!running || busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          void downloadReport().then((e) => {
            setBusy(false);
            setError(e);
          });
        }}
        data-testid="deviation.download-report"
        title="inspection_report: statistics, heat-map views with labels, histogram and settings in one HTML file that opens offline"
      >
        {busy ? 'Writing report…' : 'Download report'}
      </button>
      {error && (
        <p className="error" role="alert" data-testid="deviation.report-error">
          <code>{error.code}</code> {error.message}
        </p>
      )}
    </div>
  );
}

/** align_bodies' answer: RMS before and after, the motion, warnings; Apply / Discard, then Undo. */
function AlignmentCard({ alignment, busy }: { alignment: AlignmentState; busy: boolean }) {
  const r = alignment.result;
  const shift = Math.hypot(...r.translation);
  return (
    <div className="alignment-card" data-testid="deviation.alignment" data-status={alignment.status}>
      <p>
        <strong>{alignment.movingBodyId}</strong> to <strong>{alignment.fixedBodyId}</strong>
        {alignment.status === 'applied' ? ' · applied' : alignment.status === 'proposed' ? ' · not applied yet' : ''}
      </p>
      <dl>
        <Stat label="RMS before" value={formatNumber(Number(r.rmsBefore.toPrecision(4)))} testId="deviation.align-rms-before" />
        <Stat label="RMS after" value={formatNumber(Number(r.rmsAfter.toPrecision(4)))} testId="deviation.align-rms-after" />
        <Stat label="Rotation" value={`${formatNumber(Number(r.rotationAngleDegrees.toPrecision(4)))}°`} testId="deviation.align-rotation" />
        <Stat label="Translation" value={formatNumber(Number(shift.toPrecision(4)))} testId="deviation.align-translation" />
      </dl>
      <p className="hint">
        model units · {r.iterations} ICP iterations{r.converged ? '' : ' (not converged)'} · {(r.overlap * 100).toFixed(0)} % of {formatCount(r.samples)} samples paired ·{' '}
        {r.surface === 'exact' ? 'against the exact surface' : 'against the triangles'}
      </p>
      {r.warnings.map((w) => (
        <p key={w.message} className="warning" data-testid="deviation.align-warning" data-code={w.code}>
          {w.message}
        </p>
      ))}
      {alignment.error && (
        <p className="error" role="alert">
          <code>{alignment.error.code}</code> {alignment.error.message}
        </p>
      )}
      <div className="row">
        {(alignment.status === 'proposed' || alignment.status === 'applying') && (
          <>
            <button type="button" className="button small primary" disabled={busy || alignment.status === 'applying'} onClick={() => void applyAlignment()} data-testid="deviation.align-apply">
              Apply alignment
            </button>
            <button type="button" className="button small" disabled={alignment.status === 'applying'} onClick={() => discardAlignment()} data-testid="deviation.align-discard">
              Discard
            </button>
          </>
        )}
        {alignment.status === 'applied' && (
          <button type="button" className="button small" disabled={busy} onClick={() => void undoAlignment()} data-testid="deviation.align-undo" title="set_placement without a transform: back where the file put it">
            Undo alignment
          </button>
        )}
      </div>
    </div>
  );
}

/** "Align <scan> to <part>" for a compared pair: the scan (a mesh or a point cloud) moves, after the user confirms. */
function AlignButton({ pair, running, testId }: { pair: { from: string; to: string }; running: boolean; testId: string }) {
  const { moving, fixed } = alignRoles(pair);
  return (
    <button
      type="button"
      className="button small"
      disabled={running}
      onClick={() => void alignBodies(moving, fixed)}
      data-testid={testId}
      data-moving={moving}
      title="align_bodies: pre-alignment on principal axes, then ICP against the exact surface; you confirm before the scan moves"
    >
      Align {moving} to {fixed}
    </button>
  );
}

/** Deviation review (right panel): the Compare offer, then legend, tolerance, stats, worst point. */
export function DeviationPanel() {
  const bodies = useScene((s) => s.bodies);
  const heat = useStore(inspectStore, (s) => s.heat);
  const running = useStore(toolStore, (s) => s.running);
  const measured = useStore(inspectStore, (s) => s.measured);
  const alignment = useStore(inspectStore, (s) => s.alignment);
  const pairs = useMemo(() => comparePairs(), [bodies, measured]);
  const pair = pairs[0];
  if (!pair && !heat) return null;
  const shown = heat ? { from: heat.fromBodyId, to: heat.toBodyId } : pair;
  return (
    <section className="panel deviation-panel" aria-label="Deviation review" data-testid="deviation.panel">
      <h2>Deviation review</h2>
      {shown && <Roles from={shown.from} to={shown.to} running={!!running} />}
      {pair && <AlignButton pair={pair} running={!!running} testId="deviation.align" />}
      {alignment && (alignment.origin === 'link' ? <LinkPlacementCard placement={alignment} busy={!!running} /> : <AlignmentCard alignment={alignment} busy={!!running} />)}
      {pair && (
        <button
          type="button"
          className={`button ${heat ? 'small' : 'primary compare'}`}
          disabled={!!running}
          onClick={() => void (heat ? compareBodies(heat.fromBodyId, heat.toBodyId) : compareBodies(pair.from, pair.to))}
          data-testid="deviation.compare"
          title="measure_deviation with the spec's defaults, then the heat map, histogram and statistics"
        >
          {heat ? 'Compare again' : `Compare ${pair.from} with ${pair.to}`}
        </button>
      )}
      {pairs.slice(1).map((p) => (
        <div key={p.from} className="row">
          <AlignButton pair={p} running={!!running} testId="deviation.align-pair" />
          <button
            type="button"
            className="button small"
            disabled={!!running}
            onClick={() => void compareBodies(p.from, p.to)}
            data-testid="deviation.compare-pair"
            data-from={p.from}
            title="measure_deviation of the point cloud against the part, then its points coloured by deviation"
          >
            Compare {p.from} with {p.to}
          </button>
        </div>
      ))}
      {heat && (
        <p className="heat-title" data-testid="deviation.heat" data-status={heat.status}>
          <strong>{heat.fromBodyId}</strong> coloured against <strong>{heat.toBodyId}</strong>
          {heat.status === 'running' && <span className="hint"> · colouring…</span>}
          {heat.status === 'done' && <span className="hint"> · legend and statistics on the view</span>}
        </p>
      )}
      {heat?.status === 'failed' && (
        <p className="error" role="alert" data-testid="deviation.error">
          <code>{heat.error?.code}</code> {heat.error?.message}
        </p>
      )}
      {heat?.status === 'done' && <LabelList heat={heat} />}
      {heat?.status === 'done' && <ReportButton />}
      {(heat || pair) && <SectionControls />}
    </section>
  );
}

/**
 * Over the viewport, as in inspection software: legend with the tolerance band, statistics, worst
 * point. Folded, it keeps the colour bar and the worst point; it starts folded when the view is
 * compact (a small window), so the part stays in sight, until the user opens or folds it.
 */
export function HeatOverlay() {
  const heat = useStore(inspectStore, (s) => s.heat);
  const [open, setOpen] = useState<boolean | null>(null);
  if (heat?.status !== 'done') return null;
  const worst = heat.deviation?.fromToTo;
  return <HeatOverlayCard heat={heat} open={open} setOpen={setOpen} worst={worst} />;
}

function HeatOverlayCard({ heat, open, setOpen, worst }: { heat: HeatState; open: boolean | null; setOpen: (open: boolean) => void; worst: DirectedRecord | undefined }) {
  const units = useUnits([heat.fromBodyId, heat.toBodyId]);
  const ref = useRef<HTMLElement>(null);
  const compact = useCompactView(ref);
  const shown = open ?? !compact;
  return (
    <section ref={ref} className={`heat-overlay${shown ? '' : ' folded'}${compact ? ' compact' : ''}`} aria-label="Deviation legend and statistics" data-testid="heat.overlay" data-open={shown}>
      <div className="heat-overlay-head">
        <strong>
          {heat.fromBodyId} vs {heat.toBodyId}
        </strong>
        <button type="button" className="icon-button" aria-expanded={shown} onClick={() => setOpen(!shown)} title={shown ? 'Fold the legend and statistics' : 'Show the legend and statistics'} data-testid="heat.fold">
          {shown ? '▾' : '▸'}
        </button>
      </div>
      <Legend heat={heat} units={units} />
      {shown && <StatsCard heat={heat} units={units} />}
      <div className="row">
        {worst && (
          <button type="button" className="button small" onClick={() => flyTo(worst.worstPoint)} data-testid="heat.fly-worst" title={`at (${worst.worstPoint.map((x) => formatNumber(x)).join(', ')})`}>
            Go to worst point ({formatNumber(Number(worst.max.toPrecision(4)))} {units.length})
          </button>
        )}
        <button type="button" className="button small" onClick={() => clearHeatmap()} data-testid="heat.clear">
          Remove colours
        </button>
      </div>
    </section>
  );
}
