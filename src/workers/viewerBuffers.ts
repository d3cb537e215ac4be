import { buildViewerBuffers, viewerTransferables, type ViewMesh } from '../viewer/displayBuffers';

/**
 * The worker's addition to display_mesh results: the viewport's normals, bounding sphere and
 * picking BVH (src/viewer/displayBuffers.ts), built here so the page's thread only wraps arrays it
 * is handed; the buffers are moved with the mesh.
 */
export function addViewerBuffers(tool: string, result: unknown): ArrayBuffer[] {
  if (tool !== 'display_mesh' || !result || typeof result !== 'object') return [];
  const mesh = result as ViewMesh;
  mesh.viewer = buildViewerBuffers(mesh);
  return viewerTransferables(mesh.viewer);
}
