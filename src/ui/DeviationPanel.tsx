import { useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { figureText, maxDeviation, shareText } from '../engine';
import { useStore } from 'zustand';
import { formatCount, formatNumber, roundStep } from './format';
import { AMBIGUOUS, colorSpan, cssColor, deviationColor, NEUTRAL, NO_DATA } from './heatColors';
import { clearHeatmap, comparePairs, compareBodies, flyTo, plotDeviationSections, removeLabel, setLabelAdding, setTolerance } from './deviationReview';
import { AlignButton, InspectionSteps } from './InspectionSteps';
import { legendTicks } from './legendTicks';
import { saturationNote } from './saturation';
import { deflectionWords } from './settingsLine';
import { warningText } from './warningWords';
import { worstOf } from './worstPoint';
import { signed, Stat } from './Stat';
import { verdictOf, verdictWithin } from './roles';
import { cutSections } from './sections';
import { inspectStore, toolStore, type HeatState, type Vec3 } from './stores';
import { MODEL_UNITS, type Units } from './units';
import { useCompactView } from './useCompactView';
import { useViewCover } from './viewCovers';
import { useScene, useUnits } from './useStores';

function percent(share: number | null | undefined): string {
  // Two decimals, as the report: 99.99 % must not read 100.0 % on one and FAIL on the other.
  return share === null || share === undefined ? '–' : shareText(share);
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
  const m = colorSpan(heat.range, heat.tolerance);
  const tol = heat.tolerance;
  const inputId = useId();
  const [text, setText] = useState<string | null>(null);
  const bar = useMemo(() => gradient(m, Math.min(tol, m)), [m, tol]);
  // The band's own ticks only when their labels fit between 0's and the ends' on the bar as wide as it is.
  const ticksRef = useRef<HTMLDivElement | null>(null);
  const [barPx, setBarPx] = useState(0);
  useLayoutEffect(() => {
    const el = ticksRef.current;
    if (!el) return;
    setBarPx(el.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setBarPx(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const ticks = legendTicks(m, tol, barPx, signed);
  return (
    <div className="legend" data-testid="heat.legend" aria-label="Deviation colour legend">
      <p className="sign-convention" data-testid="heat.sign">
        {signWords(heat)}
      </p>
      <div className="legend-bar" style={{ background: bar }} role="img" aria-label={`blue shy to red proud, from ${signed(-m)} to ${signed(m)} ${units.length}; within ±${formatNumber(tol)} neutral`} />
      <div className="legend-ticks" ref={ticksRef}>
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
        {saturationNote(heat.range, tol, units.length, heat.rangeFrom)}
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

/** The sign rule in the review's words: actual minus nominal when the pair has roles, else the tool's from/to. */
export function signWords(heat: HeatState): string {
  if (!heat.nominalBodyId) return `+ ${heat.fromBodyId} outside ${heat.toBodyId} · − inside`;
  const actual = heat.fromBodyId === heat.nominalBodyId ? heat.toBodyId : heat.fromBodyId;
  return `+ ${actual} outside ${heat.nominalBodyId} · − inside (actual − nominal)`;
}

/** Whether the review has samples or coloured vertices without a counterpart on the reference. */
function hasNoData(heat: HeatState): boolean {
  return (heat.noDataVertices ?? 0) > 0 || (heat.histogram?.noDataSamples ?? 0) > 0;
}

/** The stats card: deviation_histogram's figures, from measure_deviation's own samples at its settings. */
function StatsCard({ heat, units }: { heat: HeatState; units: Units }) {
  const h = heat.histogram;
  const bodies = useScene((s) => s.bodies);
  if (heat.histogramStatus === 'failed') {
    return (
      <p className="error" role="alert">
        <code>{heat.histogramError?.code}</code> {heat.histogramError?.message}
      </p>
    );
  }
  if (!h) return <p className="hint">Sampling the surface for the statistics…</p>;
  const anyBrep = bodies.some((b) => (b.bodyId === heat.fromBodyId || b.bodyId === heat.toBodyId) && b.summary.kind === 'brep');
  const deflection = deflectionWords(h.deflection, heat.settings.deflection === undefined, h.surface, anyBrep);
  return (
    <div className="stats-card" data-testid="heat.stats">
      <dl>
        <Stat label="Signed mean" value={signed(h.mean)} testId="heat.stat-mean" />
        <Stat label="Sigma" value={h.std === null ? '–' : figureText(h.std)} testId="heat.stat-sigma" />
        <Stat label="p95 |d|" value={figureText(h.p95)} testId="heat.stat-p95" />
        <Stat label="Max |d|" value={figureText(maxDeviation(h.maxAbs, heat.worstVertex))} testId="heat.stat-max" />
        <Stat label={`Within ±${formatNumber(heat.tolerance)}${units.short === MODEL_UNITS.short ? '' : ` ${units.short}`}`} value={percent(h.withinTolerance)} testId="heat.stat-within" />
        <Stat label="Ambiguous" value={percent(h.ambiguousFraction)} testId="heat.stat-ambiguous" />
        <Stat label="No data" value={`${formatCount(h.noDataSamples)} (${percent(h.noDataSamples / (h.samples + h.noDataSamples))})`} testId="heat.stat-no-data" wide />
      </dl>
      {!!heat.noDataVertices && (
        // The colours mark vertices, the figures count samples: say both, so a dark patch beside "No data 0" is not a contradiction.
        <p className="hint" data-testid="heat.no-data-vertices">
          No data drawn at {formatCount(heat.noDataVertices)} of {formatCount(heat.signedVertices + heat.ambiguousVertices + heat.noDataVertices)} vertices; the figures count samples.
        </p>
      )}
      <Verdict heat={heat} units={units} />
      <p className="hint" data-testid="heat.settings">
        {units.note ?? units.length} · {formatCount(h.samples)} samples of {heat.fromBodyId} against {heat.toBodyId}
        {deflection ? ` · ${deflection}` : ''} · max distance {formatNumber(Number(h.maxDistance.toPrecision(3)))}
        {heat.settings.maxDistance === undefined ? ' (default)' : ''} · {h.signMode}, as the last measure_deviation
        {heat.histogramStatus === 'running' ? ' · updating…' : ''}
      </p>
    </div>
  );
}

/** The verdict in words: the rule and where the figure stands against it (the report states the same). */
function Verdict({ heat, units }: { heat: HeatState; units: Units }) {
  const passShare = useStore(inspectStore, (s) => s.passShare);
  const within = verdictWithin(heat);
  const v = verdictOf(within, passShare);
  if (heat.flip && within === undefined && heat.histogramStatus === 'done') return <p className="hint verdict-line">Measuring {heat.toBodyId} for the verdict…</p>;
  if (heat.flip && heat.actualWithinError) {
    return (
      <p className="error verdict-line" role="alert" data-testid="heat.verdict-error">
        No verdict: the statistics of {heat.toBodyId} failed. <code>{heat.actualWithinError.code}</code> {heat.actualWithinError.message} Compare again to retry.
      </p>
    );
  }
  if (!v) return null;
  // With the nominal coloured the figures above are its coverage; the verdict stays the actual's, as in the report.
  return (
    <p className="verdict-line" data-testid="heat.verdict">
      <span className={`verdict-chip ${v}`}>{v}</span> {percent(within)}
      {heat.flip ? ` of ${heat.toBodyId}` : ''} within ±{formatNumber(heat.tolerance)} {units.length} · rule: at least {percent(passShare)}
      {heat.flip ? ` of the actual · the figures above are ${heat.fromBodyId}'s coverage` : ''}
    </p>
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
        <input id={countId} type="number" min={2} max={200} value={count} onChange={(e) => setCount(e.target.value)} className="short" data-testid="deviation.section-count" />
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

/** Deviation review (right panel): the inspection journey's steps, then labels and sections of the shown review. */
export function DeviationPanel() {
  const bodies = useScene((s) => s.bodies);
  const heat = useStore(inspectStore, (s) => s.heat);
  const running = useStore(toolStore, (s) => s.running);
  const colorOn = useStore(inspectStore, (s) => s.colorOn);
  const nominalMark = useStore(inspectStore, (s) => s.nominalMark);
  const pairs = useMemo(() => comparePairs(), [bodies, colorOn, nominalMark]);
  return (
    <section className="panel deviation-panel" aria-label="Inspection" data-testid="deviation.panel">
      <h2>Inspection</h2>
      <InspectionSteps />
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
            title="measure_deviation of this actual against the nominal, then its surface or points coloured by deviation"
          >
            Compare {p.from} with {p.to}
          </button>
        </div>
      ))}
      {heat?.status === 'done' &&
        (heat.deviation?.warnings ?? []).map((w) => (
          <p key={w.code + w.message} className="warning" data-testid="deviation.warning" data-code={w.code}>
            {warningText(w)}
          </p>
        ))}
      {heat?.status === 'failed' && (
        <p className="error" role="alert" data-testid="deviation.error">
          <code>{heat.error?.code}</code> {heat.error?.message}
        </p>
      )}
      {heat?.status === 'done' && <LabelList heat={heat} />}
      {(heat || pairs.length > 0) && <SectionControls />}
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
  return <HeatOverlayCard heat={heat} open={open} setOpen={setOpen} worst={worstOf(heat)} />;
}

function HeatOverlayCard({ heat, open, setOpen, worst }: { heat: HeatState; open: boolean | null; setOpen: (open: boolean) => void; worst: { point: Vec3; distance: number } | null }) {
  const units = useUnits([heat.fromBodyId, heat.toBodyId]);
  const ref = useRef<HTMLElement>(null);
  const compact = useCompactView(ref);
  const shown = open ?? !compact;
  const passShare = useStore(inspectStore, (s) => s.passShare);
  const verdict = verdictOf(verdictWithin(heat), passShare);
  // The camera draws the scene beside the legend, never under it (viewCovers.ts).
  useViewCover(ref, 'heat');
  return (
    <section ref={ref} className={`heat-overlay${shown ? '' : ' folded'}${compact ? ' compact' : ''}`} aria-label="Deviation legend and statistics" data-testid="heat.overlay" data-open={shown}>
      <div className="heat-overlay-head">
        <strong>
          {heat.flip ? `on nominal ${heat.fromBodyId}` : heat.nominalBodyId ? `${heat.fromBodyId} vs nominal ${heat.toBodyId}` : `${heat.fromBodyId} vs ${heat.toBodyId}`}
        </strong>
        {/* Folded (a small window), the card keeps the verdict in sight: the Compare step's chip may lie below the panel's fold. */}
        {!shown && verdict && (
          <span className={`verdict-chip ${verdict}`} data-testid="heat.head-verdict">
            {verdict}
          </span>
        )}
        <button type="button" className="icon-button" aria-expanded={shown} onClick={() => setOpen(!shown)} title={shown ? 'Fold the legend and statistics' : 'Show the legend and statistics'} data-testid="heat.fold">
          {shown ? '▾' : '▸'}
        </button>
      </div>
      <Legend heat={heat} units={units} />
      {/* Above the statistics: a tall card (on the nominal, with warnings) scrolls, and these stay in sight. */}
      <div className="row">
        {worst && (
          <button type="button" className="button small" onClick={() => flyTo(worst.point)} data-testid="heat.fly-worst" title={`at (${worst.point.map((x) => formatNumber(x)).join(', ')})`}>
            {shown ? `Go to worst point (${formatNumber(Number(worst.distance.toPrecision(4)))} ${units.length})` : 'Worst point'}
          </button>
        )}
        <button type="button" className="button small" onClick={() => clearHeatmap()} data-testid="heat.clear">
          Remove colours
        </button>
      </div>
      {shown && <StatsCard heat={heat} units={units} />}
    </section>
  );
}
