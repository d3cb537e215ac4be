import type { Engine } from '../engine/Engine';
import type { Vec3 } from '../engine/math/vec3';
import { PointsBody } from '../engine/scene/Body';

/** Adds a point cloud body (x y z triples) to the engine's scene: a generated scan. */
export function addCloud(engine: Engine, bodyId: string, pts: number[]): void {
  engine.scene.add(new PointsBody({ bodyId, name: bodyId, sourceFormat: 'xyz', source: undefined }, { positions: Float64Array.from(pts), count: pts.length / 3 }));
}

/** The face of a body whose surface type matches and whose centroid is nearest `near`. */
export async function faceOf(engine: Engine, bodyId: string, type: RegExp, near: Vec3): Promise<string> {
  const r = await engine.runJson('query_topology', { bodyId, entity: 'face' });
  const faces = (r.result as unknown as { id: string; surfaceType: string; centroid: Vec3 }[]).filter((f) => type.test(f.surfaceType));
  faces.sort((a, b) => Math.hypot(...a.centroid.map((v, k) => v - near[k]!)) - Math.hypot(...b.centroid.map((v, k) => v - near[k]!)));
  return faces[0]!.id;
}
