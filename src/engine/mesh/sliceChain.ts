/**
 * Chaining section pieces into polylines: piece ends within a tolerance are welded into nodes, then
 * the graph of pieces is walked into open paths (from odd-degree nodes) and closed loops. A piece
 * is a triangle's crossing segment (mesh slices) or a discretized section edge (kernel sections).
 */

/** A 2D polyline: interleaved x, y; a closed loop does not repeat its first point. */
export interface Polyline2 {
  points: Float64Array;
  closed: boolean;
}

export interface SectionCurves {
  loops: Polyline2[];
  paths: Polyline2[];
}

/**
 * Welds the endpoints of `segments` (x1, y1, x2, y2 each) within `tolerance` and walks them into
 * loops and open paths. Zero-length segments (both ends on one node) are dropped; a loop of fewer
 * than three nodes (a segment walked back and forth) is reported as an open path.
 */
export function chainSegments(segments: Float64Array, tolerance: number): SectionCurves {
  const count = Math.floor(segments.length / 4);
  return chain(
    count,
    (i, end) => 4 * i + 2 * end,
    segments,
    () => undefined,
    tolerance,
  );
}

/**
 * The same for polylines (x, y interleaved, at least two points each): only their end points are
 * welded, with `tolerance`, so a tolerance as wide as a kernel vertex's does not merge the closely
 * spaced points inside a finely discretized edge. A piece whose two ends weld together is a loop on
 * its own (a full circle is one edge).
 */
export function chainPolylines(pieces: readonly Float64Array[], tolerance: number): SectionCurves {
  const usable = pieces.filter((p) => p.length >= 4);
  // The end points, packed like segments so the core reads them the same way.
  const ends = new Float64Array(4 * usable.length);
  usable.forEach((p, i) => {
    ends[4 * i] = p[0]!;
    ends[4 * i + 1] = p[1]!;
    ends[4 * i + 2] = p[p.length - 2]!;
    ends[4 * i + 3] = p[p.length - 1]!;
  });
  return chain(
    usable.length,
    (i, end) => 4 * i + 2 * end,
    ends,
    (i, reversed, out) => {
      const p = usable[i]!;
      const n = p.length / 2;
      if (reversed) for (let k = n - 2; k >= 1; k--) out.push(p[2 * k]!, p[2 * k + 1]!);
      else for (let k = 1; k <= n - 2; k++) out.push(p[2 * k]!, p[2 * k + 1]!);
    },
    tolerance,
  );
}

/**
 * The chaining core: piece i runs from the point at xy[at(i, 0)] to the one at xy[at(i, 1)];
 * `interior` appends the points between (reversed when the piece is walked backwards).
 */
function chain(
  count: number,
  at: (piece: number, end: 0 | 1) => number,
  xy: Float64Array,
  interior: (piece: number, reversed: boolean, out: number[]) => void,
  tolerance: number,
): SectionCurves {
  const welder = new Welder(tolerance > 0 ? tolerance : 1e-12);
  const ends = new Uint32Array(2 * count);
  const pieceOf = new Uint32Array(count);
  const loops: Polyline2[] = [];
  const paths: Polyline2[] = [];
  let kept = 0;
  for (let s = 0; s < count; s++) {
    const a = welder.node(xy[at(s, 0)]!, xy[at(s, 0) + 1]!);
    const b = welder.node(xy[at(s, 1)]!, xy[at(s, 1) + 1]!);
    if (a === b) {
      const inner: number[] = [];
      interior(s, false, inner);
      // A closed piece: a loop by itself when it encloses anything.
      if (inner.length >= 4) loops.push({ points: Float64Array.from([welder.xy[2 * a]!, welder.xy[2 * a + 1]!, ...inner]), closed: true });
      continue;
    }
    ends[2 * kept] = a;
    ends[2 * kept + 1] = b;
    pieceOf[kept] = s;
    kept++;
  }
  const nodes = welder.count;
  const nodeXy = welder.xy;
  // Node -> incident pieces, CSR.
  const start = new Uint32Array(nodes + 1);
  for (let i = 0; i < 2 * kept; i++) start[ends[i]! + 1]!++;
  for (let i = 0; i < nodes; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, nodes);
  const incident = new Uint32Array(2 * kept);
  for (let s = 0; s < kept; s++) {
    incident[fill[ends[2 * s]!]!++] = s;
    incident[fill[ends[2 * s + 1]!]!++] = s;
  }
  const used = new Uint8Array(kept);
  const cursor = start.slice(0, nodes);
  const nextUnused = (node: number): number => {
    const endAt = start[node + 1]!;
    for (let i = cursor[node]!; i < endAt; i++) {
      const s = incident[i]!;
      if (!used[s]) {
        cursor[node] = i + 1;
        return s;
      }
    }
    cursor[node] = endAt;
    return -1;
  };
  /** Walks from a node until it is stuck; returns the points and the nodes it passed. */
  const walk = (from: number): { points: number[]; nodes: number[] } => {
    const points = [nodeXy[2 * from]!, nodeXy[2 * from + 1]!];
    const visited = [from];
    let node = from;
    for (;;) {
      const s = nextUnused(node);
      if (s < 0) return { points, nodes: visited };
      used[s] = 1;
      const forward = ends[2 * s] === node;
      interior(pieceOf[s]!, !forward, points);
      node = forward ? ends[2 * s + 1]! : ends[2 * s]!;
      points.push(nodeXy[2 * node]!, nodeXy[2 * node + 1]!);
      visited.push(node);
    }
  };
  for (let node = 0; node < nodes; node++) {
    if ((start[node + 1]! - start[node]!) % 2 === 0) continue;
    while (cursor[node]! < start[node + 1]!) {
      const w = walk(node);
      if (w.nodes.length > 1) paths.push({ points: Float64Array.from(w.points), closed: false });
    }
  }
  for (let node = 0; node < nodes; node++) {
    while (cursor[node]! < start[node + 1]!) {
      const w = walk(node);
      if (w.nodes.length < 2) continue;
      // Fewer than three distinct points cannot enclose anything: a piece walked back and forth.
      if (w.nodes[w.nodes.length - 1] === w.nodes[0] && w.points.length >= 8) {
        w.points.length -= 2;
        loops.push({ points: Float64Array.from(w.points), closed: true });
      } else {
        paths.push({ points: Float64Array.from(w.points), closed: false });
      }
    }
  }
  return { loops, paths };
}

/** Welds points on a hash grid with cells of the tolerance: a point joins a node within tolerance in the 3 x 3 cells around it. */
class Welder {
  count = 0;
  xy: Float64Array = new Float64Array(256);
  private readonly cells = new Map<number, number[]>();
  private readonly inv: number;
  private readonly tol2: number;

  constructor(tolerance: number) {
    this.inv = 1 / tolerance;
    this.tol2 = tolerance * tolerance;
  }

  node(x: number, y: number): number {
    const cx = Math.floor(x * this.inv), cy = Math.floor(y * this.inv);
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        const list = this.cells.get(hash(cx + dx, cy + dy));
        if (!list) continue;
        for (const id of list) {
          const ex = this.xy[2 * id]! - x, ey = this.xy[2 * id + 1]! - y;
          if (ex * ex + ey * ey <= this.tol2) return id;
        }
      }
    }
    const id = this.count++;
    if (2 * this.count > this.xy.length) {
      const grown = new Float64Array(this.xy.length * 2);
      grown.set(this.xy);
      this.xy = grown;
    }
    this.xy[2 * id] = x;
    this.xy[2 * id + 1] = y;
    const key = hash(cx, cy);
    const list = this.cells.get(key);
    if (list) list.push(id);
    else this.cells.set(key, [id]);
    return id;
  }
}

/** A 32-bit cell hash; collisions only cost a distance test. */
function hash(cx: number, cy: number): number {
  return Math.imul(cx | 0, 73856093) ^ Math.imul(cy | 0, 19349663);
}
