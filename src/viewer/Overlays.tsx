import { useFrame } from '@react-three/fiber';
import { useMemo, useRef } from 'react';
import { DoubleSide, Matrix4, Quaternion, Vector3 } from 'three';
import type { ViewBounds } from './bounds';

type V3 = readonly [number, number, number];

/** What the inspection views draw over the bodies. */
export interface ViewMarkers {
  /** The worst point of a deviation run (fromToTo.worstPoint). */
  worstPoint?: V3 | undefined;
  /** cross_section_compare's station planes. */
  stations?: StationPlanes | undefined;
  /** Deviation labels the user placed (numbered in order). */
  labels?: readonly V3[] | undefined;
  /** An assembly node's world placement (4x4 row-major), drawn as a small axis triad. */
  placement?: readonly (readonly number[])[] | undefined;
}

export interface StationPlanes {
  axis: V3;
  /** World coordinate along the unit axis of each station. */
  coords: readonly number[];
  worst: number | null;
  focused: number | null;
  /** Box of the compared bodies: the quads cover its cross-section with a margin. */
  bounds: ViewBounds;
}

/** The section frame of docs/cross-sections.md: u = the world axis least aligned with the axis, made perpendicular; v = axis x u. */
export function sectionFrame(axis: V3): { n: Vector3; u: Vector3; v: Vector3 } {
  const n = new Vector3(...axis).normalize();
  const world = [new Vector3(1, 0, 0), new Vector3(0, 1, 0), new Vector3(0, 0, 1)];
  let u = world[0]!;
  for (const w of world) if (Math.abs(w.dot(n)) < Math.abs(u.dot(n))) u = w;
  u = u.clone().addScaledVector(n, -u.dot(n)).normalize();
  const v = new Vector3().crossVectors(n, u);
  return { n, u, v };
}

function WorstPoint({ point, radius }: { point: V3; radius: number }) {
  return (
    <group position={[point[0], point[1], point[2]]}>
      <mesh raycast={() => undefined} renderOrder={5}>
        <sphereGeometry args={[radius, 20, 14]} />
        <meshBasicMaterial color="#111111" depthTest={false} transparent opacity={0.9} />
      </mesh>
      <mesh raycast={() => undefined} renderOrder={6}>
        <sphereGeometry args={[radius * 0.6, 20, 14]} />
        <meshBasicMaterial color="#ffd400" depthTest={false} transparent />
      </mesh>
    </group>
  );
}

function Planes({ planes }: { planes: StationPlanes }) {
  const { quaternion, center, width, height } = useMemo(() => {
    const { n, u, v } = sectionFrame(planes.axis);
    const basis = new Matrix4().makeBasis(u, v, n);
    const half = new Vector3().subVectors(new Vector3(...planes.bounds.max), new Vector3(...planes.bounds.min)).multiplyScalar(0.5);
    const extent = (d: Vector3) => Math.abs(d.x) * half.x + Math.abs(d.y) * half.y + Math.abs(d.z) * half.z;
    return {
      quaternion: new Quaternion().setFromRotationMatrix(basis),
      center: new Vector3(...planes.bounds.center),
      width: 2 * extent(u) * 1.15 + planes.bounds.radius * 0.05,
      height: 2 * extent(v) * 1.15 + planes.bounds.radius * 0.05,
    };
  }, [planes.axis, planes.bounds]);
  const n = new Vector3(...planes.axis).normalize();
  return (
    <>
      {planes.coords.map((coord, i) => {
        const at = center.clone().addScaledVector(n, coord - center.dot(n));
        const focused = i === planes.focused;
        const worst = i === planes.worst;
        const color = focused ? '#f28e2b' : worst ? '#d62728' : '#4e79a7';
        return (
          <mesh key={i} position={at} quaternion={quaternion} raycast={() => undefined} renderOrder={3}>
            <planeGeometry args={[width, height]} />
            <meshBasicMaterial color={color} transparent opacity={focused ? 0.38 : worst ? 0.26 : 0.1} side={DoubleSide} depthWrite={false} />
          </mesh>
        );
      })}
    </>
  );
}

function Triad({ placement, size }: { placement: readonly (readonly number[])[]; size: number }) {
  const matrix = useMemo(() => {
    const r = (i: number, j: number) => placement[i]?.[j] ?? (i === j ? 1 : 0);
    // Row-major as inspect_assembly writes it; Matrix4.set takes row-major arguments too.
    return new Matrix4().set(r(0, 0), r(0, 1), r(0, 2), r(0, 3), r(1, 0), r(1, 1), r(1, 2), r(1, 3), r(2, 0), r(2, 1), r(2, 2), r(2, 3), 0, 0, 0, 1);
  }, [placement]);
  return (
    <group matrix={matrix} matrixAutoUpdate={false}>
      <axesHelper args={[size]} raycast={() => undefined} renderOrder={7} />
      <mesh raycast={() => undefined} renderOrder={7}>
        <sphereGeometry args={[size * 0.08, 12, 8]} />
        <meshBasicMaterial color="#e07b00" depthTest={false} transparent />
      </mesh>
    </group>
  );
}

/** Where each label's point lies on the canvas (CSS pixels from its top-left); null behind the camera. */
export type LabelSpots = ([number, number] | null)[];

/**
 * Follows the labels' points on screen: after every drawn frame (the view renders on demand, so
 * only when something moved), their projections go to `onSpots` when they changed by half a pixel.
 * The page draws the callouts (number and value) in the DOM over the canvas: the dots alone did not
 * say which label of the list a dot was, nor its value.
 */
export function LabelAnchors({ points, onSpots }: { points: readonly V3[]; onSpots: (spots: LabelSpots) => void }) {
  const last = useRef<LabelSpots | null>(null);
  const v = useMemo(() => new Vector3(), []);
  useFrame(({ camera, size }) => {
    const spots: LabelSpots = points.map((p) => {
      v.set(p[0], p[1], p[2]).project(camera);
      return v.z > 1 ? null : [((v.x + 1) / 2) * size.width, ((1 - v.y) / 2) * size.height];
    });
    const prev = last.current;
    const same = prev !== null && prev.length === spots.length && spots.every((s, i) => (s === null ? prev[i] === null : prev[i] != null && Math.abs(s[0] - prev[i]![0]) < 0.5 && Math.abs(s[1] - prev[i]![1]) < 0.5));
    if (same) return;
    last.current = spots;
    onSpots(spots);
  });
  return null;
}

export function Markers({ markers, bounds }: { markers: ViewMarkers; bounds: ViewBounds | null }) {
  const r = bounds?.radius ?? 1;
  return (
    <>
      {markers.worstPoint && <WorstPoint point={markers.worstPoint} radius={r * 0.018} />}
      {markers.stations && <Planes planes={markers.stations} />}
      {markers.labels?.map((p, i) => (
        <mesh key={i} position={[p[0], p[1], p[2]]} renderOrder={10}>
          <sphereGeometry args={[r * 0.012, 12, 8]} />
          <meshBasicMaterial color="#1d1d1f" depthTest={false} transparent />
        </mesh>
      ))}
      {markers.placement && <Triad placement={markers.placement} size={r * 0.3} />}
    </>
  );
}
