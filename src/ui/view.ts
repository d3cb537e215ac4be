import { clearPick } from './picking';
import { sceneStore, type ViewDirection } from './stores';

/** The viewport's settings: camera fits and what is drawn beside the bodies. */

/** Fits the camera to the scene, looking along `direction` (default: the current one). */
export function fitView(direction: ViewDirection = 'current'): void {
  sceneStore.setState((s) => ({ fitToken: s.fitToken + 1, viewDirection: direction }));
}

export function toggleGrid(): void {
  sceneStore.setState((s) => ({ showGrid: !s.showGrid }));
}

export function toggleAxes(): void {
  sceneStore.setState((s) => ({ showAxes: !s.showAxes }));
}

/** Big scans drawn with every triangle at rest, or at the level of detail the renderer keeps up with. */
export function toggleFullDetail(): void {
  sceneStore.setState((s) => ({ fullDetail: !s.fullDetail }));
}

/** Edges on or off; a hovered or picked edge goes with them (it could not be seen or clicked). */
export function toggleEdges(): void {
  const { showEdges, hovered, picked } = sceneStore.getState();
  sceneStore.setState({ showEdges: !showEdges, ...(showEdges && hovered?.entity === 'edge' ? { hovered: null } : {}) });
  if (showEdges && picked?.entity === 'edge') clearPick();
}
