/**
 * The element at index round((n - 1) * q) of an ascending array: the origin service's percentile
 * rule (no interpolation), so p95 is always a measured value.
 */
export function percentile(sortedAscending: ArrayLike<number>, q: number): number {
  const n = sortedAscending.length;
  return sortedAscending[Math.min(n - 1, Math.max(0, Math.round((n - 1) * q)))]!;
}
