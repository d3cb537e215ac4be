import type { TopologyEntry } from '../engine';
import { session } from './session';
import { sceneStore, type HoveredEntity, type UiOutcome } from './stores';

/** Picking and hovering faces and edges in the viewport, with their query_topology entries. */

/**
 * Shows the picked face (`face[N]`: a BREP face from the display mesh's faceIds, or an STL
 * triangle) with its query_topology entry.
 */
export function pickFace(bodyId: string, index: number): Promise<void> {
  return pickEntity(bodyId, 'face', index);
}

/** Shows the picked BREP edge (`edge[N]`, from the display edges' edgeIds) with its query_topology entry. */
export function pickEdge(bodyId: string, index: number): Promise<void> {
  return pickEntity(bodyId, 'edge', index);
}

async function pickEntity(bodyId: string, entity: 'face' | 'edge', index: number): Promise<void> {
  const body = sceneStore.getState().bodies.find((b) => b.bodyId === bodyId);
  if (!body) return;
  const id = `${entity}[${index}]`;
  sceneStore.setState({ picked: { bodyId, entity, id, status: 'loading' } });
  const outcome = body.summary.kind === 'brep' ? await brepEntries(bodyId, entity) : await meshEntries(bodyId, entity, index);
  const still = sceneStore.getState().picked;
  if (!still || still.bodyId !== bodyId || still.id !== id) return;
  if (!outcome.ok) {
    sceneStore.setState({ picked: { bodyId, entity, id, status: 'failed', error: outcome.error } });
    return;
  }
  const entry = outcome.value.find((e) => e.id === id);
  sceneStore.setState({ picked: { bodyId, entity, id, status: 'done', ...(entry ? { entry } : {}) } });
}

/** Every face or edge of a BREP body, asked once per body (the first pick) and kept on its entry. */
async function brepEntries(bodyId: string, entity: 'face' | 'edge'): Promise<UiOutcome<TopologyEntry[]>> {
  const known = sceneStore.getState().bodies.find((b) => b.bodyId === bodyId)?.topology?.[entity];
  if (known) return { ok: true, value: known };
  const outcome = await session().run('query_topology', { bodyId, entity });
  if (!outcome.ok) return outcome;
  const entries = outcome.value.result;
  sceneStore.setState((s) => ({ bodies: s.bodies.map((b) => (b.bodyId === bodyId ? { ...b, topology: { ...b.topology, [entity]: entries } } : b)) }));
  return { ok: true, value: entries };
}

/** A mesh has a face per triangle: ask only for the first index + 1. */
async function meshEntries(bodyId: string, entity: 'face' | 'edge', index: number): Promise<UiOutcome<TopologyEntry[]>> {
  const outcome = await session().run('query_topology', { bodyId, entity, limit: index + 1 });
  return outcome.ok ? { ok: true, value: outcome.value.result } : outcome;
}

export function clearPick(): void {
  sceneStore.setState({ picked: null });
}

/** The face or edge under the cursor (`index` null: the cursor left that body's faces or edges). */
export function setHovered(bodyId: string, index: number | null, entity: HoveredEntity['entity'] = 'face'): void {
  const h = sceneStore.getState().hovered;
  if (index === null) {
    if (h?.bodyId === bodyId && h.entity === entity) sceneStore.setState({ hovered: null });
  } else if (!h || h.bodyId !== bodyId || h.entity !== entity || h.index !== index) {
    sceneStore.setState({ hovered: { bodyId, entity, index } });
  }
}
