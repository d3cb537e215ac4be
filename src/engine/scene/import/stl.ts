import { BrepscopeError } from '../../errors';
import type { TriMesh } from '../../mesh/TriMesh';
import { weldVertexIds } from '../../mesh/weld';

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

/** Welds corners with identical coordinates into shared vertices (-0 folded into 0). */
function weldCorners(corners: Float64Array, name: string): TriMesh {
  const n = corners.length / 3;
  if (n === 0) throw new BrepscopeError('EMPTY_MESH', `${name}: the STL contains no triangles`);
  for (let i = 0; i < corners.length; i++) {
    if (!Number.isFinite(corners[i]!)) {
      throw new BrepscopeError('PARSE_FAILED', `${name}: coordinate ${'xyz'[i % 3]} of corner ${Math.floor(i / 3)} is not a finite number`);
    }
  }
  const { ids, count } = weldVertexIds(corners);
  const positions = new Float64Array(count * 3);
  const placed = new Uint8Array(count);
  for (let c = 0; c < n; c++) {
    const v = ids[c]!;
    if (placed[v]) continue;
    placed[v] = 1;
    for (let k = 0; k < 3; k++) positions[v * 3 + k] = corners[c * 3 + k]! + 0;
  }
  return { positions, indices: ids };
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
