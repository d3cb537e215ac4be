/** A bounding sphere of everything drawn, for fitting the camera. */
export interface ViewBounds {
  center: [number, number, number];
  radius: number;
}

/** The box around all vertices of the given position arrays, as a sphere; null when there are none. */
export function boundsOf(positionArrays: readonly Float32Array[]): ViewBounds | null {
  let minX = Infinity, minY = Infinity, minZ = Infinity;
  let maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (const p of positionArrays) {
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
  return { center, radius };
}
