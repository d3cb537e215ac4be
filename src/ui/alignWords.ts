import { formatFigure } from './format';
import { MODEL_UNITS, type Units } from './units';

/** A length as the alignment card prints it: four significant digits, the unit unless it is model units. */
export function alignLength(v: number, units: Units): string {
  return `${formatFigure(v)}${units.short === MODEL_UNITS.short ? '' : ` ${units.short}`}`;
}

/**
 * The RMS of an applied alignment in the Align step's status, with the same digits and unit as the
 * card under it (the step printed "RMS 0.76 → 4.6400e-7" above the card's "4.6360e-7 mm").
 */
export function rmsChange(before: number, after: number, units: Units): string {
  return `RMS ${alignLength(before, units)} → ${alignLength(after, units)}`;
}
