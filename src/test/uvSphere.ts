/**
 * A closed UV sphere as flat arrays (rings + 1 latitude rows of `segs` vertices; the pole rows'
 * triangles that would be slivers are left out): 2 * rings * segs - 2 * segs triangles.
 */
export function uvSphere(rings: number, segs: number, r: number, c: readonly [number, number, number]): { positions: Float32Array<ArrayBuffer>; indices: Uint32Array<ArrayBuffer> } {
  const positions: number[] = [];
  for (let i = 0; i <= rings; i++)
    for (let j = 0; j < segs; j++) {
      const th = (Math.PI * i) / rings, ph = (2 * Math.PI * j) / segs;
      positions.push(c[0] + r * Math.sin(th) * Math.cos(ph), c[1] + r * Math.sin(th) * Math.sin(ph), c[2] + r * Math.cos(th));
    }
  const v = (i: number, j: number) => i * segs + (j % segs);
  const indices: number[] = [];
  for (let i = 0; i < rings; i++)
    for (let j = 0; j < segs; j++) {
      if (i < rings - 1) indices.push(v(i, j), v(i + 1, j), v(i + 1, j + 1));
      if (i > 0) indices.push(v(i, j), v(i + 1, j + 1), v(i, j + 1));
    }
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}
