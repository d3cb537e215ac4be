import type { Positions } from './TriMesh';

/**
 * Maps each vertex to the first vertex with bit-identical coordinates (-0 and +0 count as equal),
 * numbering the distinct positions 0..count-1 in order of first appearance. Open addressing on a
 * hash of the coordinates' bits, read straight from the positions' buffer; equality is `===` on
 * the coordinates, so NaN never welds.
 */
export function weldVertexIds(input: Positions): { ids: Uint32Array; count: number } {
  // Float32 coordinates weld as their float64 values (the same equality); a copy, rare (meshes from
  // files arrive welded) and freed on return.
  const positions = input instanceof Float32Array ? Float64Array.from(input) : input;
  const V = positions.length / 3;
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, 2 * positions.length);
  let cap = 16;
  while (cap < 2 * V) cap *= 2;
  const mask = cap - 1;
  const table = new Int32Array(cap).fill(-1); // vertex index of the representative
  const ids = new Uint32Array(V);
  const repId = new Uint32Array(V);
  let count = 0;
  for (let v = 0; v < V; v++) {
    const o = 3 * v;
    const x = positions[o]!, y = positions[o + 1]!, z = positions[o + 2]!;
    // A zero's bits are all zero but for the sign: fold -0 into 0 by hashing nothing for it.
    const slot0 = hashWords(x === 0 ? 0 : bits[2 * o]!, x === 0 ? 0 : bits[2 * o + 1]!, y === 0 ? 0 : bits[2 * o + 2]!, y === 0 ? 0 : bits[2 * o + 3]!, z === 0 ? 0 : bits[2 * o + 4]!, z === 0 ? 0 : bits[2 * o + 5]!);
    let slot = slot0 & mask;
    for (;;) {
      const r = table[slot]!;
      if (r < 0) {
        table[slot] = v;
        repId[v] = count;
        ids[v] = count++;
        break;
      }
      if (positions[3 * r] === x && positions[3 * r + 1] === y && positions[3 * r + 2] === z) {
        ids[v] = repId[r]!;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return { ids, count };
}

/** A 32-bit hash of six words (murmur3-style mixing of each, then a final avalanche). */
export function hashWords(a: number, b: number, c: number, d: number, e: number, f: number): number {
  let h = Math.imul(a, 0xcc9e2d51) ^ Math.imul(b, 0x1b873593);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b) ^ Math.imul(c, 0xcc9e2d51) ^ Math.imul(d, 0x1b873593);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) ^ Math.imul(e, 0xcc9e2d51) ^ Math.imul(f, 0x1b873593);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  return (h ^ (h >>> 13)) >>> 0;
}
