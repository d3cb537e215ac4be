import type { Body } from './Body';

/**
 * The unit of a pair's lengths (issue 29.4): the bodies' declared unit when one declares it and none
 * another (a mesh or cloud without a unit takes its nominal's, said in the note); else model units.
 */
export function pairUnit(candidate: Body, reference: Body): { length: string; note: string | null } {
  const units = [...new Set([candidate, reference].flatMap((b) => (b.lengthUnit ? [b.lengthUnit.unit] : [])))];
  if (units.length !== 1) return { length: 'model units', note: units.length > 1 ? 'the bodies declare different units' : null };
  const without = [candidate, reference].filter((b) => !b.lengthUnit).map((b) => b.name);
  return { length: units[0]!, note: without.length ? `${without.join(', ')} declares no unit and is read in ${units[0]}` : null };
}
