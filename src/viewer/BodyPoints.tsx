import { useMemo, type ReactNode } from 'react';
import { BufferAttribute, BufferGeometry, Sphere, Vector3, type Points } from 'three';
import { useDrawnGeometry, useLevels, type ViewBody } from './BodyMesh';

/** Screen size of a drawn point, in pixels (constant with distance: a scan reads as a surface of dots at any zoom). */
const POINT_PIXELS = 2.5;

/**
 * A point cloud as three.js points: the body colour, or the heat-map colour of each point. Not
 * pickable (a cloud has no faces to select); the raycast is switched off so a cloud in front of a
 * part does not swallow the part's hover and clicks, and pointer moves cost nothing on a big scan.
 */
export function BodyPoints({ body }: { body: ViewBody }) {
  const geometry = useMemo(() => {
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(body.mesh.positions, 3));
    // The worker's sphere when it sent one (half a million points: no loop over them on the page's thread).
    const sphere = body.mesh.viewer?.sphere;
    if (sphere) g.boundingSphere = new Sphere(new Vector3(...sphere.center), sphere.radius);
    else g.computeBoundingSphere();
    return g;
  }, [body.mesh]);

  const colors = useDrawnGeometry(body, geometry);

  const transparent = body.opacity < 0.999;
  const levels = useLevels(body, geometry, colors, body.mesh.positions.length / 3);
  const material = (): ReactNode => (
      <pointsMaterial
        key={colors ? 'heat' : 'plain'}
        vertexColors={!!colors}
        color={colors ? '#ffffff' : body.selected ? '#2a4d8f' : body.color}
        size={POINT_PIXELS * (body.selected || body.glow ? 1.4 : 1)}
        sizeAttenuation={false}
        transparent={transparent}
        opacity={body.opacity}
        depthWrite={!transparent}
      />
  );
  return (
    <group>
      <points geometry={geometry} name={body.bodyId} raycast={() => undefined} visible={levels.geometries.length === 0} ref={(p: Points | null) => void (levels.full.current = p)}>
        {material()}
      </points>
      {levels.geometries.map((g, i) => (
        <points key={i} geometry={g} raycast={() => undefined} visible={false} ref={(p: Points | null) => void (levels.objects.current[i] = p)}>
          {material()}
        </points>
      ))}
    </group>
  );
}
