import { useThree, type ThreeEvent } from '@react-three/fiber';
import { useEffect, useMemo, useRef } from 'react';
import { BufferAttribute, BufferGeometry, OrthographicCamera, PerspectiveCamera, Raycaster, Vector3, type Camera, type Intersection, type LineSegments, type Mesh } from 'three';
import { LineMaterial } from 'three/examples/jsm/lines/LineMaterial.js';
import { LineSegments2 } from 'three/examples/jsm/lines/LineSegments2.js';
import { LineSegmentsGeometry } from 'three/examples/jsm/lines/LineSegmentsGeometry.js';
import type { DisplayEdges } from '../engine';
import { fieldHeightPx } from './viewFrame';

/** A click or hover this close to an edge's line (in CSS pixels) is on the edge. */
export const EDGE_PICK_PIXELS = 6;

/** Edge line colour: dark, so edges read on every body colour and on the heat map. */
const EDGE_COLOR = '#1d222b';

/** Opaque body meshes on screen: an edge behind one of them is hidden, so not pickable. */
export const occluders = new Set<Mesh>();

/** Edge line segments on screen by bodyId, for the test API. */
export const drawnEdgeSegments = new Map<string, number>();

const a = new Vector3();
const b = new Vector3();
const onRay = new Vector3();
const onSegment = new Vector3();
const occlusion = new Raycaster();
(occlusion as Raycaster & { firstHitOnly?: boolean }).firstHitOnly = true;

/** World units per CSS pixel at distance `depth` in front of the camera. */
function worldPerPixel(camera: Camera, depth: number, heightPx: number): number {
  // The field of view spans the frame the overlays leave free (viewFrame.ts), not the whole canvas.
  if (camera instanceof PerspectiveCamera) return (2 * depth * Math.tan((camera.fov * Math.PI) / 360)) / camera.zoom / fieldHeightPx(camera, heightPx);
  if (camera instanceof OrthographicCamera) return (camera.top - camera.bottom) / camera.zoom / heightPx;
  return 0;
}

interface Candidate {
  segment: number;
  pixels: number;
  point: Vector3;
  depth: number;
}

/**
 * Ray cast of the edge lines in screen space: the nearest segment within EDGE_PICK_PIXELS of the
 * cursor whose closest point is not hidden behind an opaque body. A hit is reported at distance 0,
 * ahead of every face, so an edge wins over the face under it.
 */
function edgeRaycast(edges: DisplayEdges, heightPx: () => number, slack: number) {
  return function raycast(this: LineSegments, raycaster: Raycaster, intersects: Intersection[]): void {
    const camera = raycaster.camera as Camera | undefined;
    const height = heightPx();
    if (!camera || !(height > 0)) return;
    const ray = raycaster.ray;
    const p = edges.positions;
    const candidates: Candidate[] = [];
    for (let s = 0; s < edges.edgeIds.length; s++) {
      const o = 6 * s;
      a.set(p[o]!, p[o + 1]!, p[o + 2]!);
      b.set(p[o + 3]!, p[o + 4]!, p[o + 5]!);
      const d = Math.sqrt(ray.distanceSqToSegment(a, b, onRay, onSegment));
      const depth = onRay.sub(ray.origin).dot(ray.direction);
      if (!(depth > 0)) continue;
      const pixels = d / worldPerPixel(camera, depth, height);
      if (pixels <= EDGE_PICK_PIXELS) candidates.push({ segment: s, pixels, point: onSegment.clone(), depth });
    }
    if (!candidates.length) return;
    candidates.sort((x, y) => x.pixels - y.pixels);
    const blockers = [...occluders];
    for (const c of candidates.slice(0, 8)) {
      // Looking back along the pick ray from the edge point: a body surface clearly in front hides it.
      // The slack covers the display meshes' chordal error and float noise on the surface the edge bounds.
      const along = c.point.clone().sub(ray.origin).dot(ray.direction);
      const tolerance = slack + 2 * worldPerPixel(camera, along, height);
      occlusion.set(c.point.clone().addScaledVector(ray.direction, -along), ray.direction);
      occlusion.near = 0;
      occlusion.far = Math.max(0, along - tolerance);
      const hit = occlusion.far > 0 ? occlusion.intersectObjects(blockers, false)[0] : undefined;
      if (hit && hit.distance < along - tolerance) continue;
      intersects.push({ distance: 0, point: c.point, index: c.segment, object: this });
      return;
    }
  };
}

/** The segments of one edge, as LineSegmentsGeometry positions. */
function edgeSegments(edges: DisplayEdges, edge: number): Float32Array {
  const out: number[] = [];
  for (let s = 0; s < edges.edgeIds.length; s++) {
    if (edges.edgeIds[s] === edge) for (let k = 0; k < 6; k++) out.push(edges.positions[6 * s + k]!);
  }
  return Float32Array.from(out);
}

function EdgeHighlight({ edges, edge, color }: { edges: DisplayEdges; edge: number; color: string }) {
  const lines = useMemo(() => {
    const geometry = new LineSegmentsGeometry();
    geometry.setPositions(edgeSegments(edges, edge));
    // Wide (WebGL lines are one pixel) and depth-tested where the edge is in sight; a faint pass on
    // top shows the rest of the edge (the back of a circle, the half of the width a face covers).
    const front = new LineSegments2(geometry, new LineMaterial({ color, linewidth: 4, worldUnits: false }));
    const behind = new LineSegments2(geometry, new LineMaterial({ color, linewidth: 2, worldUnits: false, transparent: true, opacity: 0.45, depthTest: false, depthWrite: false }));
    front.renderOrder = 3;
    behind.renderOrder = 4;
    for (const l of [front, behind]) l.raycast = () => undefined;
    return [front, behind] as const;
  }, [edges, edge, color]);
  useEffect(
    () => () => {
      lines[0].geometry.dispose();
      for (const l of lines) l.material.dispose();
    },
    [lines],
  );
  return (
    <>
      <primitive object={lines[0]} />
      <primitive object={lines[1]} />
    </>
  );
}

interface EdgeLinesProps {
  bodyId: string;
  edges: DisplayEdges;
  /** The body's bounding radius: the occlusion slack is a share of it (display deflection 0.2 % of the diagonal). */
  radius: number;
  hoveredEdge: number | null;
  pickedEdge: number | null;
  onPickEdge?: ((bodyId: string, edge: number) => void) | undefined;
  onHoverEdge?: ((bodyId: string, edge: number | null) => void) | undefined;
  /** false: the lines are drawn but not picked (clicks reach the faces: picking alignment datums). */
  pickable?: boolean | undefined;
}

/** A BREP body's edges as thin dark lines, pickable within a few pixels; the hovered and picked edge drawn wide. */
export function EdgeLines({ bodyId, edges, radius, hoveredEdge, pickedEdge, onPickEdge, onHoverEdge, pickable = true }: EdgeLinesProps) {
  const size = useThree((s) => s.size);
  const height = useRef(size.height);
  height.current = size.height;

  const geometry = useMemo(() => {
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(edges.positions, 3));
    g.computeBoundingSphere();
    return g;
  }, [edges]);
  useEffect(() => {
    drawnEdgeSegments.set(bodyId, edges.edgeIds.length);
    return () => {
      drawnEdgeSegments.delete(bodyId);
      geometry.dispose();
    };
  }, [geometry, bodyId, edges]);

  // Twice the display deflection (0.2 % of the diagonal = 0.4 % of the radius).
  const raycast = useMemo(() => edgeRaycast(edges, () => height.current, radius * 0.008), [edges, radius]);
  const edgeAt = (e: ThreeEvent<PointerEvent | MouseEvent>): number | null => (e.index === undefined ? null : (edges.edgeIds[e.index] ?? null));

  return (
    <>
      <lineSegments
        geometry={geometry}
        raycast={pickable ? raycast : () => undefined}
        renderOrder={1}
        onClick={(e: ThreeEvent<MouseEvent>) => {
          if (e.delta > 4) return;
          e.stopPropagation();
          const edge = edgeAt(e);
          if (edge !== null) onPickEdge?.(bodyId, edge);
        }}
        onPointerMove={(e: ThreeEvent<PointerEvent>) => {
          // Stopping first lets the face under the edge hear its pointer-out before the edge is hovered.
          e.stopPropagation();
          onHoverEdge?.(bodyId, edgeAt(e));
        }}
        onPointerOut={() => onHoverEdge?.(bodyId, null)}
      >
        <lineBasicMaterial color={EDGE_COLOR} />
      </lineSegments>
      {pickedEdge !== null && <EdgeHighlight edges={edges} edge={pickedEdge} color="#f28e2b" />}
      {hoveredEdge !== null && hoveredEdge !== pickedEdge && <EdgeHighlight edges={edges} edge={hoveredEdge} color="#ffb000" />}
    </>
  );
}
