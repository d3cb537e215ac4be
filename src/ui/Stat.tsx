import { figureText } from '../engine';

/** A deviation in its unit, 4 significant digits, with an explicit sign: the report's text (figureText). */
export function signed(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return figureText(v, true);
}

/** One figure of a card: its label and its value (test id on the value). */
export function Stat({ label, value, testId, wide = false }: { label: string; value: string; testId: string; wide?: boolean }) {
  return (
    <div className={wide ? 'stat wide' : 'stat'}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

