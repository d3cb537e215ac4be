/** The first `limit` bytes of `parts` (pieces of a file, in order) in one array: a head to judge a format by. */
export function firstBytes(parts: readonly Uint8Array[], limit: number): Uint8Array {
  const out = new Uint8Array(Math.min(limit, parts.reduce((n, p) => n + p.byteLength, 0)));
  let at = 0;
  for (const p of parts) {
    if (at >= out.length) break;
    const take = Math.min(p.byteLength, out.length - at);
    out.set(p.subarray(0, take), at);
    at += take;
  }
  return out;
}

/**
 * The pieces of a file's head: at least one piece (so the source starts), and while `more` says so
 * until `limit` bytes (or the file) are in. Pieces are copied: the host reuses its buffer.
 */
export async function readHead(iterator: AsyncIterator<Uint8Array>, limit: number, more = true): Promise<{ first: Uint8Array[]; length: number }> {
  const first: Uint8Array[] = [];
  let length = 0;
  for (let asked = false; !asked || (more && length < limit); asked = true) {
    const next = await iterator.next();
    if (next.done) break;
    first.push(next.value.slice());
    length += next.value.byteLength;
  }
  return { first, length };
}
