const hashF = new Float64Array(3);
const hashU = new Uint32Array(hashF.buffer);

/**
 * Maps each vertex to the first vertex with bit-identical coordinates (-0 and +0 count as equal),
 * numbering the distinct positions 0..count-1. Open addressing on a hash of the coordinate bits.
 */
export function weldVertexIds(positions: Float64Array): { ids: Uint32Array; count: number } {
  const V = positions.length / 3;
  let cap = 16;
  while (cap < 2 * V) cap *= 2;
  const mask = cap - 1;
  const table = new Int32Array(cap).fill(-1); // vertex index of the representative
  const ids = new Uint32Array(V);
  const repId = new Uint32Array(V);
  let count = 0;
  for (let v = 0; v < V; v++) {
    const x = positions[3 * v]! + 0, y = positions[3 * v + 1]! + 0, z = positions[3 * v + 2]! + 0;
    hashF[0] = x;
    hashF[1] = y;
    hashF[2] = z;
    let h = 0x811c9dc5;
    for (let i = 0; i < 6; i++) h = Math.imul(h ^ hashU[i]!, 0x01000193);
    h ^= h >>> 15;
    let slot = h & mask;
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
