import { useThree, type ThreeEvent } from '@react-three/fiber';
import { useEffect, useMemo, useRef } from 'react';
import { BufferAttribute, BufferGeometry, DoubleSide, Triangle, Vector3, type Mesh } from 'three';
import { acceleratedRaycast } from 'three-mesh-bvh';
import type { DisplayEdges, DisplayMesh } from '../engine';
import { viewGeometry, type ViewMesh } from './displayBuffers';
import { EdgeLines, occluders } from './EdgeLines';
import { interpolate } from './interpolate';

export { drawnEdgeSegments } from './EdgeLines';

export interface ViewBody {
  bodyId: string;
  /** `points`: a cloud, drawn as points (BodyPoints); `mesh.positions` are the points, `mesh.indices` empty. */
  kind: 'brep' | 'mesh' | 'points';
  mesh: ViewMesh;
  color: string;
  opacity: number;
  selected: boolean;
  /** Face (BREP) or triangle (mesh) index under the cursor, to highlight. */
  hoveredFace: number | null;
  /** Face or triangle index picked by a click, to highlight. */
  pickedFace: number | null;
  /** BREP bodies: the edge lines to draw and pick (undefined: none, or edges switched off). */
  edges?: DisplayEdges | undefined;
  hoveredEdge?: number | null;
  pickedEdge?: number | null;
  /** Heat map: linear-RGB colour per display vertex (replaces the body colour while set). */
  vertexColors?: Float32Array | undefined;
  /** Heat map: signed deviation per display vertex (NaN ambiguous), read under the cursor. */
  vertexValues?: Float32Array | undefined;
  /** Heat map: 1 per display vertex without a counterpart on the reference (read as "no data" under the cursor). */
  vertexNoData?: Uint8Array | undefined;
  /** Drawn with a glow (an assembly node hovered in the tree). */
  glow?: boolean | undefined;
  /** Faces of the feature under the pointer in the feature list, and of the one clicked there. */
  featureFaces?: { hovered: readonly number[]; selected: readonly number[] } | undefined;
  /** Faces of a PMI entry or a checked characteristic (GD&T), in its colour. */
  gdtFaces?: { faces: readonly number[]; color: string } | undefined;
  /** Faces picked as alignment datums or as a local fit's region, each in its slot's colour. */
  alignFaces?: readonly { face: number; color: string }[] | undefined;
  /** false: clicks and hover pass through (another body's faces are being picked behind it). */
  pickable?: boolean | undefined;
  /** false: the edge lines are drawn but clicks reach the faces under them (picking alignment datums). */
  pickEdges?: boolean | undefined;
}

/** Alignment faces on screen by bodyId (faces in pick order, triangles drawn), for the test API. */
export const drawnAlignFaces = new Map<string, { faces: number[]; colors: string[]; triangles: number }>();

/** GD&T highlights on screen by bodyId (faces, triangles drawn and colour), for the test API. */
export const drawnGdtHighlights = new Map<string, { faces: number; triangles: number; color: string }>();

/** Feature highlights on screen by bodyId (faces and triangles drawn), for the test API. */
export const drawnFeatureHighlights = new Map<string, { hovered: number; selected: number; triangles: number }>();

/** The geometries on screen by bodyId, for the test API (it reads the colour attribute back). */
export const drawnGeometries = new Map<string, BufferGeometry>();

/**
 * Registers a body's geometry as drawn (disposed when it goes) and keeps its heat-map colour
 * attribute in step with the body's vertex colours; returns the colours in use (undefined: none).
 */
export function useDrawnGeometry(body: ViewBody, geometry: BufferGeometry): Float32Array | undefined {
  useEffect(() => {
    drawnGeometries.set(body.bodyId, geometry);
    return () => {
      if (drawnGeometries.get(body.bodyId) === geometry) drawnGeometries.delete(body.bodyId);
      geometry.dispose();
    };
  }, [geometry, body.bodyId]);

  const colors = body.vertexColors && body.vertexColors.length === body.mesh.positions.length ? body.vertexColors : undefined;
  const invalidate = useThree((s) => s.invalidate);
  useEffect(() => {
    if (colors) geometry.setAttribute('color', new BufferAttribute(colors, 3));
    else geometry.deleteAttribute('color');
    invalidate();
  }, [geometry, colors, invalidate]);
  return colors;
}

const triangle = new Triangle();
const NONE: readonly number[] = [];
const NO_ALIGN_FACES: readonly { face: number; color: string }[] = [];
const bary = new Vector3();

interface BodyMeshProps {
  body: ViewBody;
  /** A click on the body: its face index (BREP: faceIds of the triangle; mesh: the triangle). */
  /** A click on the body: its face and the world point hit. */
  onPick?: ((bodyId: string, face: number, point: readonly [number, number, number]) => void) | undefined;
  onHover?: ((bodyId: string, face: number | null) => void) | undefined;
  /** The interpolated vertex value under the cursor (heat maps); null when the cursor leaves. */
  onHoverValue?: ((bodyId: string, value: number | 'noData' | null) => void) | undefined;
  /** A click within a few pixels of a visible edge: its edge index (edge[N]); wins over the face under it. */
  onPickEdge?: ((bodyId: string, edge: number) => void) | undefined;
  onHoverEdge?: ((bodyId: string, edge: number | null) => void) | undefined;
}

/** The face a triangle belongs to: BREP meshes carry faceIds; for a mesh body each triangle is a face. */
function faceOfTriangle(mesh: DisplayMesh, triangle: number): number {
  return mesh.faceIds ? (mesh.faceIds[triangle] ?? triangle) : triangle;
}

/** The triangles of some faces, as an index buffer over the body's own positions. */
function facesIndex(mesh: DisplayMesh, faces: readonly number[]): Uint32Array {
  if (!mesh.faceIds) {
    const out = new Uint32Array(3 * faces.length);
    faces.forEach((f, i) => out.set(mesh.indices.subarray(f * 3, f * 3 + 3), 3 * i));
    return out;
  }
  const wanted = new Set(faces);
  const out: number[] = [];
  const ids = mesh.faceIds;
  for (let t = 0; t < ids.length; t++) {
    if (wanted.has(ids[t]!)) out.push(mesh.indices[3 * t]!, mesh.indices[3 * t + 1]!, mesh.indices[3 * t + 2]!);
  }
  return Uint32Array.from(out);
}

function FaceHighlight({ geometry, mesh, faces, color, opacity }: { geometry: BufferGeometry; mesh: DisplayMesh; faces: readonly number[]; color: string; opacity: number }) {
  const key = faces.join(',');
  const highlight = useMemo(() => {
    const g = new BufferGeometry();
    g.setAttribute('position', geometry.getAttribute('position'));
    g.setAttribute('normal', geometry.getAttribute('normal'));
    g.setIndex(new BufferAttribute(facesIndex(mesh, faces), 1));
    return g;
    // `key` stands for the faces' contents: a new array with the same faces is the same highlight.
  }, [geometry, mesh, key]);
  useEffect(
    () => () => {
      // The position and normal attributes are the body's own: disposing them with the highlight
      // would delete the GPU buffers every other highlight of the body draws from (a hover that
      // moves on would blank the picked datums). Only the highlight's index goes.
      highlight.deleteAttribute('position');
      highlight.deleteAttribute('normal');
      highlight.dispose();
    },
    [highlight],
  );
  return (
    // Not pickable: the body under it answers the pointer.
    <mesh geometry={highlight} raycast={() => undefined} renderOrder={2}>
      <meshBasicMaterial color={color} transparent opacity={opacity} side={DoubleSide} polygonOffset polygonOffsetFactor={-2} polygonOffsetUnits={-2} depthWrite={false} />
    </mesh>
  );
}

/**
 * One body as a three.js mesh. BREP faces shade smoothly; scans and STLs show their facets. A BVH
 * (built in indirect mode, so triangle order and thus faceIds stay as the engine sent them) keeps
 * picking and hover cheap on large scans.
 */
export function BodyMesh({ body, onPick, onHover, onHoverValue, onPickEdge, onHoverEdge }: BodyMeshProps) {
  // The worker's buffers (normals, sphere, BVH) when it sent them: no loop over the vertices here.
  const geometry = useMemo(() => viewGeometry(body.mesh), [body.mesh]);

  const colors = useDrawnGeometry(body, geometry);

  const faceAt = (e: ThreeEvent<PointerEvent | MouseEvent>): number | null => (e.faceIndex === undefined || e.faceIndex === null ? null : faceOfTriangle(body.mesh, e.faceIndex));

  const onClick = (e: ThreeEvent<MouseEvent>) => {
    // Only the nearest hit picks; a drag that orbited the camera is not a click.
    if (e.delta > 4) return;
    e.stopPropagation();
    const face = faceAt(e);
    if (face !== null) onPick?.(body.bodyId, face, [e.point.x, e.point.y, e.point.z]);
  };
  const onPointerMove = (e: ThreeEvent<PointerEvent>) => {
    e.stopPropagation();
    onHover?.(body.bodyId, faceAt(e));
    const values = body.vertexValues;
    if (values && onHoverValue && e.face) {
      const p = body.mesh.positions;
      const { a, b, c } = e.face;
      triangle.a.set(p[3 * a]!, p[3 * a + 1]!, p[3 * a + 2]!);
      triangle.b.set(p[3 * b]!, p[3 * b + 1]!, p[3 * b + 2]!);
      triangle.c.set(p[3 * c]!, p[3 * c + 1]!, p[3 * c + 2]!);
      // The hit point is in world space; bodies are drawn untransformed, so it is also mesh space.
      if (triangle.getBarycoord(e.point, bary)) {
        // The colour under the cursor is the nearest corner's class: no data there reads as no data.
        const nearest = bary.x >= bary.y && bary.x >= bary.z ? a : bary.y >= bary.z ? b : c;
        onHoverValue(body.bodyId, body.vertexNoData?.[nearest] ? 'noData' : interpolate(values, a, b, c, bary.x, bary.y, bary.z));
      }
    }
  };

  const hoveredFeature = body.featureFaces?.hovered ?? NONE;
  const selectedFeature = body.featureFaces?.selected ?? NONE;
  useEffect(() => {
    if (hoveredFeature.length === 0 && selectedFeature.length === 0) {
      drawnFeatureHighlights.delete(body.bodyId);
      return;
    }
    const triangles = (faces: readonly number[]) => (faces.length ? facesIndex(body.mesh, faces).length / 3 : 0);
    drawnFeatureHighlights.set(body.bodyId, { hovered: hoveredFeature.length, selected: selectedFeature.length, triangles: triangles(hoveredFeature) + triangles(selectedFeature) });
    return () => {
      drawnFeatureHighlights.delete(body.bodyId);
    };
  }, [body.bodyId, body.mesh, hoveredFeature, selectedFeature]);

  const gdt = body.gdtFaces;
  useEffect(() => {
    if (!gdt || gdt.faces.length === 0) return;
    drawnGdtHighlights.set(body.bodyId, { faces: gdt.faces.length, triangles: facesIndex(body.mesh, gdt.faces).length / 3, color: gdt.color });
    return () => {
      drawnGdtHighlights.delete(body.bodyId);
    };
  }, [body.bodyId, body.mesh, gdt]);

  const alignFaces = body.alignFaces ?? NO_ALIGN_FACES;
  useEffect(() => {
    if (alignFaces.length === 0) return;
    drawnAlignFaces.set(body.bodyId, { faces: alignFaces.map((a) => a.face), colors: alignFaces.map((a) => a.color), triangles: facesIndex(body.mesh, alignFaces.map((a) => a.face)).length / 3 });
    return () => {
      drawnAlignFaces.delete(body.bodyId);
    };
  }, [body.bodyId, body.mesh, alignFaces]);

  const transparent = body.opacity < 0.999;
  const meshRef = useRef<Mesh | null>(null);
  useEffect(() => {
    // Opaque bodies hide the edges behind them from edge picking (their lines are hidden by depth).
    const m = meshRef.current;
    if (!m || transparent) return;
    occluders.add(m);
    return () => {
      occluders.delete(m);
    };
  }, [transparent, geometry]);
  return (
    <group>
      <mesh
        geometry={geometry}
        onClick={onClick}
        onPointerMove={onPointerMove}
        onPointerOut={() => {
          onHover?.(body.bodyId, null);
          onHoverValue?.(body.bodyId, null);
        }}
        name={body.bodyId}
        ref={(m: Mesh | null) => {
          meshRef.current = m;
          if (m) m.raycast = body.pickable === false ? () => undefined : acceleratedRaycast;
        }}
      >
        <meshStandardMaterial
          // Recreated when vertex colours come or go: the shader is compiled with or without them.
          key={colors ? 'heat' : 'plain'}
          vertexColors={!!colors}
          color={colors ? '#ffffff' : body.color}
          emissive={body.glow ? '#e07b00' : body.selected && !colors ? '#2a4d8f' : '#000000'}
          emissiveIntensity={body.glow ? 0.45 : body.selected && !colors ? 0.25 : 0}
          metalness={0.1}
          roughness={0.65}
          flatShading={body.kind === 'mesh'}
          side={DoubleSide}
          transparent={transparent}
          opacity={body.opacity}
          depthWrite={!transparent}
          // Faces pushed back a little in depth, so the edge lines on them are not z-fighting.
          polygonOffset
          polygonOffsetFactor={1}
          polygonOffsetUnits={1}
        />
      </mesh>
      {body.edges && (
        <EdgeLines
          bodyId={body.bodyId}
          edges={body.edges}
          radius={geometry.boundingSphere?.radius ?? 1}
          hoveredEdge={body.hoveredEdge ?? null}
          pickedEdge={body.pickedEdge ?? null}
          onPickEdge={onPickEdge}
          onHoverEdge={onHoverEdge}
          pickable={body.pickEdges !== false}
        />
      )}
      {gdt && gdt.faces.length > 0 && <FaceHighlight geometry={geometry} mesh={body.mesh} faces={gdt.faces} color={gdt.color} opacity={0.8} />}
      {alignFaces.map((a) => (
        <FaceHighlight key={`align${a.face}`} geometry={geometry} mesh={body.mesh} faces={[a.face]} color={a.color} opacity={0.8} />
      ))}
      {selectedFeature.length > 0 && <FaceHighlight geometry={geometry} mesh={body.mesh} faces={selectedFeature} color="#7b2cbf" opacity={0.7} />}
      {hoveredFeature.length > 0 && hoveredFeature.join() !== selectedFeature.join() && (
        <FaceHighlight geometry={geometry} mesh={body.mesh} faces={hoveredFeature} color="#c77dff" opacity={0.6} />
      )}
      {body.pickedFace !== null && <FaceHighlight geometry={geometry} mesh={body.mesh} faces={[body.pickedFace]} color="#f28e2b" opacity={0.75} />}
      {body.hoveredFace !== null && body.hoveredFace !== body.pickedFace && (
        <FaceHighlight geometry={geometry} mesh={body.mesh} faces={[body.hoveredFace]} color="#ffd166" opacity={0.55} />
      )}
    </group>
  );
}
