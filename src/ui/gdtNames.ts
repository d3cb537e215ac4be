import { kindWords } from './PmiPanel';

/**
 * A characteristic's name in the width a table cell has. The full name is the drawing's word
 * (perpendicularity); where the panel is narrow, the short form a CMM report uses (perpend.) stands
 * in, never a word broken mid-way; the full name is always the cell's tooltip.
 */
const SHORT: Record<string, string> = {
  straightness: 'straightn.',
  cylindricity: 'cylindr.',
  perpendicularity: 'perpend.',
  parallelism: 'parallel.',
  angularity: 'angular.',
  surfaceProfile: 'surf. profile',
  lineProfile: 'line profile',
  circularRunout: 'circ. runout',
  concentricity: 'concentr.',
  coaxiality: 'coaxial.',
  sphericalDiameter: 'sph. diameter',
  sphericalRadius: 'sph. radius',
};

export interface KindName {
  full: string;
  short: string;
}

export function kindName(kind: string): KindName {
  const full = kindWords(kind);
  return { full, short: SHORT[kind] ?? full };
}
