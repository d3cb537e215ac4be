import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { figureText } from '../engine';
import { formatNumber } from './format';
import { colorSpan, cssColor, deviationColor } from './heatColors';
import { displayBins } from './histogramBins';
import { focusStation, worstSigned } from './sections';
import { inspectStore, type HeatState, type SectionsState } from './stores';
import { signed } from './Stat';
import type { Units } from './units';
import { useUnits } from './useStores';

const W = 420;
const H = 170;
const PAD = { left: 46, right: 10, top: 12, bottom: 30 };

/** Round ticks (1-2-5 ladder) covering [lo, hi], about `n` of them. */
function ticks(lo: number, hi: number, n = 5): number[] {
  const span = hi - lo;
  if (!(span > 0)) return [lo];
  const raw = span / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  const r = raw / p;
  const step = (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * p;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  return out;
}

const short = (v: number) => formatNumber(Number(v.toPrecision(3)));

/** deviation_histogram's buckets drawn in the page, coloured with the heat map's colours at their centres. */
function Histogram({ heat, units }: { heat: HeatState; units: Units }) {
  const h = heat.histogram;
  if (!h || h.buckets.length === 0) return null;
  const tol = heat.tolerance;
  const m = colorSpan(heat.range, heat.tolerance);
  // The axis spans at least the colour range (never narrower than twice the band), symmetric about 0: a
  // scan 0.1 out with sigma 0.002 drew one bar at the right edge of a chart that was all tolerance band.
  const lo = Math.min(h.buckets[0]!.lo, -m);
  const hi = Math.max(h.buckets[h.buckets.length - 1]!.hi, m);
  // Buckets too narrow to see on this axis are drawn as wider bins of the same samples.
  const bins = displayBins(h.buckets, lo, hi, W - PAD.left - PAD.right);
  const maxCount = Math.max(1, ...bins.map((b) => b.count));
  const x = (v: number) => PAD.left + ((v - lo) / (hi - lo || 1)) * (W - PAD.left - PAD.right);
  const y = (c: number) => H - PAD.bottom - (c / maxCount) * (H - PAD.top - PAD.bottom);
  return (
    <figure className="dock-card" data-testid="dock.histogram">
      {/* One line at 1024 px as well: the tab names the chart, the axis says signed deviation. */}
      <figcaption className="one-line" title={`Signed deviation histogram of ${h.signedSamples} samples (${units.length})`}>
        Signed deviation · mean {signed(h.mean)} · σ {h.std === null ? '–' : figureText(h.std)}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={`Histogram of ${h.signedSamples} signed samples from ${short(h.buckets[0]!.lo)} to ${short(h.buckets[h.buckets.length - 1]!.hi)} ${units.length}`}>
        {tol > 0 && <rect x={x(Math.max(lo, -tol))} y={PAD.top} width={Math.max(0, x(Math.min(hi, tol)) - x(Math.max(lo, -tol)))} height={H - PAD.top - PAD.bottom} fill="#2ca02c" opacity={0.12} />}
        {bins.map((b, i) => {
          const c = (b.lo + b.hi) / 2;
          return (
            <rect key={i} x={x(b.lo) + 0.5} y={y(b.count)} width={Math.max(0.5, x(b.hi) - x(b.lo) - 1)} height={H - PAD.bottom - y(b.count)} fill={cssColor(deviationColor(c, m || Math.max(Math.abs(lo), Math.abs(hi)), tol))} stroke="#5d6878" strokeWidth={0.4}>
              <title>{`${short(b.lo)} … ${short(b.hi)}: ${b.count} samples`}</title>
            </rect>
          );
        })}
        {h.mean !== null && <line x1={x(h.mean)} x2={x(h.mean)} y1={PAD.top} y2={H - PAD.bottom} stroke="#111" strokeWidth={1.2} />}
        <line x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} stroke="#5d6878" />
        {ticks(lo, hi).map((t) => (
          <g key={t}>
            <line x1={x(t)} x2={x(t)} y1={H - PAD.bottom} y2={H - PAD.bottom + 4} stroke="#5d6878" />
            <text x={x(t)} y={H - PAD.bottom + 15} textAnchor="middle" className="tick">
              {short(t)}
            </text>
          </g>
        ))}
        {ticks(0, maxCount, 3).map((t) => (
          <text key={t} x={PAD.left - 5} y={y(t) + 3} textAnchor="end" className="tick">
            {formatNumber(t)}
          </text>
        ))}
        <text x={(PAD.left + W - PAD.right) / 2} y={H - 2} textAnchor="middle" className="axis-label">
          signed deviation ({units.length})
        </text>
      </svg>
    </figure>
  );
}

/** measure_deviation's stations: signed mean (line) and rms (bars) along the axis. */
function DeviationSectionsChart() {
  const ds = useStore(inspectStore, (s) => s.deviationSections);
  const units = useUnits([ds?.fromBodyId]);
  if (!ds || ds.stations.length === 0) return null;
  const st = ds.stations;
  const offsets = st.map((s) => s.offset);
  const lo = Math.min(...offsets), hi = Math.max(...offsets);
  const vals = st.flatMap((s) => [s.signedMean ?? 0, s.rms ?? 0, -(s.rms ?? 0)]);
  const vmax = Math.max(1e-9, ...vals.map(Math.abs));
  const x = (v: number) => PAD.left + 8 + ((v - lo) / (hi - lo || 1)) * (W - PAD.left - PAD.right - 16);
  const y = (v: number) => PAD.top + ((vmax - v) / (2 * vmax)) * (H - PAD.top - PAD.bottom);
  const points = st.filter((s) => s.signedMean !== null).map((s) => `${x(s.offset)},${y(s.signedMean!)}`);
  const axisName = ds.axis.every((c, i) => c === [1, 0, 0][i]) ? 'x' : ds.axis.every((c, i) => c === [0, 1, 0][i]) ? 'y' : ds.axis.every((c, i) => c === [0, 0, 1][i]) ? 'z' : `(${ds.axis.join(', ')})`;
  const bw = Math.max(2, ((W - PAD.left - PAD.right) / st.length) * 0.5);
  return (
    <figure className="dock-card" data-testid="dock.deviation-sections">
      <figcaption>
        Deviation along {axisName} · {st.length} stations (measure_deviation)
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={`Signed mean deviation at ${st.length} stations along ${axisName}`}>
        {st.map((s, i) =>
          s.rms === null ? null : (
            <rect key={i} x={x(s.offset) - bw / 2} y={y(s.rms)} width={bw} height={y(-s.rms) - y(s.rms)} fill="#c6d4e6">
              <title>{`offset ${short(s.offset)}: mean ${signed(s.signedMean)}, rms ${short(s.rms)}, ${s.samples} samples`}</title>
            </rect>
          ),
        )}
        <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} stroke="#5d6878" strokeDasharray="3 3" />
        <polyline points={points.join(' ')} fill="none" stroke="#b2182b" strokeWidth={1.6} />
        {st.map((s, i) => (s.signedMean === null ? null : <circle key={i} cx={x(s.offset)} cy={y(s.signedMean)} r={2.6} fill={s.signedMean > 0 ? '#b2182b' : '#2166ac'} />))}
        {ticks(-vmax, vmax, 4).map((t) => (
          <text key={t} x={PAD.left - 5} y={y(t) + 3} textAnchor="end" className="tick">
            {short(t)}
          </text>
        ))}
        {ticks(lo, hi).map((t) => (
          <text key={t} x={x(t)} y={H - PAD.bottom + 15} textAnchor="middle" className="tick">
            {short(t)}
          </text>
        ))}
        <text x={(PAD.left + W - PAD.right) / 2} y={H - 2} textAnchor="middle" className="axis-label">
          offset along {axisName} ({units.length}) · line: signed mean, band: ±rms
        </text>
      </svg>
    </figure>
  );
}

function StationImage({ sections, station }: { sections: SectionsState; station: number }) {
  const file = sections.images[station];
  const url = useMemo(() => (file ? URL.createObjectURL(new Blob([file.bytes.slice()], { type: file.mimeType })) : null), [file]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url ? <img src={url} alt={`Overlay of station ${station}`} /> : <span className="hint">no image</span>;
}

/** cross_section_compare's stations: the focused overlay large, every station in a strip; a click focuses. */
function SectionStrip() {
  const sections = useStore(inspectStore, (s) => s.sections);
  const units = useUnits([sections?.fromBodyId, sections?.referenceBodyId]);
  const stripRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!sections || sections.focused === null) return;
    stripRef.current?.querySelector(`[data-station="${sections.focused}"]`)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [sections?.focused]);
  if (!sections) return null;
  const r = sections.result;
  const focused = r.sections.find((s) => s.station === sections.focused) ?? null;
  return (
    <figure className="dock-card sections-card" data-testid="dock.section-strip">
      <figcaption>
        Cross sections · {r.sections.length} stations · worst #{r.worstStation ?? '–'} (mean {signed(worstSigned(r))} {units.length})
        {r.whiskers ? ` · whiskers ×${formatNumber(r.whiskers.scale)}, grey within ±${formatNumber(r.whiskers.tolerance)} ${units.length}` : ''}
      </figcaption>
      <div className="sections-body">
        {focused && (
          <div className="section-focus" data-testid="dock.section-focus" data-station={focused.station}>
            <StationImage sections={sections} station={focused.station} />
            <p className="hint">
              station {focused.station} at {short(focused.axisCoord)} {units.length}: mean {signed(focused.signedMean)} {units.length}, max |d| {focused.maxAbs === null ? '–' : short(focused.maxAbs)} {units.length}, area ratio{' '}
              {focused.areaRatio === null ? '–' : focused.areaRatio.toFixed(3)}
            </p>
          </div>
        )}
        <div className="strip" ref={stripRef} role="listbox" aria-label="Section stations">
          {r.sections.map((s) => {
            const worst = s.station === r.worstStation;
            const isFocused = s.station === sections.focused;
            return (
              <button
                key={s.station}
                type="button"
                role="option"
                aria-selected={isFocused}
                className={`station${worst ? ' worst' : ''}${isFocused ? ' focused' : ''}`}
                data-station={s.station}
                data-testid="dock.section-station"
                onClick={() => focusStation(s.station)}
              >
                <StationImage sections={sections} station={s.station} />
                <span>
                  #{s.station} · {signed(s.signedMean)}
                  {worst ? ' · worst' : ''}
                </span>
              </button>
            );
          })}
        </div>
      </div>
    </figure>
  );
}

type Tab = 'histogram' | 'along' | 'sections';

/**
 * Under the viewport: the histogram, the deviation along an axis and the section strip, one at a
 * time (the viewport is too narrow for all three side by side); the newest result comes to the front.
 */
export function BottomDock() {
  const heat = useStore(inspectStore, (s) => s.heat);
  const ds = useStore(inspectStore, (s) => s.deviationSections);
  const sections = useStore(inspectStore, (s) => s.sections);
  const heatUnits = useUnits([heat?.fromBodyId, heat?.toBodyId]);
  const histogram = heat?.histogram && heat.histogram.buckets.length > 0 ? heat.histogram : null;
  const [tab, setTab] = useState<Tab>('histogram');
  // The histogram comes to the front only when a new comparison starts, not when the tolerance reruns it.
  const heatKey = heat ? `${heat.fromBodyId}|${heat.toBodyId}|${heat.deviation ? 1 : 0}` : '';
  useEffect(() => {
    if (heatKey) setTab('histogram');
  }, [heatKey]);
  useEffect(() => {
    if (ds) setTab('along');
  }, [ds]);
  // A new cut comes to the front; the same cut again for a new tolerance leaves the tab the user looks at.
  useEffect(() => {
    if (sections?.result && !sections.recut) setTab('sections');
  }, [sections?.result]);
  const tabs: { id: Tab; label: string }[] = [];
  if (histogram) tabs.push({ id: 'histogram', label: 'Histogram' });
  if (ds) tabs.push({ id: 'along', label: 'Along axis' });
  if (sections) tabs.push({ id: 'sections', label: 'Sections' });
  if (tabs.length === 0) return null;
  const shown = tabs.some((t) => t.id === tab) ? tab : tabs[0]!.id;
  return (
    <section className="dock" aria-label="Charts and sections" data-testid="dock">
      <div className="dock-tabs" role="tablist" aria-label="Charts" aria-orientation="vertical">
        {tabs.map((t) => (
          <button key={t.id} type="button" role="tab" aria-selected={shown === t.id} className="button small" onClick={() => setTab(t.id)} data-testid={`dock.tab-${t.id}`}>
            {t.label}
          </button>
        ))}
      </div>
      {shown === 'histogram' && heat && <Histogram heat={heat} units={heatUnits} />}
      {shown === 'along' && <DeviationSectionsChart />}
      {shown === 'sections' && <SectionStrip />}
    </section>
  );
}
