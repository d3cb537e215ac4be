import { sceneStore } from './stores';
import type { UnitKind } from './format';

/**
 * The unit a length on the page carries. A body's file may declare one (STEP, IGES, 3MF: the
 * importer converts it to mm, so `lengthUnit` is 'mm'); BREP, STL, PLY and OBJ files declare none,
 * and their lengths are in "model units". A figure about several bodies (a comparison) is in the
 * unit the bodies declare when at least one declares it and none declares another: a scan without a
 * unit compared with a part in mm is read in mm (a comparison presumes one unit), and the label says
 * which body the unit came from.
 */
export interface Units {
  /** 'mm' or 'model units'. */
  length: string;
  /** Short form for table headers: 'mm' or 'mu'. */
  short: string;
  /** Why that unit, when it is not every body's own ("mm, from part; scan declares no unit"). */
  note?: string;
}

export const MODEL_UNITS: Units = { length: 'model units', short: 'mu' };

/** The units of figures about these bodies (ids not in the scene are ignored). */
export function unitsOf(bodyIds: readonly (string | null | undefined)[]): Units {
  const bodies = sceneStore.getState().bodies.filter((b) => bodyIds.includes(b.bodyId));
  const declared = [...new Set(bodies.flatMap((b) => (b.summary.lengthUnit ? [b.summary.lengthUnit] : [])))];
  if (declared.length !== 1) return MODEL_UNITS;
  const unit = declared[0]!;
  const without = bodies.filter((b) => !b.summary.lengthUnit).map((b) => b.bodyId);
  const from = bodies.filter((b) => b.summary.lengthUnit).map((b) => b.bodyId);
  return { length: unit, short: unit, ...(without.length ? { note: `${unit}, from ${from.join(', ')}; ${without.join(', ')} declares no unit` } : {}) };
}

/** The bodies a tool call concerns: every argument named bodyId or …BodyId. */
export function bodiesOfArgs(args: unknown): string[] {
  if (!args || typeof args !== 'object') return [];
  return Object.entries(args).flatMap(([k, v]) => (/bodyId$/i.test(k) && typeof v === 'string' ? [v] : []));
}

/** The text of a unit kind in these units ('' for none). */
export function unitText(kind: UnitKind, units: Units, short = false): string {
  const l = short ? units.short : units.length;
  switch (kind) {
    case 'length':
      return l;
    case 'area':
      return `${l}²`;
    case 'volume':
      return `${l}³`;
    case 'angle':
      return 'rad';
    case 'degrees':
      return '°';
    case 'curvature':
      return `1/${units.short}`;
    case 'curvature2':
      return `1/${units.short}²`;
    case 'ms':
      return 'ms';
    default:
      return '';
  }
}
