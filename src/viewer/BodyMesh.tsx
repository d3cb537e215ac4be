import type { ThreeEvent } from '@react-three/fiber';
import { useEffect, useMemo } from 'react';
import { BufferAttribute, BufferGeometry, DoubleSide } from 'three';
import type { DisplayMesh } from '../engine';

export interface ViewBody {
  bodyId: string;
  kind: 'brep' | 'mesh';
  mesh: DisplayMesh;
  color: string;
  selected: boolean;
}

interface BodyMeshProps {
  body: ViewBody;
  onPick?: ((bodyId: string) => void) | undefined;
}

/** One body as a three.js mesh. BREP faces shade smoothly; scans and STLs show their facets. */
export function BodyMesh({ body, onPick }: BodyMeshProps) {
  const geometry = useMemo(() => {
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(body.mesh.positions, 3));
    g.setIndex(new BufferAttribute(body.mesh.indices, 1));
    g.computeVertexNormals();
    g.computeBoundingSphere();
    return g;
  }, [body.mesh]);

  useEffect(() => () => geometry.dispose(), [geometry]);

  const onClick = (e: ThreeEvent<MouseEvent>) => {
    // Only the nearest hit selects; a drag that orbited the camera is not a click.
    if (e.delta > 4) return;
    e.stopPropagation();
    onPick?.(body.bodyId);
  };

  return (
    <mesh geometry={geometry} onClick={onClick} name={body.bodyId}>
      <meshStandardMaterial
        color={body.color}
        emissive={body.selected ? '#2a4d8f' : '#000000'}
        emissiveIntensity={body.selected ? 0.35 : 0}
        metalness={0.1}
        roughness={0.65}
        flatShading={body.kind === 'mesh'}
        side={DoubleSide}
      />
    </mesh>
  );
}
