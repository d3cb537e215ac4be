/**
 * A file's content fingerprint, to tell the same file loaded twice (under any name) from two
 * different files that share a name, size and date. SHA-256 through WebCrypto (the browser and Node
 * alike, native speed, no dependency). WebCrypto has no incremental digest and may copy its input,
 * so content above one piece is hashed piece by piece and the pieces' digests hashed again: a file
 * up to 64 MiB gets its plain SHA-256 (what `sha256sum` prints), a bigger one never needs more than
 * 64 MiB beside it (docs/app.md, "The same file twice").
 */
const PIECE_BYTES = 64 * 1024 * 1024;

/** `sha256:<hex>` of bytes up to 64 MiB; `sha256-64m:<hex>` (the hash of the 64 MiB pieces' digests) beyond. */
export async function contentHash(parts: readonly ArrayBufferView[], prefix = ''): Promise<string> {
  const pieces: Uint8Array[] = [];
  for (const p of parts) {
    const bytes = new Uint8Array(p.buffer, p.byteOffset, p.byteLength);
    for (let at = 0; at < bytes.length; at += PIECE_BYTES) pieces.push(bytes.subarray(at, at + PIECE_BYTES));
  }
  if (pieces.length <= 1) return `${prefix}sha256:${hex(await sha256(pieces[0] ?? new Uint8Array(0)))}`;
  const digests = new Uint8Array(32 * pieces.length);
  for (let i = 0; i < pieces.length; i++) digests.set(new Uint8Array(await sha256(pieces[i]!)), 32 * i);
  return `${prefix}sha256-64m:${hex(await sha256(digests))}`;
}

/** WebCrypto refuses a view of shared memory (the mesh threads' arrays): such a piece is copied first, 64 MiB at most. */
function sha256(bytes: Uint8Array): Promise<ArrayBuffer> {
  const own = bytes.buffer instanceof ArrayBuffer ? bytes : bytes.slice();
  return globalThis.crypto.subtle.digest('SHA-256', own as Uint8Array<ArrayBuffer>);
}

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}
