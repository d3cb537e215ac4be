import type { Body } from './Body';
import { warning, type ToolWarning } from '../warnings';
import { SCAN_UNITS, type ScanUnit } from './scanUnits';

/**
 * The units a mismatch is suspected of: inches (US shops) and metres (photogrammetry, lidar). Not
 * centimetres: a partial scan a tenth of its part's size, not yet aligned, would be taken for one.
 */
const SUSPECTED: readonly ScanUnit[] = ['inch', 'm'];
/** How far the size ratio may stray from a unit's factor: a scan's box differs from its part's by what it covers. */
const RATIO_SLACK = 1.12;
/** A fit this poor relative to the smaller body's own size is no measurement of it... */
const POOR_FIT_OWN_SIZE = 0.02;
/** ...nor one that leaves this share of its samples without a counterpart (no data). */
const POOR_COVERAGE = 0.25;

/** How well the two bodies fit: the RMS distance, and the share of samples with no counterpart where known. */
export interface Fit {
  rms: number;
  noDataShare?: number | undefined;
}

export interface SizedBody {
  body: Body;
  /** Its box diagonal where it stands. */
  diagonal: number;
}

/**
 * The warning that two bodies are probably in different length units: one is a unit's factor
 * (25.4 or 1000) times the size of the other and they fit poorly (RMS above 2% of the smaller
 * one's diagonal, or a quarter of the samples without a counterpart); null otherwise. Names the smaller body, whose coordinates are the ones in the
 * larger unit, and how to give a scan file its unit.
 */
export function unitMismatchWarning(a: SizedBody, b: SizedBody, fit: Fit): ToolWarning | null {
  const { rms } = fit;
  if (!(a.diagonal > 0) || !(b.diagonal > 0) || !(rms >= 0)) return null;
  const [small, large] = a.diagonal <= b.diagonal ? [a, b] : [b, a];
  const uncovered = (fit.noDataShare ?? 0) > POOR_COVERAGE;
  if (!(rms > POOR_FIT_OWN_SIZE * small.diagonal) && !uncovered) return null;
  const ratio = large.diagonal / small.diagonal;
  const unit = SUSPECTED.find((u) => Math.abs(Math.log(ratio / SCAN_UNITS[u])) < Math.log(RATIO_SLACK));
  if (!unit) return null;
  const size = (x: number) => x.toPrecision(4);
  const unitless = !small.body.lengthUnit && small.body.kind !== 'brep';
  const largeUnit = large.body.lengthUnit ? 'millimetres' : 'its model units';
  return warning(
    'UNIT_MISMATCH',
    `'${small.body.bodyId}' is 1/${SCAN_UNITS[unit]} the size of '${large.body.bodyId}' (box diagonals ${size(small.diagonal)} and ${size(large.diagonal)}) ` +
      `and fits it poorly (RMS ${size(rms)}, ${((100 * rms) / small.diagonal).toFixed(0)}% of its size${uncovered ? `; ${(100 * fit.noDataShare!).toFixed(0)}% of the samples without a counterpart` : ''}): its coordinates are probably in ${unit === 'inch' ? 'inches' : 'metres'}, ` +
      `'${large.body.bodyId}' in ${largeUnit}.` +
      (unitless ? ` Import it again with its unit: "unit": "${unit}" (import_file), --unit ${small.body.bodyId}=${unit} (command line).` : ''),
  );
}
