import { buildViewerBuffers, viewerTransferables, type ViewMesh } from '../viewer/displayBuffers';

/**
 * The worker's addition to display_mesh results and to deviation_heatmap's mesh (the display mesh
 * refined for the heat map, drawn in its place while the colours are shown): the viewport's normals,
 * bounding sphere and picking BVH (src/viewer/displayBuffers.ts), built here so the page's thread
 * only wraps arrays it is handed; the buffers are moved with the mesh.
 */
export function addViewerBuffers(tool: string, result: unknown): ArrayBuffer[] {
  if (!result || typeof result !== 'object') return [];
  let mesh: ViewMesh | undefined;
  if (tool === 'display_mesh') mesh = result as ViewMesh;
  else if (tool === 'deviation_heatmap') mesh = (result as { mesh?: ViewMesh }).mesh;
  if (!mesh) return [];
  mesh.viewer = buildViewerBuffers(mesh);
  return viewerTransferables(mesh.viewer);
}
