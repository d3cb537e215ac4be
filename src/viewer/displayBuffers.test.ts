import { DoubleSide, Mesh, MeshBasicMaterial, Ray, Raycaster, Vector3 } from 'three';
import { acceleratedRaycast, MeshBVH } from 'three-mesh-bvh';
import { describe, expect, it } from 'vitest';
import type { DisplayMesh } from '../engine';
import { uvSphere } from '../test/uvSphere';
import { boundsOf } from './bounds';
import { buildViewerBuffers, geometryOf, LEVEL_OPTIONS, viewerTransferables, viewGeometry } from './displayBuffers';

/** A closed sphere of 2 * 48 * 23 triangles, as display_mesh sends it, off centre so the box and sphere are not trivial. */
function sphereMesh(): DisplayMesh {
  return uvSphere(24, 48, 7, [3, -2, 11]);
}

/** What a ray hits on a geometry through three-mesh-bvh: the triangle (faceIndex) and distance. */
function hit(geometryMesh: Mesh, origin: Vector3, direction: Vector3) {
  const raycaster = new Raycaster();
  raycaster.ray = new Ray(origin, direction.normalize());
  raycaster.firstHitOnly = true;
  const [first] = raycaster.intersectObject(geometryMesh);
  return first ? { faceIndex: first.faceIndex, distance: first.distance } : null;
}

describe('viewer buffers built in the worker', () => {
  it('give the page the same normals, sphere, box and picking as computing them on the page', () => {
    const mesh = sphereMesh();
    const buffers = buildViewerBuffers(mesh);
    // Moved, as the worker sends them: a structured clone with these buffers transferred.
    const moved = structuredClone({ ...mesh, viewer: buffers }, { transfer: viewerTransferables(buffers) });
    expect(buffers.normals.byteLength).toBe(0); // detached: moved, not copied

    const fromWorker = viewGeometry(moved);
    const onPage = geometryOf(mesh);
    onPage.computeVertexNormals();
    onPage.computeBoundingSphere();
    onPage.boundsTree = new MeshBVH(onPage, { indirect: true });

    expect(Array.from(fromWorker.getAttribute('normal').array)).toEqual(Array.from(onPage.getAttribute('normal').array));
    expect(fromWorker.boundingSphere?.center.toArray()).toEqual(onPage.boundingSphere?.center.toArray());
    expect(fromWorker.boundingSphere?.radius).toBe(onPage.boundingSphere?.radius);
    // The triangles' order (faceIds follow it) is the engine's: the BVH is indirect.
    expect(fromWorker.getIndex()?.array).toBe(moved.indices);

    // The box the worker sent is the one the page would loop over the vertices for.
    expect(boundsOf([moved])).toEqual(boundsOf([{ positions: mesh.positions, indices: mesh.indices }]));
    expect(boundsOf([moved])?.min.map((x) => Math.round(x))).toEqual([-4, -9, 4]);

    Mesh.prototype.raycast = acceleratedRaycast;
    const a = new Mesh(fromWorker, new MeshBasicMaterial({ side: DoubleSide }));
    const b = new Mesh(onPage, new MeshBasicMaterial({ side: DoubleSide }));
    let hits = 0;
    for (let k = 0; k < 40; k++) {
      const dir = new Vector3(Math.cos(k), Math.sin(2 * k), Math.cos(3 * k) - 0.2);
      const origin = new Vector3(3, -2, 11).addScaledVector(dir.clone().normalize(), -30);
      const h = hit(a, origin, dir.clone());
      expect(h).toEqual(hit(b, origin, dir.clone()));
      if (h) hits++;
    }
    expect(hits).toBe(40);
  });

  it('a mesh without triangles has no box and draws nothing', () => {
    const empty: DisplayMesh = { positions: new Float32Array(0), indices: new Uint32Array(0) };
    const buffers = buildViewerBuffers(empty);
    expect(buffers.box).toBeNull();
    expect(boundsOf([{ ...empty, viewer: buffers }])).toBeNull();
  });
});

describe('levels of detail built with the viewer buffers', () => {
  it('come for a mesh over 200k triangles, with normals read at their vertices, and move with the buffers', () => {
    // A UV sphere of 2 * 330 * 330 = 217,800 triangles (poles included as slivers).
    const rings = 330, segs = 330;
    const positions = new Float32Array(3 * (rings + 1) * segs);
    for (let i = 0, o = 0; i <= rings; i++)
      for (let j = 0; j < segs; j++) {
        const th = (Math.PI * i) / rings, ph = (2 * Math.PI * j) / segs;
        positions[o++] = 9 * Math.sin(th) * Math.cos(ph);
        positions[o++] = 9 * Math.sin(th) * Math.sin(ph);
        positions[o++] = 9 * Math.cos(th);
      }
    const indices = new Uint32Array(6 * rings * segs);
    for (let i = 0, o = 0; i < rings; i++)
      for (let j = 0; j < segs; j++) {
        const a = i * segs + j, b = (i + 1) * segs + j, c = (i + 1) * segs + ((j + 1) % segs), d = i * segs + ((j + 1) % segs);
        indices.set([a, b, c, a, c, d], o);
        o += 6;
      }
    const buffers = buildViewerBuffers({ positions, indices });
    const levels = buffers.levels ?? [];
    expect(levels.map((l) => l.indices.length / 3).every((n, i, all) => n <= 54_450 && (i === 0 || n < all[i - 1]!))).toBe(true);
    // 54,450 (a quarter), then 15,000 (the coarsest; a quarter would be 13,612), which ends the list.
    expect(levels.length).toBe(2);
    expect(levels[1]!.indices.length / 3).toBeLessThanOrEqual(2 * LEVEL_OPTIONS.coarsest);
    const first = levels[0]!;
    const v = first.vertexIds[7]!;
    expect(Array.from(first.normals!.slice(21, 24))).toEqual(Array.from(buffers.normals.slice(3 * v, 3 * v + 3)));
    const moved = viewerTransferables(buffers);
    for (const l of levels) expect(moved).toContain(l.indices.buffer);
  });
});
