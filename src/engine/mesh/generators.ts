import type { TriMesh } from './TriMesh';

/**
 * Small mesh generators for tests and benchmarks. Every mesh is wound counter-clockwise seen from
 * the side its normals point to ("outside" unless asked otherwise).
 */

/** UV sphere: `segments` around z, `rings` from pole to pole; 2 x segments x (rings - 1) triangles, welded. */
export function uvSphere(radius: number, segments: number, rings: number, centre: readonly [number, number, number] = [0, 0, 0]): TriMesh {
  if (segments < 3 || rings < 2) throw new Error('generators: a sphere needs segments >= 3 and rings >= 2.');
  const [ox, oy, oz] = centre;
  const positions: number[] = [ox, oy, oz + radius];
  for (let i = 1; i < rings; i++) {
    const theta = (Math.PI * i) / rings;
    const z = Math.cos(theta), r = Math.sin(theta);
    for (let j = 0; j < segments; j++) {
      const phi = (2 * Math.PI * j) / segments;
      positions.push(ox + radius * r * Math.cos(phi), oy + radius * r * Math.sin(phi), oz + radius * z);
    }
  }
  positions.push(ox, oy, oz - radius);
  const south = 1 + (rings - 1) * segments;
  const ring = (i: number, j: number): number => 1 + (i - 1) * segments + (j % segments);
  const indices: number[] = [];
  for (let j = 0; j < segments; j++) indices.push(0, ring(1, j), ring(1, j + 1));
  for (let i = 1; i < rings - 1; i++) {
    for (let j = 0; j < segments; j++) {
      const a = ring(i, j), b = ring(i + 1, j), c = ring(i + 1, j + 1), d = ring(i, j + 1);
      indices.push(a, b, c, a, c, d);
    }
  }
  for (let j = 0; j < segments; j++) indices.push(south, ring(rings - 1, j + 1), ring(rings - 1, j));
  return { positions: new Float64Array(positions), indices: new Uint32Array(indices) };
}

interface CylinderOptions {
  radius: number;
  /** Along +z from z0. */
  height: number;
  segments: number;
  /** Rows of quads along the axis. Default 1. */
  stacks?: number;
  z0?: number;
  /** Close both ends with triangle fans. Default false (an open skin). */
  caps?: boolean;
  /** Normals toward the axis instead of away from it. Default false. */
  inward?: boolean;
}

/** Cylinder around the z axis; vertex columns at angles 2 pi j / segments, starting on +x. */
export function cylinder(options: CylinderOptions): TriMesh {
  const { radius, height, segments, stacks = 1, z0 = 0, caps = false, inward = false } = options;
  if (segments < 3 || stacks < 1) throw new Error('generators: a cylinder needs segments >= 3 and stacks >= 1.');
  const positions: number[] = [];
  for (let i = 0; i <= stacks; i++) {
    const z = z0 + (height * i) / stacks;
    for (let j = 0; j < segments; j++) {
      const phi = (2 * Math.PI * j) / segments;
      positions.push(radius * Math.cos(phi), radius * Math.sin(phi), z);
    }
  }
  const v = (i: number, j: number): number => i * segments + (j % segments);
  const indices: number[] = [];
  for (let i = 0; i < stacks; i++) {
    for (let j = 0; j < segments; j++) {
      const a = v(i, j), b = v(i, j + 1), c = v(i + 1, j + 1), d = v(i + 1, j);
      indices.push(a, b, c, a, c, d);
    }
  }
  if (caps) {
    const bottom = positions.length / 3;
    positions.push(0, 0, z0, 0, 0, z0 + height);
    for (let j = 0; j < segments; j++) {
      indices.push(bottom, v(0, j + 1), v(0, j));
      indices.push(bottom + 1, v(stacks, j), v(stacks, j + 1));
    }
  }
  const mesh = { positions: new Float64Array(positions), indices: new Uint32Array(indices) };
  return inward ? flipWinding(mesh) : mesh;
}

/**
 * Axis-aligned box, each face a divisions x divisions grid. Faces do not share vertices (like a
 * BREP tessellation): corners and edges are repeated with bit-identical coordinates.
 */
export function box(min: readonly [number, number, number], max: readonly [number, number, number], divisions = 1): TriMesh {
  const positions: number[] = [];
  const indices: number[] = [];
  const lerp = (k: number, i: number): number => (i === divisions ? max[k]! : min[k]! + ((max[k]! - min[k]!) * i) / divisions);
  // Each face: the fixed axis, its side, and the two in-plane axes ordered so that u x v points outward.
  const faces: readonly (readonly [number, 0 | 1, number, number])[] = [
    [0, 0, 2, 1],
    [0, 1, 1, 2],
    [1, 0, 0, 2],
    [1, 1, 2, 0],
    [2, 0, 1, 0],
    [2, 1, 0, 1],
  ];
  for (const [axis, side, u, w] of faces) {
    const base = positions.length / 3;
    for (let i = 0; i <= divisions; i++) {
      for (let j = 0; j <= divisions; j++) {
        const p = [0, 0, 0];
        p[axis] = side ? max[axis]! : min[axis]!;
        p[u] = lerp(u, i);
        p[w] = lerp(w, j);
        positions.push(p[0]!, p[1]!, p[2]!);
      }
    }
    const at = (i: number, j: number): number => base + i * (divisions + 1) + j;
    for (let i = 0; i < divisions; i++) {
      for (let j = 0; j < divisions; j++) {
        indices.push(at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j), at(i + 1, j + 1), at(i, j + 1));
      }
    }
  }
  return { positions: new Float64Array(positions), indices: new Uint32Array(indices) };
}

/** Flat n x n grid in the plane z = 0 over [0, size]^2, normal +z. */
export function grid(n: number, size: number): TriMesh {
  const positions: number[] = [];
  for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) positions.push((size * i) / n, (size * j) / n, 0);
  const indices: number[] = [];
  const at = (i: number, j: number): number => i * (n + 1) + j;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) indices.push(at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j), at(i + 1, j + 1), at(i, j + 1));
  }
  return { positions: new Float64Array(positions), indices: new Uint32Array(indices) };
}

/** Disc of `radius` in the plane z = 0 around the origin, a fan of `segments` triangles, normal +z. */
export function disc(radius: number, segments: number): TriMesh {
  const positions: number[] = [0, 0, 0];
  for (let j = 0; j < segments; j++) {
    const phi = (2 * Math.PI * j) / segments;
    positions.push(radius * Math.cos(phi), radius * Math.sin(phi), 0);
  }
  const indices: number[] = [];
  for (let j = 0; j < segments; j++) indices.push(0, 1 + j, 1 + ((j + 1) % segments));
  return { positions: new Float64Array(positions), indices: new Uint32Array(indices) };
}

/** Same triangles, opposite orientation. */
export function flipWinding(mesh: TriMesh): TriMesh {
  const indices = mesh.indices.slice();
  for (let t = 0; t < indices.length; t += 3) {
    const b = indices[t + 1]!;
    indices[t + 1] = indices[t + 2]!;
    indices[t + 2] = b;
  }
  return { positions: mesh.positions, indices };
}

/** Concatenates meshes into one (vertices not welded across parts). */
export function mergeMeshes(...meshes: TriMesh[]): TriMesh {
  let nv = 0, ni = 0;
  for (const m of meshes) {
    nv += m.positions.length;
    ni += m.indices.length;
  }
  const positions = new Float64Array(nv);
  const indices = new Uint32Array(ni);
  let ov = 0, oi = 0;
  for (const m of meshes) {
    positions.set(m.positions, ov);
    for (let i = 0; i < m.indices.length; i++) indices[oi + i] = m.indices[i]! + ov / 3;
    ov += m.positions.length;
    oi += m.indices.length;
  }
  return { positions, indices };
}

/** `count` random triangles with corners uniform in [0, size]^3: a soup with no structure at all. */
export function randomSoup(count: number, size: number, random: () => number): TriMesh {
  const positions = new Float64Array(9 * count);
  for (let i = 0; i < positions.length; i++) positions[i] = size * random();
  const indices = new Uint32Array(3 * count);
  for (let i = 0; i < indices.length; i++) indices[i] = i;
  return { positions, indices };
}

/** Deterministic uniform [0, 1) generator (mulberry32), so tests and benchmarks repeat exactly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
