/**
 * The longest delay a timer takes: 2^31 - 1 ms (24.8 days). Node and browsers fire a longer one at
 * once, so a deadline of 3e6 s or a self-check budget of 1e308 s was over before its work began. A
 * longer delay is held to this one: no call runs that long, and a later deadline stops it anyway.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delay a timer keeps: `ms`, at most MAX_TIMER_MS. */
export function timerDelay(ms: number): number {
  return Math.min(ms, MAX_TIMER_MS);
}
