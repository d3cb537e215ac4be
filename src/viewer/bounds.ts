import type { ViewMesh } from './displayBuffers';

/** A bounding sphere of everything drawn (for fitting the camera) and the box it comes from. */
export interface ViewBounds {
  center: [number, number, number];
  radius: number;
  min: [number, number, number];
  max: [number, number, number];
}

/**
 * The box around all vertices of the given meshes, as a sphere; null when there are none. A mesh
 * whose box a worker sent (ViewerBuffers) is not looped over here.
 */
export function boundsOf(meshes: readonly ViewMesh[]): ViewBounds | null {
  let minX = Infinity, minY = Infinity, minZ = Infinity;
  let maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (const mesh of meshes) {
    const box = mesh.viewer?.box;
    if (box) {
      minX = Math.min(minX, box.min[0]);
      minY = Math.min(minY, box.min[1]);
      minZ = Math.min(minZ, box.min[2]);
      maxX = Math.max(maxX, box.max[0]);
      maxY = Math.max(maxY, box.max[1]);
      maxZ = Math.max(maxZ, box.max[2]);
      continue;
    }
    const p = mesh.positions;
    for (let i = 0; i + 2 < p.length; i += 3) {
      const x = p[i]!, y = p[i + 1]!, z = p[i + 2]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (z < minZ) minZ = z;
      if (z > maxZ) maxZ = z;
    }
  }
  if (!(minX <= maxX)) return null;
  const center: [number, number, number] = [(minX + maxX) / 2, (minY + maxY) / 2, (minZ + maxZ) / 2];
  const radius = Math.max(Math.hypot(maxX - minX, maxY - minY, maxZ - minZ) / 2, 1e-6);
  return { center, radius, min: [minX, minY, minZ], max: [maxX, maxY, maxZ] };
}

/** A round grid step (1, 2 or 5 times a power of ten) giving about 10 to 25 lines across `span`. */
export function gridStep(span: number): number {
  const raw = Math.max(span, 1e-9) / 20;
  const power = 10 ** Math.floor(Math.log10(raw));
  const m = raw / power;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * power;
}
