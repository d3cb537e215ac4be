import { useId, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { formatCount, formatNumber } from './format';
import { AMBIGUOUS, cssColor, deviationColor, NEUTRAL } from './heatColors';
import { clearHeatmap, comparePairs, compareBodies, flyTo, plotDeviationSections, setTolerance } from './deviationReview';
import { cutSections } from './sections';
import { inspectStore, toolStore, type HeatState, type Vec3 } from './stores';
import { useScene } from './useStores';

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

/** Legend in model units: the symmetric range, the tolerance band, ambiguous grey; the band is adjustable. */
function Legend({ heat }: { heat: HeatState }) {
  const m = heat.range;
  const tol = heat.tolerance;
  const inputId = useId();
  const [text, setText] = useState<string | null>(null);
  const bar = useMemo(() => gradient(m, Math.min(tol, m)), [m, tol]);
  // The band's own ticks only when they cannot collide with 0 and the ends.
  const ticks = m > 0 ? [-m, ...(tol > 0.3 * m && tol < 0.7 * m ? [-tol, tol] : []), 0, m] : [0];
  return (
    <div className="legend" data-testid="heat.legend" aria-label="Deviation colour legend">
      <div className="legend-bar" style={{ background: bar }} role="img" aria-label={`blue shy to red proud, from ${signed(-m)} to ${signed(m)} model units; within ±${formatNumber(tol)} neutral`} />
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
      </div>
      <p className="hint">
        model units · colours saturate beyond ±{formatNumber(Number(m.toPrecision(3)))} (99th percentile); largest |d| {formatNumber(Number(heat.maxAbs.toPrecision(3)))}
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
          step={m > 0 ? m / 200 : 0.01}
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

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

/** The stats card: deviation_histogram's figures (sampled like measure_deviation, 50,000 samples). */
function StatsCard({ heat }: { heat: HeatState }) {
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
        <Stat label="p95 |d|" value={formatNumber(Number(h.p95.toPrecision(4)))} testId="stat-p95" />
        <Stat label="Max |d|" value={formatNumber(Number(h.maxAbs.toPrecision(4)))} testId="heat.stat-max" />
        <Stat label={`Within ±${formatNumber(heat.tolerance)}`} value={percent(h.withinTolerance)} testId="heat.stat-within" />
        <Stat label="Ambiguous" value={percent(h.ambiguousFraction)} testId="heat.stat-ambiguous" />
      </dl>
      <p className="hint">
        model units · {formatCount(h.samples)} samples of {heat.fromBodyId} against {heat.toBodyId} (deviation_histogram)
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

/** Deviation review (right panel): the Compare offer, then legend, tolerance, stats, worst point. */
export function DeviationPanel() {
  const bodies = useScene((s) => s.bodies);
  const heat = useStore(inspectStore, (s) => s.heat);
  const running = useStore(toolStore, (s) => s.running);
  const pairs = useMemo(() => comparePairs(), [bodies]);
  const pair = pairs[0];
  if (!pair && !heat) return null;
  return (
    <section className="panel deviation-panel" aria-label="Deviation review" data-testid="deviation.panel">
      <h2>Deviation review</h2>
      {pair && (
        <button
          type="button"
          className={`button ${heat ? 'small' : 'primary compare'}`}
          disabled={!!running}
          onClick={() => void compareBodies(pair.from, pair.to)}
          data-testid="deviation.compare"
          title="measure_deviation with the spec's defaults, then the heat map, histogram and statistics"
        >
          {heat ? 'Compare again' : `Compare ${pair.from} with ${pair.to}`}
        </button>
      )}
      {pairs.slice(1).map((p) => (
        <button
          key={p.from}
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
      {(heat || pair) && <SectionControls />}
    </section>
  );
}

/** Over the viewport, as in inspection software: legend with the tolerance band, statistics, worst point. */
export function HeatOverlay() {
  const heat = useStore(inspectStore, (s) => s.heat);
  const [open, setOpen] = useState(true);
  if (heat?.status !== 'done') return null;
  const worst = heat.deviation?.fromToTo;
  return (
    <section className="heat-overlay" aria-label="Deviation legend and statistics" data-testid="heat.overlay">
      <div className="heat-overlay-head">
        <strong>
          {heat.fromBodyId} vs {heat.toBodyId}
        </strong>
        <button type="button" className="icon-button" aria-expanded={open} onClick={() => setOpen(!open)} title={open ? 'Fold the statistics' : 'Show the statistics'}>
          {open ? '▾' : '▸'}
        </button>
      </div>
      <Legend heat={heat} />
      {open && <StatsCard heat={heat} />}
      <div className="row">
        {worst && (
          <button type="button" className="button small" onClick={() => flyTo(worst.worstPoint)} data-testid="heat.fly-worst" title={`at (${worst.worstPoint.map((x) => formatNumber(x)).join(', ')})`}>
            Go to worst point ({formatNumber(Number(worst.max.toPrecision(4)))})
          </button>
        )}
        <button type="button" className="button small" onClick={() => clearHeatmap()} data-testid="heat.clear">
          Remove colours
        </button>
      </div>
    </section>
  );
}
