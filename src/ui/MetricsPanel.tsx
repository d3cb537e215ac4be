import type { MetricsResult } from '../engine';
import { formatNumber, formatVector } from './format';
import { MODEL_UNITS, type Units } from './units';
import { useKernel, useScene, useUnits } from './useStores';

/** The metrics card; `testIdPrefix` keeps test ids unique when the card shows twice (panel and tool result). */
export function Metrics({ result, testIdPrefix = 'metrics.', units = MODEL_UNITS }: { result: MetricsResult; testIdPrefix?: string; units?: Units }) {
  const u = units.length;
  // The size a person reads is the tight box's: the spec's boundingBox encloses B-spline control points.
  const box = result.boundingBoxOptimal;
  const anyBox = box ?? result.boundingBox;
  const scale = anyBox ? Math.max(...anyBox.max.map((m, i) => Math.abs(m - (anyBox.min[i] ?? 0)))) : 1;
  const size = box ? box.max.map((m, i) => m - (box.min[i] ?? 0)) : undefined;
  return (
    <>
      <dl className="metrics">
        <dt>Volume</dt>
        <dd data-testid={`${testIdPrefix}volume`} data-value={result.volume === null || result.volume === undefined ? '' : String(result.volume)}>
          {result.volume === null || result.volume === undefined ? 'none (open)' : `${formatNumber(result.volume, scale ** 3)} ${u}³`}
        </dd>
        {result.surfaceArea !== undefined && (
          <>
            <dt>Surface area</dt>
            <dd data-testid={`${testIdPrefix}area`}>
              {formatNumber(result.surfaceArea, scale ** 2)} {u}²
            </dd>
          </>
        )}
        {result.centerOfMass && (
          <>
            <dt>Centre of mass</dt>
            <dd>
              {formatVector(result.centerOfMass, scale)} {u}
            </dd>
          </>
        )}
        {size && (
          <>
            <dt>Box size</dt>
            <dd data-testid={`${testIdPrefix}box-size`} data-value={size.join(' ')}>
              {size.map((s) => formatNumber(s, scale)).join(' × ')} {u}
            </dd>
          </>
        )}
      </dl>
      <p className="hint" data-testid={`${testIdPrefix}units`}>
        {units === MODEL_UNITS ? 'In model units: the file declares none (unit density).' : `In ${u}, as the file declares${units.note ? ` (${units.note})` : ''} (unit density).`}
      </p>
      {result.warnings.length > 0 && (
        <ul className="warnings">
          {result.warnings.map((w) => (
            <li key={w.message} data-code={w.code}>
              {w.message}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The right-hand panel: facts about the selected body (compute_metrics). */
export function MetricsPanel() {
  const selectedId = useScene((s) => s.selectedId);
  const body = useScene((s) => s.bodies.find((b) => b.bodyId === s.selectedId));
  const metrics = useScene((s) => (s.selectedId ? s.metrics[s.selectedId] : undefined));
  const kernel = useKernel((s) => s.status);
  const units = useUnits([selectedId]);
  return (
    <section className="panel metrics-panel" aria-label="Metrics" data-testid="metrics.panel">
      <h2>Metrics{body ? ` · ${body.summary.name}` : ''}</h2>
      {!selectedId && <p className="hint">Select a body to see its volume, area, centre of mass and size.</p>}
      {metrics?.status === 'running' && (
        <p className="hint">{body?.summary.kind === 'brep' && kernel !== 'ready' ? 'Waiting for the CAD kernel…' : 'Computing…'}</p>
      )}
      {metrics?.status === 'failed' && (
        <p className="error" role="alert">
          <code className="error-code">{metrics.error.code}</code> {metrics.error.message}
        </p>
      )}
      {metrics?.status === 'done' && <Metrics result={metrics.result} units={units} />}
    </section>
  );
}
