import { BrepscopeError } from '../../errors';
import type { TriMesh } from '../../mesh/TriMesh';
import type { SourceFormat } from '../Body';
import type { PointCloud } from './PointCloud';
import { weldIndexedMesh } from './indexedMesh';
import { parseObj } from './obj';
import { parsePly, type MeshOrCloud } from './ply';
import { parsePointText } from './pointText';
import { parseStl } from './stl';
import { parse3mf } from './threeMf';

/** Formats read without the kernel into a mesh body (or a point cloud). */
export type MeshFileFormat = 'stl' | 'ply' | 'obj' | '3mf' | 'xyz';

export function isMeshFileFormat(format: SourceFormat): format is MeshFileFormat {
  return format === 'stl' || format === 'ply' || format === 'obj' || format === '3mf' || format === 'xyz';
}

/** What a mesh or scan file holds, parsed: triangles (indexed, not yet welded) or points. */
export function readScanFile(format: Exclude<MeshFileFormat, 'stl'>, bytes: Uint8Array, name: string): MeshOrCloud {
  switch (format) {
    case 'ply':
      return parsePly(bytes, name);
    case 'obj':
      return parseObj(bytes, name);
    case '3mf': {
      const { mesh, notes, unit } = parse3mf(bytes, name);
      return { kind: 'mesh', mesh, notes, declaredUnit: unit };
    }
    case 'xyz': {
      const { cloud, notes } = parsePointText(bytes, name);
      return { kind: 'points', cloud, notes };
    }
  }
}

/** A mesh or scan file read into what a body is built from. */
/** declaredUnit: the length unit the file declares (3MF), null when it declares none. */
export type ParsedScan = { kind: 'mesh'; mesh: TriMesh; notes: string[]; declaredUnit: string | null } | { kind: 'points'; cloud: PointCloud; notes: string[]; declaredUnit: string | null };

/**
 * Reads a mesh or scan file: triangles become the welded TriMesh a mesh body is built from (an STL
 * through its own reader, the others through the indexed-mesh weld that gives the same arrays for
 * the same triangles); a file with points and no faces becomes a point cloud. EMPTY_MESH for a
 * cloud without points.
 */
export function parseScanFile(format: MeshFileFormat, bytes: Uint8Array, name: string): ParsedScan {
  if (format === 'stl') return { kind: 'mesh', mesh: parseStl(bytes, name), notes: [], declaredUnit: null };
  return finishScan(readScanFile(format, bytes, name), name);
}

/** A mesh or scan file's content, read by readScanFile or streamed (readPlyPieces), as parseScanFile returns it. */
export function finishScan(content: MeshOrCloud, name: string): ParsedScan {
  if (content.kind === 'points') {
    if (content.cloud.count === 0) throw new BrepscopeError('EMPTY_MESH', `${name}: the point cloud has no points`);
    return { ...content, declaredUnit: null };
  }
  return { kind: 'mesh', mesh: weldIndexedMesh(content.mesh, name), notes: content.notes, declaredUnit: content.declaredUnit ?? null };
}

/** parseScanFile for callers that want triangles only (tests, the parse benchmark): a cloud is an error there. */
export function parseMeshFile(format: MeshFileFormat, bytes: Uint8Array, name: string): { mesh: TriMesh; notes: string[]; declaredUnit: string | null } {
  const parsed = parseScanFile(format, bytes, name);
  if (parsed.kind !== 'mesh') throw new BrepscopeError('PARSE_FAILED', `${name}: this is a point cloud (${parsed.cloud.count} points, no faces), not a mesh`);
  return parsed;
}
