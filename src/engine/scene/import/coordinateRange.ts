import { BrepscopeError } from '../../errors';
import type { ParsedScan } from './scanFile';

/**
 * The largest coordinate a mesh or scan body may have: float32's largest value, about 3.4e38 (the
 * range binary STL and float PLY hold, and the viewer's positions). Within it every measure stays
 * in double precision (distances square it, areas too, the inertia takes its fifth power: 1e194);
 * past it a cloud at 1e300 measured with null statistics and display_mesh gave null positions.
 */
export const MAX_COORDINATE = 3.4028234663852886e38;

/** Refuses a parsed scan with a coordinate past MAX_COORDINATE (in millimetres, after a unit's scaling). */
export function refuseOutOfRange(parsed: ParsedScan, fileName: string, scaled: boolean): void {
  const positions = parsed.kind === 'mesh' ? parsed.mesh.positions : parsed.cloud.positions;
  // A float32 store holds nothing past the range but Infinity, which the readers refuse; only a scaling can reach it.
  if (positions instanceof Float32Array && !scaled) return;
  const n = parsed.kind === 'mesh' ? positions.length : 3 * parsed.cloud.count;
  const at = firstOutOfRange(positions, n);
  if (at < 0) return;
  const what = parsed.kind === 'mesh' ? 'a vertex' : 'a point';
  throw new BrepscopeError(
    'PARSE_FAILED',
    `${fileName}: ${what} has ${'xyz'[at % 3]} = ${positions[at]!.toPrecision(3)}${scaled ? ' (in millimetres)' : ''}, past ±3.4e38 (float32's range): no part or scan is that large; the file is damaged or in a wrong unit`,
  );
}

function firstOutOfRange(values: ArrayLike<number>, n: number): number {
  for (let i = 0; i < n; i++) if (!(Math.abs(values[i]!) <= MAX_COORDINATE)) return i;
  return -1;
}
