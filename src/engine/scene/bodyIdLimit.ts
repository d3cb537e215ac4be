/**
 * A bodyId is a short name a person or an agent reads and types back: 256 characters is far beyond
 * any file name a system allows (255 bytes), and it keeps a mistaken multi-megabyte argument out of
 * every result and error message that names the body (docs/mcp.md).
 */
export const MAX_BODY_ID_LENGTH = 256;

/** How much of an over-long id an error message shows. */
const SHOWN_CHARS = 40;

/** An id as an error message quotes it: an over-long one is cut, with its length said. */
export function shownBodyId(bodyId: string): string {
  if (bodyId.length <= MAX_BODY_ID_LENGTH) return `'${bodyId}'`;
  return `'${bodyId.slice(0, SHOWN_CHARS)}…' (${bodyId.length} characters)`;
}

export function bodyIdTooLongMessage(length: number): string {
  return `a bodyId has at most ${MAX_BODY_ID_LENGTH} characters; this one has ${length}`;
}

/**
 * Control characters (U+0000 to U+001F, U+007F) have no place in a name a person reads and types
 * back: a NUL from a file name cut C strings short in logs and reports and could not be typed.
 */
const isControl = (code: number): boolean => code < 0x20 || code === 0x7f;

export const CONTROL_CHARACTERS_MESSAGE = 'a bodyId has no control characters (U+0000 to U+001F, U+007F)';

export function hasControlCharacters(bodyId: string): boolean {
  for (let i = 0; i < bodyId.length; i++) if (isControl(bodyId.charCodeAt(i))) return true;
  return false;
}

/** A file name's control characters as `_`, for a default bodyId. */
export function withoutControlCharacters(name: string): string {
  if (!hasControlCharacters(name)) return name;
  return Array.from(name, (c) => (isControl(c.charCodeAt(0)) ? '_' : c)).join('');
}
