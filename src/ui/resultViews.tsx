import type { ComponentType } from 'react';
import type { DirectedRecord, ToolName } from '../engine';
import { formatCount, formatFigure } from './format';
import { showAlignment, showPlacement } from './alignment';
import { showAssembly } from './assembly';
import { recordValidation } from './bodies';
import { showFeatures } from './features';
import { showCharacteristics } from './gdt';
import { showDeviation } from './deviationReview';
import { Metrics } from './MetricsPanel';
import { showSections } from './sections';
import type { DoneCallOf } from './stores';
import { bodiesOfArgs } from './units';
import { useUnits } from './useStores';
import { ValueTree } from './ValueTree';

/**
 * The one way a tool's result gets its own treatment on the page, keyed and typed by tool name:
 * `View` replaces the generic summary under the tool's form; `apply` updates the inspection views
 * after any successful run of the tool (its button, its form, a share link). A tool without an
 * entry gets the generic summary and changes nothing else.
 */
export interface ResultViewEntry<N extends ToolName> {
  View?: ComponentType<{ call: DoneCallOf<N> }>;
  apply?: (call: DoneCallOf<N>) => void;
}

/** compute_metrics: the metrics card, then everything else it returned (principal axes ...). */
function MetricsView({ call }: { call: DoneCallOf<'compute_metrics'> }) {
  // The card shows the tight box's size; the spec's boundingBox (control hulls included) stays in the table.
  const { volume: _v, surfaceArea: _a, centerOfMass: _c, boundingBoxOptimal: _b, warnings: _w, ...rest } = call.result;
  const units = useUnits(bodiesOfArgs(call.args));
  return (
    <>
      <Metrics result={call.result} testIdPrefix="tools.metric-" units={units} />
      {Object.keys(rest).length > 0 && <ValueTree value={rest} units={units} />}
    </>
  );
}

/** validate_geometry: each body it checked gets its verdict on the badge ({bodyId, valid, issues} or {valid, bodies}). */
function showValidation(call: DoneCallOf<'validate_geometry'>): void {
  const r = call.result;
  const checked = !r ? [] : 'bodies' in r ? r.bodies : [r];
  for (const b of checked) recordValidation(b.bodyId, { valid: b.valid, by: 'validate_geometry', errors: b.issues.filter((i) => i.severity === 'error').length });
}

/** measure_deviation in words and units: both directions side by side (the raw JSON stays behind its disclosure). */
function DeviationView({ call }: { call: DoneCallOf<'measure_deviation'> }) {
  const r = call.result;
  const args = call.args as { fromBodyId?: string; toBodyId?: string };
  const units = useUnits(bodiesOfArgs(call.args));
  const len = (v: number | null) => (v === null ? '–' : `${formatFigure(v)} ${units.short}`);
  const pct = (v: number) => `${(v * 100).toFixed(2)} %`;
  const rows: [string, (d: DirectedRecord) => string][] = [
    ['Samples', (d) => formatCount(d.samples)],
    ['Signed mean', (d) => len(d.signedMean)],
    ['Signed min (inside)', (d) => len(d.signedMin)],
    ['Signed max (outside)', (d) => len(d.signedMax)],
    ['RMS', (d) => len(d.rms)],
    ['p95 |d|', (d) => len(d.p95)],
    ['Max |d|', (d) => len(d.max)],
    ['No sign (ambiguous)', (d) => pct(d.ambiguousFraction)],
  ];
  return (
    // Its own scroller: a narrow column scrolls the table, never the column.
    <div className="table-scroll">
    <table className="result-table" data-testid="tools.deviation-table">
      <thead>
        <tr>
          <th />
          <th>
            {args.fromBodyId} → {args.toBodyId}
          </th>
          <th>
            {args.toBodyId} → {args.fromBodyId}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, cell]) => (
          <tr key={label}>
            <th>{label}</th>
            <td className="num">{cell(r.fromToTo)}</td>
            <td className="num">{cell(r.toToFrom)}</td>
          </tr>
        ))}
        <tr>
          <th>Symmetric Hausdorff</th>
          <td className="num" colSpan={2}>
            {len(r.symmetricHausdorff)}
          </td>
        </tr>
      </tbody>
    </table>
    </div>
  );
}

const RESULT_VIEWS: { [N in ToolName]?: ResultViewEntry<N> } = {
  compute_metrics: { View: MetricsView },
  measure_deviation: { View: DeviationView, apply: showDeviation },
  align_bodies: { apply: showAlignment },
  set_placement: { apply: showPlacement },
  cross_section_compare: { apply: showSections },
  inspect_assembly: { apply: showAssembly },
  validate_geometry: { apply: showValidation },
  recognize_features: { apply: showFeatures },
  evaluate_gdt: { apply: showCharacteristics },
};

/** The inspection views follow a finished run (wired to the tool panel at start-up). */
export function applyResult<N extends ToolName>(call: DoneCallOf<N>): void {
  RESULT_VIEWS[call.tool]?.apply?.(call);
}

/** The tool's own view of a result, if it has one; else the generic summary. */
export function ResultSummary<N extends ToolName>({ call }: { call: DoneCallOf<N> }) {
  const View = RESULT_VIEWS[call.tool]?.View;
  const units = useUnits(bodiesOfArgs(call.args));
  return View ? <View call={call} /> : <ValueTree value={call.result} name={call.tool} units={units} />;
}
