import { BrepscopeError } from '../../errors';
import type { TriMesh } from '../../mesh/TriMesh';
import type { SourceFormat } from '../Body';
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

/**
 * Reads a mesh file into the welded TriMesh a mesh body is built from: an STL through its own
 * reader, the others through the indexed-mesh weld that gives the same arrays for the same triangles.
 * A point cloud is refused until the scene has a body kind for it.
 */
export function parseMeshFile(format: MeshFileFormat, bytes: Uint8Array, name: string): { mesh: TriMesh; notes: string[]; declaredUnit: string | null } {
  if (format === 'stl') return { mesh: parseStl(bytes, name), notes: [], declaredUnit: null };
  const content = readScanFile(format, bytes, name);
  if (content.kind === 'points') {
    throw new BrepscopeError(
      'POINT_CLOUD_UNSUPPORTED',
      `${name}: this is a point cloud (${content.cloud.count} points${content.cloud.normals ? ' with normals' : ''}, no faces); point clouds cannot be loaded as bodies yet: mesh it first (for example in CloudCompare or MeshLab) or load a mesh export of the scan`,
      { points: content.cloud.count, normals: content.cloud.normals !== undefined },
    );
  }
  return { mesh: weldIndexedMesh(content.mesh, name), notes: content.notes, declaredUnit: content.declaredUnit ?? null };
}
