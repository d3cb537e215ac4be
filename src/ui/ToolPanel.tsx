import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { ResultView } from './ResultView';
import { SchemaForm } from './SchemaForm';
import { argsOf, fieldsNamedIn, fieldsOf, type FieldSpec, type FormValues } from './schemaForm';
import { engineStore, toolStore, type BodyEntry } from './stores';
import { cancelTool, loadManifests, runSelected, sceneTools, selectTool, setFormValue } from './toolRuns';
import { useScene } from './useStores';

/**
 * Body fields the user has not touched get a sensible body: the first one the selected body (or
 * the first in the list), the next ones other bodies, in list order.
 */
function autoBodies(fields: readonly FieldSpec[], bodies: readonly BodyEntry[], selectedId: string | null): FormValues {
  const out: FormValues = {};
  const order = [...bodies].sort((a, b) => (a.bodyId === selectedId ? -1 : b.bodyId === selectedId ? 1 : 0)).map((b) => b.bodyId);
  let next = 0;
  for (const f of fields) {
    if (f.kind !== 'bodyId' || !f.required) continue;
    const id = order[next] ?? order[0];
    next++;
    if (id !== undefined) out[f.path] = id;
  }
  return out;
}

function Progress() {
  const running = useStore(toolStore, (s) => s.running);
  const restoring = useStore(engineStore, (s) => s.restoring);
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(t);
  }, [running]);
  if (!running) return restoring ? <p className="hint" role="status">Restoring the scene in a new engine…</p> : null;
  const seconds = Math.max(0, (now - running.startedAt) / 1000);
  const pct = running.fraction !== undefined ? Math.round(running.fraction * 100) : undefined;
  return (
    <div className="run-progress" data-testid="tools.progress">
      <div
        className={`progress${pct === undefined ? ' indeterminate' : ''}`}
        role="progressbar"
        aria-label={`${running.tool} progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={pct === undefined ? `running, ${seconds.toFixed(0)} s` : `${pct} %`}
      >
        <div className="progress-fill" style={pct === undefined ? undefined : { width: `${pct}%` }} />
      </div>
      <div className="run-line">
        <span className="hint" role="status">
          {running.tool} running · {seconds.toFixed(0)} s{pct !== undefined ? ` · ${pct} %` : ''}
          {running.message ? ` · ${running.message}` : ''}
        </span>
        <button type="button" className="button danger small" onClick={() => cancelTool()} data-testid="tools.cancel" title="Cancel the run (Escape)">
          Cancel
        </button>
      </div>
    </div>
  );
}

/** The right-hand tool panel: every scene tool of the registry, its form generated from its JSON Schema. */
export function ToolPanel() {
  const manifests = useStore(toolStore, (s) => s.manifests);
  const selected = useStore(toolStore, (s) => s.selected);
  const forms = useStore(toolStore, (s) => s.forms);
  const running = useStore(toolStore, (s) => s.running);
  const results = useStore(toolStore, (s) => s.results);
  const bodies = useScene((s) => s.bodies);
  const selectedBody = useScene((s) => s.selectedId);
  const [loadError, setLoadError] = useState<string | null>(null);
  const selectId = useId();
  const errorId = useId();

  useEffect(() => {
    loadManifests().catch((e: unknown) => setLoadError(e instanceof Error ? e.message : String(e)));
  }, []);

  const tools = useMemo(() => sceneTools(manifests), [manifests]);
  const manifest = tools.find((m) => m.name === selected);
  const fields = useMemo(() => (manifest ? fieldsOf(manifest.inputSchema) : []), [manifest]);
  const values = useMemo(
    () => ({ ...autoBodies(fields, bodies, selectedBody), ...(selected ? forms[selected] : undefined) }),
    [fields, bodies, selectedBody, forms, selected],
  );
  const result = selected ? results[selected] : undefined;
  const invalid = useMemo(
    () => (result && !result.ok && result.error.code === 'INVALID_ARGUMENT' ? fieldsNamedIn(result.error.message, fields) : new Set<string>()),
    [result, fields],
  );

  // A new result or error (also from a share link) is brought into view in the panel.
  const reveal = useStore(toolStore, (s) => s.reveal);
  useEffect(() => {
    if (!reveal) return;
    const last = toolStore.getState().results[toolStore.getState().selected ?? ''];
    const el = document.querySelector(last?.ok === false ? '[data-testid="tools.error"]' : '[data-testid="tools.result"]');
    el?.scrollIntoView({ block: 'nearest' });
  }, [reveal]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!manifest || running) return;
    runSelected(manifest.name, argsOf(fields, values));
  };

  return (
    <section className="panel tool-panel" aria-label="Tools" data-testid="tools.panel">
      <h2>Tools</h2>
      {loadError && (
        <p className="error" role="alert">
          Could not list the tools: {loadError}
        </p>
      )}
      {tools.length === 0 && !loadError && <p className="hint">Starting the engine…</p>}
      {tools.length > 0 && (
        <>
          <div className="field">
            <label className="field-label" htmlFor={selectId}>
              Tool
            </label>
            <select id={selectId} value={selected ?? ''} onChange={(e) => selectTool(e.target.value)} data-testid="tools.select">
              {tools.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name}
                </option>
              ))}
            </select>
          </div>
          {manifest && (
            <form onSubmit={onSubmit} aria-label={`${manifest.name} arguments`} data-testid="tools.form" data-tool={manifest.name} noValidate>
              <p className="tool-desc">{manifest.description}</p>
              <SchemaFormFor fields={fields} values={values} bodies={bodies} invalid={invalid} tool={manifest.name} errorId={result && !result.ok ? errorId : undefined} />
              {result && !result.ok && (
                <div className="error" role="alert" id={errorId} data-testid="tools.error" data-code={result.error.code}>
                  <div className="error-head">
                    <code className="error-code">{result.error.code}</code>
                    <span className="error-file">{result.tool}</span>
                  </div>
                  <div className="error-message">{result.error.message}</div>
                </div>
              )}
              <div className="run-line">
                <button type="submit" className="button primary" disabled={!!running} data-testid="tools.run">
                  Run {manifest.name}
                </button>
                {bodies.length === 0 && <span className="hint">Load a body first.</span>}
              </div>
            </form>
          )}
          <Progress />
          {result?.ok && <ResultView call={result} />}
        </>
      )}
    </section>
  );
}

function SchemaFormFor({ tool, ...props }: { tool: string; fields: FieldSpec[]; values: FormValues; bodies: BodyEntry[]; invalid: Set<string>; errorId: string | undefined }) {
  return <SchemaForm {...props} onChange={(path, value) => setFormValue(tool, path, value)} />;
}
