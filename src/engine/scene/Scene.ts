import { BrepscopeError } from '../errors';
import type { Body } from './Body';

export interface Selection {
  selectionId: string;
  bodyId: string;
  ids: string[];
}

/** The bodies a session works on, addressed by bodyId. Tools read it; only scene tools change it. */
export class Scene {
  private readonly bodies = new Map<string, Body>();
  readonly selections = new Map<string, Selection>();
  private selectionCounter = 0;

  get(bodyId: string): Body {
    const body = this.bodies.get(bodyId);
    if (!body) {
      const known = [...this.bodies.keys()];
      throw new BrepscopeError(
        'BODY_NOT_FOUND',
        `body '${bodyId}' is not in the scene (${known.length ? `bodies: ${known.join(', ')}` : 'the scene is empty'})`,
      );
    }
    return body;
  }

  has(bodyId: string): boolean {
    return this.bodies.has(bodyId);
  }

  list(): Body[] {
    return [...this.bodies.values()];
  }

  /** Adds a body; an existing id is refused so nothing is replaced silently. */
  add(body: Body): void {
    if (this.bodies.has(body.bodyId)) {
      throw new BrepscopeError('BODY_EXISTS', `body '${body.bodyId}' is already in the scene; remove it first or choose another bodyId`);
    }
    this.bodies.set(body.bodyId, body);
  }

  /** Removes a body and frees its kernel shape. */
  remove(bodyId: string): Body {
    const body = this.get(bodyId);
    this.bodies.delete(bodyId);
    for (const [id, sel] of this.selections) if (sel.bodyId === bodyId) this.selections.delete(id);
    if (body.kind === 'brep') body.shape.delete();
    else body.facetShape?.delete();
    return body;
  }

  /** A bodyId derived from `base` that is not taken yet: box, box_2, box_3 ... */
  uniqueId(base: string): string {
    const clean = base.trim() || 'body';
    if (!this.bodies.has(clean)) return clean;
    for (let i = 2; ; i++) {
      const candidate = `${clean}_${i}`;
      if (!this.bodies.has(candidate)) return candidate;
    }
  }

  addSelection(bodyId: string, ids: string[]): Selection {
    const selection = { selectionId: `sel_${++this.selectionCounter}`, bodyId, ids };
    this.selections.set(selection.selectionId, selection);
    return selection;
  }

  clear(): void {
    for (const id of [...this.bodies.keys()]) this.remove(id);
  }
}
