import { useThree, type ThreeEvent } from '@react-three/fiber';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { BufferAttribute, BufferGeometry, DoubleSide, Triangle, Vector3, type Mesh, type Object3D } from 'three';
import { acceleratedRaycast } from 'three-mesh-bvh';
import type { DisplayEdges, DisplayMesh } from '../engine';
import { gather } from './decimate';
import { detail } from './detail';
import { levelGeometry, viewGeometry, type ViewMesh } from './displayBuffers';
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

/**
 * A body's levels of detail (src/viewer/detail.ts): their geometries, coloured like the body (each
 * level vertex is a body vertex: its colour is read by index), and the body's entry in the chooser,
 * which shows one of `full` and the level objects per frame. Every drawn body has an entry (a small
 * one with no levels): its triangles count in the frame's cost.
 */
export function useLevels(body: ViewBody, geometry: BufferGeometry, colors: Float32Array | undefined, fullCount: number) {
  const levels = body.mesh.viewer?.levels;
  const geometries = useMemo(
    () =>
      (levels ?? []).map((l) => {
        const g = levelGeometry(l);
        // The body's sphere: not recomputed over the level's vertices on the page's thread.
        if (geometry.boundingSphere) g.boundingSphere = geometry.boundingSphere.clone();
        return g;
      }),
    [levels, geometry],
  );
  useEffect(() => () => geometries.forEach((g) => g.dispose()), [geometries]);
  const invalidate = useThree((s) => s.invalidate);
  useEffect(() => {
    geometries.forEach((g, i) => {
      if (colors) g.setAttribute('color', new BufferAttribute(gather(colors, levels![i]!.vertexIds), 3));
      else g.deleteAttribute('color');
    });
    invalidate();
  }, [geometries, levels, colors, invalidate]);

  const full = useRef<Object3D | null>(null);
  const objects = useRef<(Object3D | null)[]>([]);
  useEffect(() => {
    const f = full.current;
    if (!f) return;
    const entry = { full: f, fullCount, levels: geometries.map((g, i) => ({ object: objects.current[i]!, count: g.index ? g.index.count / 3 : g.getAttribute('position').count })) };
    detail.bodies.set(body.bodyId, entry);
    // A new body: the view may refine it once it has been drawn at the coarsest level.
    detail.refine = 2;
    invalidate();
    return () => {
      if (detail.bodies.get(body.bodyId) === entry) detail.bodies.delete(body.bodyId);
    };
  }, [body.bodyId, geometries, fullCount, invalidate]);
  return { geometries, full, objects };
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

/** The corners of some faces' triangles, three a triangle: a highlight's own small buffer (a big scan's 24 MB of positions are not uploaded for it). */
function facesPositions(mesh: DisplayMesh, faces: readonly number[]): Float32Array {
  const index = facesIndex(mesh, faces);
  return gather(mesh.positions, index);
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

function FaceHighlight({ mesh, faces, color, opacity }: { mesh: DisplayMesh; faces: readonly number[]; color: string; opacity: number }) {
  const key = faces.join(',');
  const highlight = useMemo(() => {
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(facesPositions(mesh, faces), 3));
    return g;
    // `key` stands for the faces' contents: a new array with the same faces is the same highlight.
  }, [mesh, key]);
  useEffect(() => () => highlight.dispose(), [highlight]);
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
  const levels = useLevels(body, geometry, colors, body.mesh.indices.length / 3);
  const material = (): ReactNode => (
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
  );
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
        // A body with levels waits for the chooser (detail.ts) to show it or one of them.
        visible={levels.geometries.length === 0}
        ref={(m: Mesh | null) => {
          meshRef.current = m;
          levels.full.current = m;
          if (m) m.raycast = body.pickable === false ? () => undefined : acceleratedRaycast;
        }}
      >
        {material()}
      </mesh>
      {levels.geometries.map((g, i) => (
        // Drawn in the body's place at times (detail.ts); never picked: the body's own triangles are.
        <mesh key={i} geometry={g} raycast={() => undefined} visible={false} ref={(m: Mesh | null) => void (levels.objects.current[i] = m)}>
          {material()}
        </mesh>
      ))}
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
      {gdt && gdt.faces.length > 0 && <FaceHighlight mesh={body.mesh} faces={gdt.faces} color={gdt.color} opacity={0.8} />}
      {alignFaces.map((a) => (
        <FaceHighlight key={`align${a.face}`} mesh={body.mesh} faces={[a.face]} color={a.color} opacity={0.8} />
      ))}
      {selectedFeature.length > 0 && <FaceHighlight mesh={body.mesh} faces={selectedFeature} color="#7b2cbf" opacity={0.7} />}
      {hoveredFeature.length > 0 && hoveredFeature.join() !== selectedFeature.join() && (
        <FaceHighlight mesh={body.mesh} faces={hoveredFeature} color="#c77dff" opacity={0.6} />
      )}
      {body.pickedFace !== null && <FaceHighlight mesh={body.mesh} faces={[body.pickedFace]} color="#f28e2b" opacity={0.75} />}
      {body.hoveredFace !== null && body.hoveredFace !== body.pickedFace && (
        <FaceHighlight mesh={body.mesh} faces={[body.hoveredFace]} color="#ffd166" opacity={0.55} />
      )}
    </group>
  );
}
