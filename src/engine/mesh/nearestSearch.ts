import { LINK_OFFSET, NODE_STRIDE } from './bvhLayout';
import { closestPointOnTriangle } from './closestPointOnTriangle';
import type { TriangleBvh } from './TriangleBvh';

/**
 * The unfiltered nearest-triangle search (closestPoint's core), specialised: no query object and
 * no call per node or per triangle. It walks the tree as bvhTraversal.nearestFirst does with
 * closestPoint's query (nearer child first, the left on a tie; the other deferred with its box
 * distance and reopened only while still closer than the best), with the box distances and
 * closestPointOnTriangle's distance inlined, on a stack of its own (nothing it calls searches).
 * So it finds the same slot and the same bits as the generic search. It comes in two copies, for
 * float64 and float32 corners (TriangleBvh.slotCorners), so that each loop reads one array type
 * only: a loop that meets both runs slower in V8 than either alone. The copies are the same text
 * but for the corner array's type; edit both.
 */

// The node layout, written out as literals in the loops below (a shift and fixed offsets).
if (NODE_STRIDE !== 8 || LINK_OFFSET !== 6) throw new Error('nearestSearch: node layout changed');

let nodeStack = new Uint32Array(64);
let scoreStack = new Float64Array(64);
/** The slot a search ended with (-1 for none), beside its returned squared distance. */
let foundSlot = -1;
const degenerateOut = new Float64Array(4);

function growStack(): void {
  const n = new Uint32Array(2 * nodeStack.length), s = new Float64Array(2 * nodeStack.length);
  n.set(nodeStack);
  s.set(scoreStack);
  nodeStack = n;
  scoreStack = s;
}

/**
 * The slot of the triangle nearest to p strictly within squared distance boundSq (-1 for none).
 * hintSlot (or -1) is tried first: any triangle's distance bounds the search, and a previous
 * query's triangle is usually near the next one.
 */
export function nearestSlotIn(bvh: TriangleBvh, px: number, py: number, pz: number, boundSq: number, hintSlot: number): number {
  if (bvh.nodeCount === 0) return -1;
  const tri = bvh.slotCorners;
  let bound = boundSq, slot = -1;
  if (hintSlot >= 0 && hintSlot < bvh.triangleCount) {
    const d = closestPointOnTriangle(tri, 9 * hintSlot, px, py, pz, degenerateOut);
    if (d < bound) {
      bound = d;
      slot = hintSlot;
    }
  }
  const b = bvh.nodeBounds;
  let root = 0, v: number;
  if ((v = b[0]! - px) > 0) root += v * v;
  else if ((v = px - b[3]!) > 0) root += v * v;
  if ((v = b[1]! - py) > 0) root += v * v;
  else if ((v = py - b[4]!) > 0) root += v * v;
  if ((v = b[2]! - pz) > 0) root += v * v;
  else if ((v = pz - b[5]!) > 0) root += v * v;
  if (!(root < bound)) return slot;
  if (tri instanceof Float32Array) nearest32(b, bvh.nodeLinks, tri, px, py, pz, bound, slot);
  else nearest64(b, bvh.nodeLinks, tri, px, py, pz, bound, slot);
  return foundSlot;
}

/** nearestSlot over Float64Array corners (see nearestSlotIn). */
function nearest64(bounds: Float32Array, links: Uint32Array, tri: Float64Array, px: number, py: number, pz: number, bound: number, slot: number): number {
  let stackNode = nodeStack, stackScore = scoreStack;
  let top = 0;
  let node = 0;
  for (;;) {
    const o = node << 3;
    const count = links[o + 7]!;
    if (count > 0) {
      for (let s = links[o + 6]!, end = s + count; s < end; s++) {
        // closestPointOnTriangle's distance, inlined: the same operations in the same order.
        const t = 9 * s;
        const ax = tri[t]!, ay = tri[t + 1]!, az = tri[t + 2]!;
        const bx = tri[t + 3]!, by = tri[t + 4]!, bz = tri[t + 5]!;
        const cx = tri[t + 6]!, cy = tri[t + 7]!, cz = tri[t + 8]!;
        const abx = bx - ax, aby = by - ay, abz = bz - az;
        const acx = cx - ax, acy = cy - ay, acz = cz - az;
        const apx = px - ax, apy = py - ay, apz = pz - az;
        const d1 = abx * apx + aby * apy + abz * apz;
        const d2 = acx * apx + acy * apy + acz * apz;
        let qx: number, qy: number, qz: number;
        if (d1 <= 0 && d2 <= 0) {
          qx = ax;
          qy = ay;
          qz = az;
        } else {
          const bpx = px - bx, bpy = py - by, bpz = pz - bz;
          const d3 = abx * bpx + aby * bpy + abz * bpz;
          const d4 = acx * bpx + acy * bpy + acz * bpz;
          const vc = d1 * d4 - d3 * d2;
          if (d3 >= 0 && d4 <= d3) {
            qx = bx;
            qy = by;
            qz = bz;
          } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
            const v = d1 / (d1 - d3);
            qx = ax + v * abx;
            qy = ay + v * aby;
            qz = az + v * abz;
          } else {
            const cpx = px - cx, cpy = py - cy, cpz = pz - cz;
            const d5 = abx * cpx + aby * cpy + abz * cpz;
            const d6 = acx * cpx + acy * cpy + acz * cpz;
            const vb = d5 * d2 - d1 * d6;
            const va = d3 * d6 - d5 * d4;
            if (d6 >= 0 && d5 <= d6) {
              qx = cx;
              qy = cy;
              qz = cz;
            } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
              const w = d2 / (d2 - d6);
              qx = ax + w * acx;
              qy = ay + w * acy;
              qz = az + w * acz;
            } else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
              const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
              qx = bx + w * (cx - bx);
              qy = by + w * (cy - by);
              qz = bz + w * (cz - bz);
            } else {
              const nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
              const n2 = nx * nx + ny * ny + nz * nz;
              if (!(n2 > 1e-24 * (abx * abx + aby * aby + abz * abz) * (acx * acx + acy * acy + acz * acz))) {
                // Collinear corners (rare): the general routine.
                const d = closestPointOnTriangle(tri, t, px, py, pz, degenerateOut);
                if (d < bound) {
                  bound = d;
                  slot = s;
                }
                continue;
              }
              const h = (apx * nx + apy * ny + apz * nz) / n2;
              qx = px - h * nx;
              qy = py - h * ny;
              qz = pz - h * nz;
            }
          }
        }
        const dx = px - qx, dy = py - qy, dz = pz - qz;
        const d = dx * dx + dy * dy + dz * dz;
        if (d < bound) {
          bound = d;
          slot = s;
        }
      }
    } else {
      // Both children's squared box distances, inlined (nodeDistanceSq).
      const l = o + 8, r = links[o + 6]! << 3;
      let dl = 0, dr = 0, v: number;
      if ((v = bounds[l]! - px) > 0) dl += v * v;
      else if ((v = px - bounds[l + 3]!) > 0) dl += v * v;
      if ((v = bounds[l + 1]! - py) > 0) dl += v * v;
      else if ((v = py - bounds[l + 4]!) > 0) dl += v * v;
      if ((v = bounds[l + 2]! - pz) > 0) dl += v * v;
      else if ((v = pz - bounds[l + 5]!) > 0) dl += v * v;
      if ((v = bounds[r]! - px) > 0) dr += v * v;
      else if ((v = px - bounds[r + 3]!) > 0) dr += v * v;
      if ((v = bounds[r + 1]! - py) > 0) dr += v * v;
      else if ((v = py - bounds[r + 4]!) > 0) dr += v * v;
      if ((v = bounds[r + 2]! - pz) > 0) dr += v * v;
      else if ((v = pz - bounds[r + 5]!) > 0) dr += v * v;
      // Nearer child first (the left on a tie), the other deferred with its distance.
      let near = node + 1, far = r >>> 3, dn = dl, df = dr;
      if (dr < dl) {
        near = far;
        far = node + 1;
        dn = dr;
        df = dl;
      }
      if (df < bound) {
        if (top === stackNode.length) {
          growStack();
          stackNode = nodeStack;
          stackScore = scoreStack;
        }
        stackNode[top] = far;
        stackScore[top++] = df;
      }
      if (dn < bound) {
        node = near;
        continue;
      }
    }
    // Reopen the latest deferred subtree still closer than the best so far.
    for (;;) {
      if (top === 0) {
        foundSlot = slot;
        return bound;
      }
      if (stackScore[--top]! < bound) break;
    }
    node = stackNode[top]!;
  }
}

/** nearestSlot over Float32Array corners (see nearestSlotIn). */
function nearest32(bounds: Float32Array, links: Uint32Array, tri: Float32Array, px: number, py: number, pz: number, bound: number, slot: number): number {
  let stackNode = nodeStack, stackScore = scoreStack;
  let top = 0;
  let node = 0;
  for (;;) {
    const o = node << 3;
    const count = links[o + 7]!;
    if (count > 0) {
      for (let s = links[o + 6]!, end = s + count; s < end; s++) {
        // closestPointOnTriangle's distance, inlined: the same operations in the same order.
        const t = 9 * s;
        const ax = tri[t]!, ay = tri[t + 1]!, az = tri[t + 2]!;
        const bx = tri[t + 3]!, by = tri[t + 4]!, bz = tri[t + 5]!;
        const cx = tri[t + 6]!, cy = tri[t + 7]!, cz = tri[t + 8]!;
        const abx = bx - ax, aby = by - ay, abz = bz - az;
        const acx = cx - ax, acy = cy - ay, acz = cz - az;
        const apx = px - ax, apy = py - ay, apz = pz - az;
        const d1 = abx * apx + aby * apy + abz * apz;
        const d2 = acx * apx + acy * apy + acz * apz;
        let qx: number, qy: number, qz: number;
        if (d1 <= 0 && d2 <= 0) {
          qx = ax;
          qy = ay;
          qz = az;
        } else {
          const bpx = px - bx, bpy = py - by, bpz = pz - bz;
          const d3 = abx * bpx + aby * bpy + abz * bpz;
          const d4 = acx * bpx + acy * bpy + acz * bpz;
          const vc = d1 * d4 - d3 * d2;
          if (d3 >= 0 && d4 <= d3) {
            qx = bx;
            qy = by;
            qz = bz;
          } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
            const v = d1 / (d1 - d3);
            qx = ax + v * abx;
            qy = ay + v * aby;
            qz = az + v * abz;
          } else {
            const cpx = px - cx, cpy = py - cy, cpz = pz - cz;
            const d5 = abx * cpx + aby * cpy + abz * cpz;
            const d6 = acx * cpx + acy * cpy + acz * cpz;
            const vb = d5 * d2 - d1 * d6;
            const va = d3 * d6 - d5 * d4;
            if (d6 >= 0 && d5 <= d6) {
              qx = cx;
              qy = cy;
              qz = cz;
            } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
              const w = d2 / (d2 - d6);
              qx = ax + w * acx;
              qy = ay + w * acy;
              qz = az + w * acz;
            } else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
              const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
              qx = bx + w * (cx - bx);
              qy = by + w * (cy - by);
              qz = bz + w * (cz - bz);
            } else {
              const nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
              const n2 = nx * nx + ny * ny + nz * nz;
              if (!(n2 > 1e-24 * (abx * abx + aby * aby + abz * abz) * (acx * acx + acy * acy + acz * acz))) {
                // Collinear corners (rare): the general routine.
                const d = closestPointOnTriangle(tri, t, px, py, pz, degenerateOut);
                if (d < bound) {
                  bound = d;
                  slot = s;
                }
                continue;
              }
              const h = (apx * nx + apy * ny + apz * nz) / n2;
              qx = px - h * nx;
              qy = py - h * ny;
              qz = pz - h * nz;
            }
          }
        }
        const dx = px - qx, dy = py - qy, dz = pz - qz;
        const d = dx * dx + dy * dy + dz * dz;
        if (d < bound) {
          bound = d;
          slot = s;
        }
      }
    } else {
      // Both children's squared box distances, inlined (nodeDistanceSq).
      const l = o + 8, r = links[o + 6]! << 3;
      let dl = 0, dr = 0, v: number;
      if ((v = bounds[l]! - px) > 0) dl += v * v;
      else if ((v = px - bounds[l + 3]!) > 0) dl += v * v;
      if ((v = bounds[l + 1]! - py) > 0) dl += v * v;
      else if ((v = py - bounds[l + 4]!) > 0) dl += v * v;
      if ((v = bounds[l + 2]! - pz) > 0) dl += v * v;
      else if ((v = pz - bounds[l + 5]!) > 0) dl += v * v;
      if ((v = bounds[r]! - px) > 0) dr += v * v;
      else if ((v = px - bounds[r + 3]!) > 0) dr += v * v;
      if ((v = bounds[r + 1]! - py) > 0) dr += v * v;
      else if ((v = py - bounds[r + 4]!) > 0) dr += v * v;
      if ((v = bounds[r + 2]! - pz) > 0) dr += v * v;
      else if ((v = pz - bounds[r + 5]!) > 0) dr += v * v;
      // Nearer child first (the left on a tie), the other deferred with its distance.
      let near = node + 1, far = r >>> 3, dn = dl, df = dr;
      if (dr < dl) {
        near = far;
        far = node + 1;
        dn = dr;
        df = dl;
      }
      if (df < bound) {
        if (top === stackNode.length) {
          growStack();
          stackNode = nodeStack;
          stackScore = scoreStack;
        }
        stackNode[top] = far;
        stackScore[top++] = df;
      }
      if (dn < bound) {
        node = near;
        continue;
      }
    }
    // Reopen the latest deferred subtree still closer than the best so far.
    for (;;) {
      if (top === 0) {
        foundSlot = slot;
        return bound;
      }
      if (stackScore[--top]! < bound) break;
    }
    node = stackNode[top]!;
  }
}
