import { formatNumber } from './format';

/**
 * The deflection's words on the stats card. A metrologist reads "deflection 1.32" as an accuracy;
 * in exact mode it only tessellates the CAD to find the candidate faces (docs/deviation.md, "What
 * is measured"), in tessellated mode it is the chord sag of the surface measured, and between two
 * meshes it is not used at all, so the card says which.
 */
export function deflectionWords(deflection: number, isDefault: boolean, surface: 'exact' | 'tessellated' | undefined, anyBrep: boolean): string | null {
  if (!anyBrep) return null;
  const value = `${formatNumber(Number(deflection.toPrecision(4)))}${isDefault ? ' (default)' : ''}`;
  return surface === 'tessellated' ? `CAD as its tessellation, deflection ${value}` : `exact CAD faces · search tessellation ${value}`;
}
