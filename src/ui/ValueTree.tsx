import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { copyText, formatNumber, unitOf } from './format';
import { MODEL_UNITS, unitText, type Units } from './units';

const TABLE_ROWS = 50;
const TABLE_COLUMNS = 8;

/** A value that copies its full-precision text when clicked. */
export function CopyValue({ text, children }: { text: string; children: ReactNode }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 1200);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <button
      type="button"
      // One tab stop per result (CopyableValues): the arrow keys move between values, Enter copies.
      tabIndex={-1}
      className={`copy-value${copied ? ' copied' : ''}`}
      title={`Copy ${text}`}
      aria-label={`${text}, copy`}
      onClick={() => void copyText(text).then(setCopied)}
    >
      {children}
      {copied && <span className="copied-note" role="status"> copied</span>}
    </button>
  );
}

/**
 * A result's values as one tab stop: Up/Down (or Left/Right) move between them, Home/End jump,
 * Enter or Space copies the one marked, a click copies any. Thirty numbers are not thirty Tab presses.
 */
export function CopyableValues({ label, children, className, testId }: { label: string; children: ReactNode; className?: string; testId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const baseId = useId();
  const [active, setActive] = useState(-1);
  const values = () => [...(ref.current?.querySelectorAll<HTMLElement>('.copy-value') ?? [])];
  useEffect(() => {
    values().forEach((el, i) => {
      el.id = `${baseId}-v${i}`;
      el.classList.toggle('active', i === active);
      if (i === active) el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    });
  });
  const activeId = active >= 0 && active < values().length ? `${baseId}-v${active}` : undefined;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const n = values().length;
    if (n === 0) return;
    const move: Record<string, number> = { ArrowDown: active + 1, ArrowRight: active + 1, ArrowUp: active - 1, ArrowLeft: active - 1, Home: 0, End: n - 1 };
    if (e.key in move) {
      e.preventDefault();
      setActive(Math.min(n - 1, Math.max(0, move[e.key]!)));
    } else if ((e.key === 'Enter' || e.key === ' ') && active >= 0) {
      e.preventDefault();
      values()[active]?.click();
    }
  };
  return (
    <div
      ref={ref}
      className={`copyable${className ? ` ${className}` : ''}`}
      tabIndex={0}
      role="group"
      aria-label={`${label}: arrow keys move between values, Enter copies`}
      aria-activedescendant={activeId}
      onKeyDown={onKeyDown}
      onFocus={() => setActive((a) => (a < 0 ? 0 : a))}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setActive(-1);
      }}
      data-testid={testId}
    >
      {children}
    </div>
  );
}

function isVector(v: unknown): v is number[] {
  return Array.isArray(v) && v.length >= 2 && v.length <= 4 && v.every((x) => typeof x === 'number');
}

function Scalar({ value, unit }: { value: unknown; unit: string }) {
  if (typeof value === 'number') {
    return (
      <CopyValue text={String(value)}>
        <span className="num">{formatNumber(value)}</span>
        {unit && Number.isFinite(value) && <span className="unit"> {unit}</span>}
      </CopyValue>
    );
  }
  if (isVector(value)) {
    return (
      <CopyValue text={JSON.stringify(value)}>
        <span className="num">({value.map((x) => formatNumber(x)).join(', ')})</span>
        {unit && <span className="unit"> {unit}</span>}
      </CopyValue>
    );
  }
  const text = value === null ? 'null' : typeof value === 'string' ? value : JSON.stringify(value);
  return <CopyValue text={text}>{text.length > 120 ? `${text.slice(0, 117)}…` : text}</CopyValue>;
}

function cellText(v: unknown): string {
  if (typeof v === 'number') return formatNumber(v);
  if (isVector(v)) return `(${v.map((x) => formatNumber(x)).join(', ')})`;
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/** An array of records as a table: the first rows, the most common keys. */
function RecordTable({ rows, name, units }: { rows: Record<string, unknown>[]; name: string; units: Units }) {
  const columns = useMemo(() => {
    const seen = new Map<string, number>();
    for (const r of rows.slice(0, 200)) for (const k of Object.keys(r)) seen.set(k, (seen.get(k) ?? 0) + 1);
    return [...seen.keys()].slice(0, TABLE_COLUMNS);
  }, [rows]);
  return (
    <div className="table-wrap">
      <table className="result-table" aria-label={name}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
                {unitOf(c, name) && <span className="unit"> ({unitText(unitOf(c, name), units, true)})</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, TABLE_ROWS).map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c}>{cellText(r[c])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > TABLE_ROWS && <p className="hint">First {TABLE_ROWS} of {rows.length} rows; all are in the JSON.</p>}
    </div>
  );
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Any JSON result as definitions: scalars with units (the kind from the key, the length unit from
 * `units`: the bodies the result concerns), vectors inline, arrays of records as tables.
 */
export function ValueTree({ value, name = 'result', depth = 0, unit = '', units = MODEL_UNITS }: { value: unknown; name?: string; depth?: number; unit?: string; units?: Units }) {
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="hint">none</span>;
    if (isVector(value)) return <Scalar value={value} unit={unit} />;
    if (value.every(isRecord)) return <RecordTable rows={value} name={name} units={units} />;
    if (value.length <= 12 && value.every(isVector)) {
      return (
        <ol className="vector-list">
          {value.map((v, i) => (
            <li key={i}>
              <Scalar value={v} unit={unit} />
            </li>
          ))}
        </ol>
      );
    }
    if (value.every((x) => typeof x !== 'object' || x === null)) {
      return <Scalar value={value.length > 50 ? `${value.slice(0, 50).join(', ')} … (${value.length})` : value.join(', ')} unit="" />;
    }
    return <Scalar value={value} unit="" />;
  }
  if (isRecord(value)) {
    if (depth >= 3) return <Scalar value={value} unit="" />;
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return (
      <dl className={`result-dl depth-${depth}`}>
        {entries.map(([k, v]) => (
          <div key={k} className="result-row">
            <dt>{k}</dt>
            <dd>
              <ValueTree value={v} name={k} depth={depth + 1} unit={unitText(unitOf(k, name), units) || (isRecord(v) ? '' : unit)} units={units} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  return <Scalar value={value} unit={unit} />;
}

