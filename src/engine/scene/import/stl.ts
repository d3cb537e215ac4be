import { BrepscopeError } from '../../errors';
import type { TriMesh } from '../../mesh/TriMesh';

const HEADER_BYTES = 84;
const RECORD_BYTES = 50;

/**
 * Parses a binary or ASCII STL into a welded TriMesh: corners with bit-identical coordinates
 * become one vertex, so the mesh has the facet-shell topology the spec describes (vertices are the
 * mesh corner points). Facet normals in the file are ignored; winding defines orientation.
 */
export function parseStl(bytes: Uint8Array, name = 'STL'): TriMesh {
  if (bytes.byteLength === 0) throw new BrepscopeError('EMPTY_FILE', `${name}: the file is empty`);
  const binaryCount = bytes.byteLength >= HEADER_BYTES ? new DataView(bytes.buffer, bytes.byteOffset + 80, 4).getUint32(0, true) : -1;
  if (binaryCount >= 0 && HEADER_BYTES + binaryCount * RECORD_BYTES === bytes.byteLength) {
    return weldCorners(readBinaryCorners(bytes, binaryCount), name);
  }
  if (looksLikeAsciiStl(bytes)) return weldCorners(readAsciiCorners(bytes, name), name);
  if (binaryCount >= 0) {
    const need = HEADER_BYTES + binaryCount * RECORD_BYTES;
    throw new BrepscopeError(
      'PARSE_FAILED',
      need > bytes.byteLength
        ? `${name}: truncated binary STL: the header announces ${binaryCount} triangles (${need} bytes) but the file has ${bytes.byteLength} bytes`
        : `${name}: not an STL: binary header announces ${binaryCount} triangles (${need} bytes) but the file has ${bytes.byteLength} bytes, and it is not ASCII STL`,
    );
  }
  throw new BrepscopeError('PARSE_FAILED', `${name}: not an STL: ${bytes.byteLength} bytes is shorter than a binary STL header and the text is not ASCII STL`);
}

/**
 * ASCII STL starts with `solid`, but so do many binary STL headers: a NUL byte (binary header padding
 * or float data) rules text out, so a truncated binary file is reported as such, not as an empty mesh.
 */
function looksLikeAsciiStl(bytes: Uint8Array): boolean {
  const start = bytes.subarray(0, Math.min(bytes.byteLength, 1024));
  if (start.includes(0)) return false;
  const head = new TextDecoder('latin1').decode(start).trimStart().toLowerCase();
  return head.startsWith('solid') && (bytes.byteLength < 1024 || /facet|endsolid/.test(head));
}

function readBinaryCorners(bytes: Uint8Array, count: number): Float64Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const corners = new Float64Array(count * 9);
  for (let t = 0; t < count; t++) {
    const base = HEADER_BYTES + t * RECORD_BYTES + 12; // skip the facet normal
    for (let k = 0; k < 9; k++) corners[t * 9 + k] = view.getFloat32(base + k * 4, true);
  }
  return corners;
}

function readAsciiCorners(bytes: Uint8Array, name: string): Float64Array {
  const text = new TextDecoder('latin1').decode(bytes);
  const out: number[] = [];
  const vertex = /vertex\s+(\S+)\s+(\S+)\s+(\S+)/gi;
  for (let m = vertex.exec(text); m; m = vertex.exec(text)) {
    out.push(Number(m[1]), Number(m[2]), Number(m[3]));
  }
  if (out.length % 9 !== 0) {
    throw new BrepscopeError('PARSE_FAILED', `${name}: ASCII STL has ${out.length / 3} vertices, not a multiple of 3 (truncated facet?)`);
  }
  const facets = (text.match(/endfacet/gi) ?? []).length;
  if (facets !== out.length / 9) {
    throw new BrepscopeError('PARSE_FAILED', `${name}: ASCII STL has ${facets} complete facets but ${out.length / 9} vertex triples (truncated file?)`);
  }
  return Float64Array.from(out);
}

/** Welds corners with identical coordinates (hash of the float64 bit patterns; -0 folded into 0). */
function weldCorners(corners: Float64Array, name: string): TriMesh {
  const n = corners.length / 3;
  if (n === 0) throw new BrepscopeError('EMPTY_MESH', `${name}: the STL contains no triangles`);
  for (let i = 0; i < corners.length; i++) {
    const v = corners[i]!;
    if (!Number.isFinite(v)) throw new BrepscopeError('PARSE_FAILED', `${name}: coordinate ${i % 3 === 0 ? 'x' : i % 3 === 1 ? 'y' : 'z'} of corner ${Math.floor(i / 3)} is not a finite number`);
    if (v === 0) corners[i] = 0;
  }
  const bits = new Uint32Array(corners.buffer, corners.byteOffset, corners.length * 2);
  let size = 1;
  while (size < n * 2) size <<= 1;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  const indices = new Uint32Array(n);
  const firstCorner = new Uint32Array(n); // vertex -> corner that defined it
  let vertices = 0;
  for (let c = 0; c < n; c++) {
    const b = c * 6;
    let h = Math.imul(bits[b]! ^ bits[b + 1]!, 0x9e3779b1);
    h = Math.imul(h ^ bits[b + 2]! ^ bits[b + 3]!, 0x85ebca77);
    h = Math.imul(h ^ bits[b + 4]! ^ bits[b + 5]!, 0xc2b2ae3d);
    h ^= h >>> 15;
    let slotIndex = h & mask;
    for (;;) {
      const vtx = table[slotIndex]!;
      if (vtx < 0) {
        table[slotIndex] = vertices;
        firstCorner[vertices] = c;
        indices[c] = vertices++;
        break;
      }
      const o = firstCorner[vtx]! * 3;
      if (corners[o] === corners[c * 3] && corners[o + 1] === corners[c * 3 + 1] && corners[o + 2] === corners[c * 3 + 2]) {
        indices[c] = vtx;
        break;
      }
      slotIndex = (slotIndex + 1) & mask;
    }
  }
  const positions = new Float64Array(vertices * 3);
  for (let v = 0; v < vertices; v++) {
    const o = firstCorner[v]! * 3;
    positions[v * 3] = corners[o]!;
    positions[v * 3 + 1] = corners[o + 1]!;
    positions[v * 3 + 2] = corners[o + 2]!;
  }
  return { positions, indices };
}

/** Writes a binary STL (used by tests and the demo to make scan-like meshes). */
export function writeBinaryStl(mesh: TriMesh, header = 'brepscope'): Uint8Array {
  const count = mesh.indices.length / 3;
  const out = new Uint8Array(HEADER_BYTES + count * RECORD_BYTES);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(header.slice(0, 80)));
  view.setUint32(80, count, true);
  const p = mesh.positions;
  for (let t = 0; t < count; t++) {
    const base = HEADER_BYTES + t * RECORD_BYTES;
    const a = mesh.indices[t * 3]! * 3, b = mesh.indices[t * 3 + 1]! * 3, c = mesh.indices[t * 3 + 2]! * 3;
    const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
    const wx = p[c]! - p[a]!, wy = p[c + 1]! - p[a + 1]!, wz = p[c + 2]! - p[a + 2]!;
    const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    const l = Math.hypot(nx, ny, nz) || 1;
    view.setFloat32(base, nx / l, true);
    view.setFloat32(base + 4, ny / l, true);
    view.setFloat32(base + 8, nz / l, true);
    let o = base + 12;
    for (const v of [a, b, c]) {
      view.setFloat32(o, p[v]!, true);
      view.setFloat32(o + 4, p[v + 1]!, true);
      view.setFloat32(o + 8, p[v + 2]!, true);
      o += 12;
    }
  }
  return out;
}
