/** What sameFileAs reads of a body: its id and its file's fingerprint (import_file's contentHash). */
interface Fingerprinted {
  bodyId: string;
  summary: { contentHash?: string | undefined };
}

/**
 * The body whose file has the same content as `bodyId`'s: the same file dropped twice, under any
 * name (a renamed copy too), told by the SHA-256 the engine takes of the bytes it reads (src/engine/
 * scene/import/contentHash.ts); two different files that share a name, size and date are not. The
 * second copy becomes the actual, so Compare would measure the part against itself and read 0
 * everywhere, a PASS that says nothing about any part as made.
 */
export function sameFileAs(bodyId: string, bodies: readonly Fingerprinted[]): string | null {
  const hash = bodies.find((b) => b.bodyId === bodyId)?.summary.contentHash;
  if (!hash) return null;
  return bodies.find((b) => b.bodyId !== bodyId && b.summary.contentHash === hash)?.bodyId ?? null;
}

/**
 * Each body whose file an earlier body already holds (the same file dropped again, or a renamed
 * copy), with that earlier body: the bodies list says it on the copy, which otherwise reads as a
 * second part under the same name.
 */
export function laterCopies(bodies: readonly Fingerprinted[]): Map<string, string> {
  const copies = new Map<string, string>();
  for (const [i, b] of bodies.entries()) {
    const twin = sameFileAs(b.bodyId, bodies);
    if (twin !== null && bodies.findIndex((o) => o.bodyId === twin) < i) copies.set(b.bodyId, twin);
  }
  return copies;
}
