import { formatNumber } from './format';

/** A deviation in its unit, 4 significant digits, with an explicit sign. */
export function signed(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const s = Number(v.toPrecision(4));
  return `${s > 0 ? '+' : s < 0 ? '−' : ''}${formatNumber(Math.abs(s))}`;
}

/** One figure of a card: its label and its value (test id on the value). */
export function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

