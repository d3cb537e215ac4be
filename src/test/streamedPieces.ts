import type { MeshOrCloud } from '../engine/scene/import/ply';
import type { FilePieces } from '../engine/scene/import/stl';

/**
 * The streamed readers' tests (STL, PLY, OBJ): a file handed over in pieces, a parse compared
 * byte for byte, errors caught as values so streamed and whole-file errors compare equal.
 */

/**
 * The bytes in pieces of the given size (or sizes, cycled: [k, 2 ** 30] cuts the file once, at k),
 * each a view of one reused buffer (as a host streams); whatever lies past a piece is garbage.
 */
export function piecesOf(bytes: Uint8Array, sizes: number | number[]): FilePieces {
  const cycle = typeof sizes === 'number' ? [sizes] : sizes;
  return {
    size: bytes.byteLength,
    pieces: (async function* () {
      const buffer = new Uint8Array(Math.min(Math.max(...cycle), bytes.byteLength));
      for (let at = 0, i = 0; at < bytes.byteLength; i++) {
        const n = Math.min(cycle[i % cycle.length]!, bytes.byteLength - at);
        buffer.set(bytes.subarray(at, at + n));
        buffer.fill(0xff, n);
        yield buffer.subarray(0, n);
        at += n;
      }
    })(),
  };
}

/** Every array of a parse, with its type, as plain values: equal means the same bytes in the same typed arrays. */
export function exactly(r: MeshOrCloud): unknown {
  return { kind: r.kind, notes: r.notes, ...arraysExactly(r.kind === 'mesh' ? r.mesh : r.cloud) };
}

/** An object's typed arrays as their type and bytes (other fields as they are). */
export function arraysExactly(arrays: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(arrays).map(([k, v]) => [k, ArrayBuffer.isView(v) ? [v.constructor.name, Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength))] : v]));
}

/** What a promise settles with: its error, or 'no error'. */
export function errorOfAsync(run: () => Promise<unknown>): Promise<unknown> {
  return run().then(
    () => 'no error',
    (e: unknown) => e,
  );
}

/** What a call throws, or 'no error'. */
export function errorOf(run: () => unknown): unknown {
  try {
    run();
    return 'no error';
  } catch (e) {
    return e;
  }
}
