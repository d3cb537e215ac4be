import { BrepscopeError } from '../errors';
import type { Body } from './Body';
import { baseName } from './import/detectFormat';
import { CONTROL_CHARACTERS_MESSAGE, MAX_BODY_ID_LENGTH, bodyIdTooLongMessage, hasControlCharacters, shownBodyId, withoutControlCharacters } from './bodyIdLimit';

interface Selection {
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
        `body ${shownBodyId(bodyId)} is not in the scene (${known.length ? `bodies: ${known.join(', ')}` : 'the scene is empty'})`,
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
    // Tools' schemas refuse such an id first; a host that names bodies itself gets the same rule.
    if (body.bodyId.length > MAX_BODY_ID_LENGTH) throw new BrepscopeError('INVALID_ARGUMENT', `body ${shownBodyId(body.bodyId)}: ${bodyIdTooLongMessage(body.bodyId.length)}`);
    if (hasControlCharacters(body.bodyId)) throw new BrepscopeError('INVALID_ARGUMENT', `body ${JSON.stringify(body.bodyId.slice(0, 40))}: ${CONTROL_CHARACTERS_MESSAGE}`);
    if (this.bodies.has(body.bodyId)) {
      throw new BrepscopeError('BODY_EXISTS', `body '${body.bodyId}' is already in the scene; remove it first or choose another bodyId`);
    }
    this.bodies.set(body.bodyId, body);
  }

  /**
   * Puts the named bodies last, in this order (listing follows insertion): a restore loads bodies
   * at once and they arrive as they finish, meshes before a BREP that waits for the kernel.
   */
  reorder(bodyIds: readonly string[]): void {
    for (const bodyId of bodyIds) {
      const body = this.bodies.get(bodyId);
      if (!body) continue;
      this.bodies.delete(bodyId);
      this.bodies.set(bodyId, body);
    }
  }

  /** Removes a body, frees its kernel objects and drops what other bodies derived against it. */
  remove(bodyId: string): Body {
    const body = this.get(bodyId);
    this.bodies.delete(bodyId);
    for (const [id, sel] of this.selections) if (sel.bodyId === bodyId) this.selections.delete(id);
    this.forgetPartner(body);
    body.dispose();
    return body;
  }

  /** Drops what every other body derived against `partner` (it left the scene, or it moved). */
  forgetPartner(partner: Body): void {
    const prefix = pairKeyPrefix(partner);
    for (const other of this.bodies.values()) if (other !== partner) other.cache.drop((key) => key.startsWith(prefix));
  }

  /** A bodyId derived from `base` that is not taken yet: box, box_2, box_3 ... */
  uniqueId(base: string): string {
    return uniqueBodyId(base, (id) => this.bodies.has(id));
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

/**
 * `base` (control characters as `_`, trimmed; `body` when empty), else the first of base_2, base_3 ... that is not taken; cut
 * to MAX_BODY_ID_LENGTH (a long file name still gives a usable id).
 */
function uniqueBodyId(base: string, taken: (id: string) => boolean): string {
  const clean = withoutControlCharacters(base.trim()).slice(0, MAX_BODY_ID_LENGTH) || 'body';
  if (!taken(clean)) return clean;
  for (let i = 2; ; i++) {
    const suffix = `_${i}`;
    const candidate = `${clean.slice(0, MAX_BODY_ID_LENGTH - suffix.length)}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
}

/**
 * The default bodyId of a file: its name without folders, query and extension (URI-decoded), made
 * unique. Hosts that hand out ids before an import finishes (the app) apply the same rule.
 */
export function defaultBodyId(fileName: string, taken: (id: string) => boolean): string {
  return uniqueBodyId(baseName(fileName), taken);
}

/**
 * The cache key of something a body derived against `partner` (a deviation, a reference search
 * structure): it is dropped when the partner leaves the scene.
 */
export function pairKey(partner: Body, what: string): string {
  return `${pairKeyPrefix(partner)}${what}`;
}

function pairKeyPrefix(partner: Body): string {
  return `pair:${partner.uid}:`;
}
