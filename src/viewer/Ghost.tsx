import { useThree } from '@react-three/fiber';
import { useEffect, useMemo } from 'react';
import { Box3, BufferAttribute, BufferGeometry, DoubleSide, Matrix4, Sphere, Vector3 } from 'three';
import type { ViewBody } from './BodyMesh';

/** A body drawn where a proposed motion would put it (an alignment's preview). */
export interface ViewGhost {
  bodyId: string;
  /** The motion from where the body is drawn now, 4x4 row-major (align_bodies' `transform`). */
  transform: readonly (readonly number[])[];
  color: string;
}

/** The ghost on screen, for the test API: the body it shows, its points and the motion it is drawn under. */
export const drawnGhosts = new Map<string, { positions: Float32Array; transform: number[][] }>();

/** The centre of the box of the ghost's points where it is drawn (the box of the moved points, as the body's own once moved). */
export function ghostCentre(g: { positions: Float32Array; transform: number[][] }): [number, number, number] {
  const m = matrixOf(g.transform);
  const box = new Box3();
  const v = new Vector3();
  for (let i = 0; i < g.positions.length; i += 3) box.expandByPoint(v.set(g.positions[i]!, g.positions[i + 1]!, g.positions[i + 2]!).applyMatrix4(m));
  const c = box.getCenter(v);
  return [c.x, c.y, c.z];
}

/** Screen size of a ghost point, in pixels (a little larger than the body's, so it reads over it). */
const GHOST_POINT_PIXELS = 3;

function matrixOf(t: readonly (readonly number[])[]): Matrix4 {
  const m = new Matrix4();
  // Matrix4.set takes row-major arguments, as the engine writes its transforms.
  m.set(...(t.flat() as [number, number, number, number, number, number, number, number, number, number, number, number, number, number, number, number]));
  return m;
}

/**
 * The body's own triangles (or points) under the motion, translucent in the ghost's colour, beside
 * the body where it stands: the user sees where Apply would move it. Not pickable: clicks go to the
 * bodies, and the ghost shares the body's arrays (no copy of a big scan).
 */
export function Ghost({ ghost, body }: { ghost: ViewGhost; body: ViewBody }) {
  const points = body.kind === 'points';
  const geometry = useMemo(() => {
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(body.mesh.positions, 3));
    if (!points) {
      g.setIndex(new BufferAttribute(body.mesh.indices, 1));
      const normals = body.mesh.viewer?.normals;
      if (normals) g.setAttribute('normal', new BufferAttribute(normals, 3));
      else g.computeVertexNormals();
    }
    const sphere = body.mesh.viewer?.sphere;
    if (sphere) g.boundingSphere = new Sphere(new Vector3(...sphere.center), sphere.radius);
    else g.computeBoundingSphere();
    return g;
  }, [body.mesh, points]);
  useEffect(() => () => geometry.dispose(), [geometry]);

  const key = JSON.stringify(ghost.transform);
  // `key` stands for the transform's values: a new array with the same motion is the same matrix.
  const matrix = useMemo(() => matrixOf(ghost.transform), [key]);

  const invalidate = useThree((s) => s.invalidate);
  useEffect(() => {
    drawnGhosts.set(ghost.bodyId, { positions: body.mesh.positions, transform: ghost.transform.map((r) => [...r]) });
    invalidate();
    return () => {
      drawnGhosts.delete(ghost.bodyId);
      invalidate();
    };
  }, [ghost.bodyId, ghost.transform, matrix, body.mesh, invalidate]);

  return (
    <group matrixAutoUpdate={false} matrix={matrix} name={`ghost:${ghost.bodyId}`}>
      {points ? (
        <points geometry={geometry} raycast={() => undefined}>
          <pointsMaterial color={ghost.color} size={GHOST_POINT_PIXELS} sizeAttenuation={false} transparent opacity={0.7} depthWrite={false} />
        </points>
      ) : (
        <mesh geometry={geometry} raycast={() => undefined} renderOrder={3}>
          <meshStandardMaterial color={ghost.color} transparent opacity={0.45} depthWrite={false} side={DoubleSide} metalness={0} roughness={0.8} flatShading={body.kind === 'mesh'} />
        </mesh>
      )}
    </group>
  );
}
