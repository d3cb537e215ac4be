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
