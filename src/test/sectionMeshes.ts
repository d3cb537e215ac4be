import type { TriMesh } from '../engine/mesh/TriMesh';

/** Open skin of the half cylinder x >= 0 (angles -pi/2 .. pi/2) of radius r around z, z in [0, height], outward normals. */
export function halfCylinderSkin(r: number, height: number, segments: number, stacks: number): TriMesh {
  const positions: number[] = [];
  for (let i = 0; i <= stacks; i++) {
    for (let j = 0; j <= segments; j++) {
      const phi = -Math.PI / 2 + (Math.PI * j) / segments;
      positions.push(r * Math.cos(phi), r * Math.sin(phi), (height * i) / stacks);
    }
  }
  const at = (i: number, j: number) => i * (segments + 1) + j;
  const indices: number[] = [];
  for (let i = 0; i < stacks; i++) {
    for (let j = 0; j < segments; j++) indices.push(at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i, j), at(i + 1, j + 1), at(i + 1, j));
  }
  return { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) };
}
