import { useStore } from 'zustand';
import type { GraphQueryResult, GraphValidateResult } from '../engine';
import { formatBytes, formatCount, formatNumber } from './format';
import { exportGraph, validateGraph } from './graphActions';
import { inspectStore } from './stores';
import type { Units } from './units';
import { useKernel, useScene, useUnits } from './useStores';

function HealthRecord({ result, units }: { result: GraphValidateResult; units: Units }) {
  const h = result.healthRecord;
  const rows: [string, string][] = [
    ['Shape type', h.shapeType],
    ['Free edges', formatCount(h.freeEdgeCount)],
    ['Naked vertices', formatCount(h.nakedVertexCount)],
    ['Small edges', formatCount(h.smallEdgeCount)],
    ['Small faces', formatCount(h.smallFaceCount)],
    ['Self-intersecting', h.selfIntersecting === null ? 'not checked' : h.selfIntersecting ? 'yes' : 'no'],
  ];
  return (
    <div className="health" data-testid="graph.health" data-valid={String(result.isValid)}>
      <p>
        <span className={`badge ${result.isValid ? 'ok' : 'bad'}`}>{result.isValid ? 'valid' : 'invalid'}</span> {formatCount(result.errorCount)} errors ·{' '}
        {formatCount(result.warningCount)} warnings
      </p>
      <dl className="kv">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      {[...h.errors, ...result.warnings].length > 0 && (
        <ul className="issues">
          {[...h.errors, ...result.warnings].map((i, n) => (
            <li key={n} className={i.severity}>
              <code>{i.kind}</code> {i.message}
            </li>
          ))}
        </ul>
      )}
      <p className="hint">
        small edge &lt; {result.thresholds.smallEdgeLength.toExponential(1)} {units.length}, small face &lt; {result.thresholds.smallFaceArea.toExponential(1)} {units.length}²
      </p>
    </div>
  );
}

function QueryResult({ fileName, result }: { fileName: string; result: GraphQueryResult }) {
  const s = result.summary;
  return (
    <div className="graph-query" data-testid="graph.query">
      <p>
        <strong>{fileName}</strong> (graph-query)
      </p>
      <dl className="kv">
        {(
          [
            ['Solids', s.solids],
            ['Shells (open)', `${s.shells} (${s.openShells})`],
            ['Faces', s.faces],
            ['Edges', s.edges],
            ['Vertices', s.vertices],
            ['Boundary edges', s.boundaryEdges],
            ['Non-manifold edges', s.nonManifoldEdges],
            ['Faces with holes', result.counts.facesWithHoles],
            ['Face valence max / mean', `${result.valence.face.max} / ${formatNumber(Number(result.valence.face.mean.toPrecision(4)))}`],
          ] as [string, string | number][]
        ).map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{typeof v === 'number' ? formatCount(v) : v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** Graph panel: graph-validate's health record and graph-export for the selected BREP body; graph-query on dropped .sqlite files. */
export function GraphPanel() {
  const selectedId = useScene((s) => s.selectedId);
  const body = useScene((s) => s.bodies.find((b) => b.bodyId === s.selectedId));
  const graph = useStore(inspectStore, (s) => s.graph);
  const kernel = useKernel((s) => s.status);
  const isBrep = body?.summary.kind === 'brep';
  const validate = graph.validate && graph.validate.bodyId === selectedId ? graph.validate : undefined;
  const units = useUnits([selectedId]);
  if (!body && !graph.query) return null;
  return (
    <section className="panel graph-panel" aria-label="Topology graph" data-testid="graph.panel">
      <h2>Topology graph</h2>
      {body && (
        <>
          {!isBrep && <p className="hint">graph-validate and graph-export take a BREP body; {body.bodyId} is a mesh.</p>}
          <div className="row">
            <button type="button" className="button small" disabled={!isBrep || validate?.status === 'running'} onClick={() => void validateGraph(body.bodyId)} data-testid="graph.validate">
              Validate {body.bodyId}
            </button>
            <button type="button" className="button small" disabled={!isBrep || graph.exporting} onClick={() => void exportGraph(body.bodyId)} data-testid="graph.export">
              {graph.exporting ? 'Exporting…' : 'Download SQLite'}
            </button>
          </div>
          {isBrep && kernel !== 'ready' && <p className="hint">Waits for the CAD kernel.</p>}
          {validate?.status === 'running' && <p className="hint">Checking the shape…</p>}
          {validate?.status === 'failed' && (
            <p className="error" role="alert">
              <code>{validate.error?.code}</code> {validate.error?.message}
            </p>
          )}
          {validate?.result && <HealthRecord result={validate.result} units={units} />}
          {graph.exportError && (
            <p className="error" role="alert">
              <code>{graph.exportError.code}</code> {graph.exportError.message}
            </p>
          )}
          {graph.lastExport && graph.lastExport.bodyId === body.bodyId && (
            <p className="hint" data-testid="graph.export-done">
              {graph.lastExport.bodyId}.sqlite · {formatBytes(graph.lastExport.size)}
            </p>
          )}
        </>
      )}
      <p className="hint">Drop a graph database (.sqlite) on the page to query it.</p>
      {graph.query?.status === 'running' && <p className="hint">Querying {graph.query.fileName}…</p>}
      {graph.query?.status === 'failed' && (
        <p className="error" role="alert" data-testid="graph.query-error">
          <code>{graph.query.error?.code}</code> {graph.query.fileName}: {graph.query.error?.message}
        </p>
      )}
      {graph.query?.result && <QueryResult fileName={graph.query.fileName} result={graph.query.result} />}
    </section>
  );
}
