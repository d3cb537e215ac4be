/** One step between neighbouring float32 values: outward rounding of boxes stored as float32. */

const f32 = new Float32Array(1);
const f32Bits = new Int32Array(f32.buffer);

/** The float32 just below float32 f (f finite or +Infinity). */
export function f32Below(f: number): number {
  if (f === 0) return -1.401298464324817e-45;
  f32[0] = f;
  f32Bits[0] = f32Bits[0]! + (f > 0 ? -1 : 1);
  return f32[0]!;
}

/** The float32 just above float32 f (f finite or -Infinity). */
export function f32Above(f: number): number {
  if (f === 0) return 1.401298464324817e-45;
  f32[0] = f;
  f32Bits[0] = f32Bits[0]! + (f > 0 ? 1 : -1);
  return f32[0]!;
}
