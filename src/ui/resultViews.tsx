import type { ComponentType } from 'react';
import type { MetricsResult } from '../engine/tools/computeMetrics';
import { Metrics } from './MetricsPanel';
import { ValueTree } from './ValueTree';
import type { ToolCall } from './stores';

/** Props of a tool-specific result view: the whole call (args, result, files written). */
export interface ResultViewProps {
  call: ToolCall;
}

/**
 * Tool-specific result views by tool name. A tool without one gets the generic summary; a new view
 * (heat map legend, histogram, section strip ...) registers here and needs no change elsewhere.
 */
const VIEWS = new Map<string, ComponentType<ResultViewProps>>();

export function registerResultView(tool: string, view: ComponentType<ResultViewProps>): void {
  VIEWS.set(tool, view);
}

export function resultViewFor(tool: string): ComponentType<ResultViewProps> | undefined {
  return VIEWS.get(tool);
}

/** compute_metrics: the metrics card, then everything else it returned (principal axes ...). */
function MetricsView({ call }: ResultViewProps) {
  const result = call.result as MetricsResult;
  // The card shows the tight box's size; the spec's boundingBox (control hulls included) stays in the table.
  const { volume: _v, surfaceArea: _a, centerOfMass: _c, boundingBoxOptimal: _b, warnings: _w, ...rest } = result as MetricsResult & Record<string, unknown>;
  return (
    <>
      <Metrics result={result} testIdPrefix="tool-" />
      {Object.keys(rest).length > 0 && <ValueTree value={rest} />}
    </>
  );
}

registerResultView('compute_metrics', MetricsView);
