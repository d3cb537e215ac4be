import { useEffect, useMemo, useState } from 'react';
import { copyText, downloadBytes, formatBytes, formatCount, formatNumber } from './format';
import type { OutputFile, ToolName } from '../engine';
import { ResultSummary } from './resultViews';
import { CopyableValues } from './ValueTree';
import type { DoneCallOf } from './stores';

/** Raw JSON longer than this is cut on screen (copy and download carry all of it). */
const RAW_LIMIT = 60_000;

/** Files a run wrote: PNGs shown inline, every file downloadable. */
function OutputFiles({ files }: { files: OutputFile[] }) {
  const urls = useMemo(() => files.map((f) => URL.createObjectURL(new Blob([f.bytes.slice()], { type: f.mimeType }))), [files]);
  useEffect(() => () => urls.forEach((u) => URL.revokeObjectURL(u)), [urls]);
  return (
    <div className="outputs" data-testid="tools.outputs">
      <h3>Files written</h3>
      <ul>
        {files.map((f, i) => (
          <li key={f.path}>
            <a href={urls[i]} download={f.path.split('/').pop()} data-testid="tools.output-link">
              {f.path}
            </a>{' '}
            <span className="hint">{formatBytes(f.bytes.byteLength)}</span>
            {f.mimeType === 'image/png' && <img src={urls[i]} alt={`${f.path}, written by the tool`} className="output-image" />}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The raw JSON, stringified only when opened: a 40k-entry result would otherwise cost a long task. */
function RawJson({ call }: { call: DoneCallOf<ToolName> }) {
  const [open, setOpen] = useState(false);
  const text = useMemo(() => (open ? (JSON.stringify(call.result, null, 2) ?? 'undefined') : ''), [open, call.result]);
  return (
    <details className="raw-json" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Raw JSON{open ? ` (${formatBytes(text.length)})` : ''}</summary>
      {open && (
        <pre data-testid="tools.raw-json" tabIndex={0}>
          {text.length > RAW_LIMIT ? `${text.slice(0, RAW_LIMIT)}\n… (${formatCount(text.length - RAW_LIMIT)} more characters in the copy and the download)` : text}
        </pre>
      )}
    </details>
  );
}

/** A tool run's result: the tool's own view when one is registered, else the generic summary; then files and raw JSON. */
export function ResultView({ call }: { call: DoneCallOf<ToolName> }) {
  const [copied, setCopied] = useState(false);
  const json = () => JSON.stringify(call.result, null, 2) ?? '';
  return (
    <section className="result" aria-label={`${call.tool} result`} data-testid="tools.result" data-tool={call.tool}>
      <div className="result-head">
        <h3>Result{call.ms !== undefined ? <span className="hint"> · {formatNumber(call.ms / 1000)} s</span> : null}</h3>
        <div className="result-actions">
          <button type="button" className="button small" onClick={() => void copyText(json()).then(setCopied)} data-testid="tools.copy-json">
            {copied ? 'Copied' : 'Copy JSON'}
          </button>
          <button type="button" className="button small" onClick={() => downloadBytes(`${call.tool}-result.json`, json(), 'application/json')} data-testid="tools.download-json">
            Download JSON
          </button>
        </div>
      </div>
      <CopyableValues label={`${call.tool} result`} className="result-summary" testId="tools.summary">
        <ResultSummary call={call} />
      </CopyableValues>
      {call.outputs.length > 0 && <OutputFiles files={call.outputs} />}
      <RawJson call={call} />
    </section>
  );
}
