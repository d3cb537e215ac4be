/**
 * Math.hypot(x, y, z), bit for bit, without its cost: V8's builtin allocates an array per call and
 * is never inlined, which made it the largest cost of building pseudo-normals for a 1M-triangle
 * mesh. This is the same algorithm (V8's src/builtins/math.tq MathHypot: scale by the largest
 * magnitude, Kahan-compensated sum of squares in argument order, square root, scale back), so
 * results are identical; math/hypot3.test.ts checks that against the builtin.
 */
export function hypot3(x: number, y: number, z: number): number {
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  let max = 0;
  if (ax > max) max = ax;
  if (ay > max) max = ay;
  if (az > max) max = az;
  if (max === Infinity) return Infinity;
  // A NaN argument fails every comparison above, so it never became max.
  if (x !== x || y !== y || z !== z) return NaN;
  if (max === 0) return 0;
  let sum = 0, compensation = 0;
  let n = ax / max;
  let summand = n * n - compensation;
  let preliminary = sum + summand;
  compensation = preliminary - sum - summand;
  sum = preliminary;
  n = ay / max;
  summand = n * n - compensation;
  preliminary = sum + summand;
  compensation = preliminary - sum - summand;
  sum = preliminary;
  n = az / max;
  summand = n * n - compensation;
  preliminary = sum + summand;
  return Math.sqrt(preliminary) * max;
}
