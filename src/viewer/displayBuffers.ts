import { BufferAttribute, BufferGeometry, Sphere, Vector3 } from 'three';
import { MeshBVH, type SerializedBVH } from 'three-mesh-bvh';
import type { DisplayMesh } from '../engine';
import { displayLevels, gather, type DisplayLevel } from './decimate';

/**
 * What the viewport needs beyond a body's triangles, built where the triangles are made (the
 * engine's worker) and moved to the page with them, so a million-triangle scan costs the page's
 * thread no loop over its vertices: smooth vertex normals, the bounding sphere, and the picking BVH
 * (three-mesh-bvh, indirect mode so the triangle order, and with it faceIds, stays the engine's).
 * Pure three.js: no DOM, runs in a worker.
 */
export interface ViewerBuffers {
  normals: Float32Array<ArrayBuffer>;
  sphere: { center: [number, number, number]; radius: number };
  /** The box of the vertices the triangles use (empty positions: none). */
  box: { min: [number, number, number]; max: [number, number, number] } | null;
  /** MeshBVH.serialize without the index (the page has the mesh's own). */
  bvh: SerializedBVH;
  /** Coarser copies to draw (finest first; none for a small mesh): src/viewer/detail.ts picks one per frame. */
  levels?: ViewLevel[];
}

/** A level of detail as drawn: its vertices are the mesh's (`vertexIds`), normals read at them. */
export type ViewLevel = DisplayLevel & { normals?: Float32Array<ArrayBuffer> };

/**
 * Levels for meshes and clouds over 200k triangles or points: the finest at most 500k (the display
 * level, drawn at rest on a GPU), each next a quarter, the coarsest about 15k (drawn while a
 * software renderer moves the view: a 30k-triangle frame took 75 to 90 ms in SwiftShader here at
 * low load, twice that under load). Half, not a quarter, of the 30k level: the chooser predicts a
 * finer level's cost from the drawn one's in proportion, which over-predicts less on a short step.
 */
export const LEVEL_OPTIONS = { from: 200_000, finest: 500_000, coarsest: 15_000 };

/** A display mesh as the viewport draws it: the engine's triangles, plus the buffers a worker prepared. */
export type ViewMesh = DisplayMesh & { viewer?: ViewerBuffers };

/** The geometry the viewport draws: positions and indices as the engine sent them (the arrays are shared, not copied). */
export function geometryOf(mesh: DisplayMesh): BufferGeometry {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(mesh.positions, 3));
  g.setIndex(new BufferAttribute(mesh.indices, 1));
  return g;
}

export function buildViewerBuffers(mesh: DisplayMesh): ViewerBuffers {
  const g = geometryOf(mesh);
  g.computeVertexNormals();
  g.computeBoundingSphere();
  g.computeBoundingBox();
  const b = g.boundingBox;
  const bvh = new MeshBVH(g, { indirect: true });
  const serialized = MeshBVH.serialize(bvh, { cloneBuffers: false });
  const sphere = g.boundingSphere ?? new Sphere();
  const normals = g.getAttribute('normal').array as Float32Array<ArrayBuffer>;
  const levels: ViewLevel[] = displayLevels(mesh.positions, mesh.indices, LEVEL_OPTIONS).map((l) => (l.indices.length ? { ...l, normals: gather(normals, l.vertexIds) } : l));
  return {
    ...(levels.length ? { levels } : {}),
    normals,
    sphere: { center: [sphere.center.x, sphere.center.y, sphere.center.z], radius: sphere.radius },
    box: b && !b.isEmpty() ? { min: [b.min.x, b.min.y, b.min.z], max: [b.max.x, b.max.y, b.max.z] } : null,
    // The version tells deserialize the format is current (else it "fixes up" the roots, a pass over them).
    bvh: { version: (serialized as { version?: number }).version, roots: serialized.roots, indirectBuffer: serialized.indirectBuffer, index: null } as SerializedBVH,
  };
}

/** The buffers to move (not copy) to the page. */
export function viewerTransferables(b: ViewerBuffers): ArrayBuffer[] {
  const out: ArrayBuffer[] = [b.normals.buffer];
  for (const root of b.bvh.roots) if (root instanceof ArrayBuffer) out.push(root);
  const indirect = b.bvh.indirectBuffer;
  if (indirect && indirect.buffer instanceof ArrayBuffer) out.push(indirect.buffer);
  for (const l of b.levels ?? []) out.push(l.positions.buffer, l.indices.buffer, l.vertexIds.buffer, ...(l.normals ? [l.normals.buffer] : []));
  return out;
}

/** A level's geometry: its own positions, triangles and normals (a level's colours are gathered by its vertexIds). */
export function levelGeometry(level: ViewLevel): BufferGeometry {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(level.positions, 3));
  if (level.indices.length) g.setIndex(new BufferAttribute(level.indices, 1));
  if (level.normals) g.setAttribute('normal', new BufferAttribute(level.normals, 3));
  return g;
}

/**
 * The geometry to draw: with a worker's buffers, attributes and BVH are wrapped as they arrived
 * (no loop over vertices); without them (tests, an in-process engine) computed here.
 */
export function viewGeometry(mesh: ViewMesh): BufferGeometry {
  const g = geometryOf(mesh);
  const v = mesh.viewer;
  if (v) {
    g.setAttribute('normal', new BufferAttribute(v.normals, 3));
    g.boundingSphere = new Sphere(new Vector3(...v.sphere.center), v.sphere.radius);
    g.boundsTree = MeshBVH.deserialize(v.bvh, g, { setIndex: false });
    return g;
  }
  g.computeVertexNormals();
  g.computeBoundingSphere();
  g.boundsTree = new MeshBVH(g, { indirect: true });
  return g;
}
