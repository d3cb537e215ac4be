import type { Engine } from '../engine/Engine';
import type { OC } from '../engine/kernel';
import type { Vec3 } from '../engine/math/vec3';
import { measuredSurface } from '../engine/deviation/surfaces';
import { sampleSurface } from '../engine/mesh/sampleSurface';
import { PointsBody, type BrepBody } from '../engine/scene/Body';

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

/**
 * A BREP body's surface as a perfect scan sees it: `count` points spread by area over a fine
 * tessellation (deflection 2e-4), those `keep` accepts, as x y z triples (a test adds its own points
 * where it leaves these out, as a hole's wall).
 */
export function surfacePoints(oc: OC, engine: Engine, bodyId: string, count: number, keep: (x: number, y: number, z: number) => boolean): number[] {
  const s = measuredSurface(oc, engine.scene.get(bodyId) as BrepBody, 2e-4);
  const spread = sampleSurface(s.mesh, count);
  const pts: number[] = [];
  for (let i = 0; i < spread.count; i++) {
    const x = spread.points[3 * i]!, y = spread.points[3 * i + 1]!, z = spread.points[3 * i + 2]!;
    if (keep(x, y, z)) pts.push(x, y, z);
  }
  return pts;
}
