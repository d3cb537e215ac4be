import { BufferAttribute, BufferGeometry, Sphere, Vector3 } from 'three';
import { MeshBVH, type SerializedBVH } from 'three-mesh-bvh';
import type { DisplayMesh } from '../engine';

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
}

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
  return {
    normals: g.getAttribute('normal').array as Float32Array<ArrayBuffer>,
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
  return out;
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
