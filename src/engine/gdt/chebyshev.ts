/**
 * Linear Chebyshev (minimax) fitting: min over x of max_i |y_i - A_i x|, solved exactly as a linear
 * programme. The primal (min t, |y_i - A_i x| <= t) has k + 1 free unknowns; its dual has k + 1
 * equality rows and 2n non-negative unknowns, so the simplex runs on a (k+1) x (k+1) basis and each
 * pivot costs O(n k): cheap for scans of thousands of points. The primal solution is the dual's
 * simplex multipliers. Bland's rule after a run of degenerate pivots keeps it from cycling.
 */
export interface ChebyshevFit {
  /** The k coefficients. */
  x: number[];
  /** The minimax residual max_i |y_i - A_i x|. */
  t: number;
}

const MAX_PIVOTS_PER_ROW = 200;

/**
 * `column(j, i)` is A[i][j] for the n rows; `y[i]` the targets. Returns null when the programme does
 * not settle (a degenerate design: fewer distinct rows than unknowns).
 */
export function chebyshevFit(n: number, k: number, column: (j: number, i: number) => number, y: ArrayLike<number>): ChebyshevFit | null {
  const m = k + 1;
  // Dual columns: u_i -> [A_i, 1] with cost y_i; v_i -> [-A_i, 1] with cost -y_i; then m artificials.
  const a = new Float64Array(n * k);
  for (let i = 0; i < n; i++) for (let j = 0; j < k; j++) a[i * k + j] = column(j, i);
  const total = 2 * n + m;
  const colEntry = (c: number, r: number): number => {
    if (c >= 2 * n) return c - 2 * n === r ? 1 : 0;
    const i = c >> 1, sign = c & 1 ? -1 : 1;
    return r === k ? 1 : sign * a[i * k + r]!;
  };
  const b = new Float64Array(m);
  b[k] = 1;
  const basis = Array.from({ length: m }, (_, r) => 2 * n + r);
  const scale = Math.max(1e-300, ...Array.from(y, Math.abs));

  const solvePhase = (cost: (c: number) => number, allowArtificial: boolean): boolean => {
    let degenerate = 0;
    for (let pivot = 0; pivot < MAX_PIVOTS_PER_ROW * m + 2 * n; pivot++) {
      const binv = inverse(basis.map((c) => Array.from({ length: m }, (_, r) => colEntry(c, r))), m);
      if (!binv) return false;
      // Multipliers pi = c_B B^-1 (B holds the basis columns as rows here: binv is (B^T)^-1).
      const cb = basis.map(cost);
      const pi = new Float64Array(m);
      for (let r = 0; r < m; r++) for (let s = 0; s < m; s++) pi[r]! += binv[r * m + s]! * cb[s]!;
      // Entering column: most positive reduced cost (maximization), or the first positive under Bland.
      const bland = degenerate > 2 * m;
      let enter = -1, best = 1e-12 * (1 + scale);
      for (let c = 0; c < total; c++) {
        if (!allowArtificial && c >= 2 * n) continue;
        if (basis.includes(c)) continue;
        let d = cost(c);
        for (let r = 0; r < m; r++) d -= pi[r]! * colEntry(c, r);
        if (d > best) {
          enter = c;
          best = bland ? Infinity : d;
          if (bland) break;
        }
      }
      if (enter < 0) return true;
      // Direction B^-1 a_enter and current values B^-1 b (binv transposed: binv[r*m+s] = (B^-1)[s][r]).
      const dir = new Float64Array(m), val = new Float64Array(m);
      for (let s = 0; s < m; s++) {
        for (let r = 0; r < m; r++) {
          dir[s]! += binv[r * m + s]! * colEntry(enter, r);
          val[s]! += binv[r * m + s]! * b[r]!;
        }
      }
      let leave = -1, ratio = Infinity;
      for (let s = 0; s < m; s++) {
        if (dir[s]! > 1e-12) {
          const q = Math.max(0, val[s]!) / dir[s]!;
          if (q < ratio - 1e-15 || (q <= ratio + 1e-15 && leave >= 0 && basis[s]! < basis[leave]!)) {
            ratio = q;
            leave = s;
          }
        }
      }
      if (leave < 0) return false; // unbounded: cannot happen for a bounded minimax problem
      degenerate = ratio < 1e-15 ? degenerate + 1 : 0;
      basis[leave] = enter;
    }
    return false;
  };

  // Phase 1: drive the artificials out (maximize minus their sum); phase 2: the true objective.
  if (!solvePhase((c) => (c >= 2 * n ? -1 : 0), true)) return null;
  if (!driveOutArtificials(basis, 2 * n, m, colEntry)) return null;
  const dualCost = (c: number): number => (c >= 2 * n ? 0 : (c & 1 ? -1 : 1) * y[c >> 1]!);
  if (!solvePhase(dualCost, false)) return null;
  const binv = inverse(basis.map((c) => Array.from({ length: m }, (_, r) => colEntry(c, r))), m);
  if (!binv) return null;
  const cb = basis.map((c) => (c >= 2 * n ? 0 : dualCost(c)));
  const pi = new Float64Array(m);
  for (let r = 0; r < m; r++) for (let s = 0; s < m; s++) pi[r]! += binv[r * m + s]! * cb[s]!;
  const x = Array.from(pi.subarray(0, k));
  // The minimax residual evaluated directly (the LP's t agrees to rounding).
  let t = 0;
  for (let i = 0; i < n; i++) {
    let r = y[i]!;
    for (let j = 0; j < k; j++) r -= a[i * k + j]! * x[j]!;
    t = Math.max(t, Math.abs(r));
  }
  return x.every(Number.isFinite) ? { x, t } : null;
}

/**
 * Phase 1 may end with artificials basic at level zero: swap each for a real column with a nonzero
 * entry in its row (a degenerate pivot), so phase 2 never moves them. False when a row has none
 * (the design's columns are dependent).
 */
function driveOutArtificials(basis: number[], real: number, m: number, colEntry: (c: number, r: number) => number): boolean {
  for (let s = 0; s < m; s++) {
    if (basis[s]! < real) continue;
    const binv = inverse(basis.map((c) => Array.from({ length: m }, (_, r) => colEntry(c, r))), m);
    if (!binv) return false;
    let swapped = false;
    for (let c = 0; c < real && !swapped; c++) {
      if (basis.includes(c)) continue;
      let d = 0;
      for (let r = 0; r < m; r++) d += binv[r * m + s]! * colEntry(c, r);
      if (Math.abs(d) > 1e-9) {
        basis[s] = c;
        swapped = true;
      }
    }
    if (!swapped) return false;
  }
  return true;
}

/**
 * Inverse of the transpose of the m x m matrix whose rows are `rows` (rows[s] = basis column s),
 * row-major, so that (B^-1)[s][r] = result[r * m + s]. Gauss-Jordan with partial pivoting.
 */
function inverse(rows: number[][], m: number): Float64Array | null {
  // Build B (columns = rows[s]) then invert it; return B^-1 transposed into the layout above.
  const w = new Float64Array(m * 2 * m);
  for (let r = 0; r < m; r++) {
    for (let s = 0; s < m; s++) w[r * 2 * m + s] = rows[s]![r]!;
    w[r * 2 * m + m + r] = 1;
  }
  for (let c = 0; c < m; c++) {
    let p = c;
    for (let r = c + 1; r < m; r++) if (Math.abs(w[r * 2 * m + c]!) > Math.abs(w[p * 2 * m + c]!)) p = r;
    const pv = w[p * 2 * m + c]!;
    if (!(Math.abs(pv) > 1e-14)) return null;
    if (p !== c) for (let k = 0; k < 2 * m; k++) [w[c * 2 * m + k], w[p * 2 * m + k]] = [w[p * 2 * m + k]!, w[c * 2 * m + k]!];
    for (let k = 0; k < 2 * m; k++) w[c * 2 * m + k]! /= pv;
    for (let r = 0; r < m; r++) {
      if (r === c) continue;
      const f = w[r * 2 * m + c]!;
      if (f === 0) continue;
      for (let k = 0; k < 2 * m; k++) w[r * 2 * m + k]! -= f * w[c * 2 * m + k]!;
    }
  }
  // inv[s][r] = (B^-1)[s][r] = w[s][m + r]; stored at result[r * m + s].
  const out = new Float64Array(m * m);
  for (let s = 0; s < m; s++) for (let r = 0; r < m; r++) out[r * m + s] = w[s * 2 * m + m + r]!;
  return out;
}
