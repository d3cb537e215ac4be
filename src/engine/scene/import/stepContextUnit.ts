/**
 * The length unit of a STEP file's representation context, read from the text: the fallback when
 * STEPControl_Reader.FileUnits names none. FileUnits named none for NIST CTC 05 (AP242), whose context
 * assigns a complex CONVERSION_BASED_UNIT('inch') (LENGTH_UNIT, NAMED_UNIT): the kernel still converted
 * its coordinates from inches, so the body is in mm and should say from what.
 */
const CONTEXT_UNITS = /GLOBAL_UNIT_ASSIGNED_CONTEXT\s*\(\s*\(([^)]*)\)/gi;
const SI_PREFIX: Record<string, string> = { MILLI: 'millimetre', CENTI: 'centimetre', DECI: 'decimetre', KILO: 'kilometre', MICRO: 'micrometre' };

export function stepContextLengthUnit(bytes: Uint8Array): string | null {
  const text = new TextDecoder('latin1').decode(bytes);
  for (const context of text.matchAll(CONTEXT_UNITS)) {
    for (const ref of context[1]!.matchAll(/#(\d+)/g)) {
      const unit = new RegExp(`#${ref[1]}\\s*=\\s*([^;]*);`).exec(text)?.[1];
      if (!unit || !/LENGTH_UNIT\s*\(/i.test(unit)) continue;
      const named = /CONVERSION_BASED_UNIT\s*\(\s*'([^']*)'/i.exec(unit);
      if (named) return named[1]!.trim() || null;
      const si = /SI_UNIT\s*\(\s*(?:\.([A-Z]+)\.|\$)\s*,\s*\.METRE\.\s*\)/i.exec(unit);
      if (si) return si[1] ? (SI_PREFIX[si[1].toUpperCase()] ?? null) : 'metre';
    }
  }
  return null;
}
