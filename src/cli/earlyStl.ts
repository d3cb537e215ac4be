import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { totalmem } from 'node:os';
import { resolve } from 'node:path';
import { importLimit, readStlPieces } from '../engine/hostFacts';
import { collectGarbage } from '../node/collectGarbage';
import type { TriMesh } from '../engine';

/** One piece of the file in memory at a time (src/node/nodeFiles.ts reads the same way). */
const PIECE_BYTES = 4 * 2 ** 20;

/**
 * An STL (binary or ASCII) read and parsed on the CLI's own thread while the engine thread is still
 * loading its code (a few hundred milliseconds): the engine then gets the mesh instead of reading
 * and parsing the file after it started (LoadRequest.stlMesh). The file streams by in fixed-size
 * pieces, welded as they arrive (readStlPieces), so it is never whole in memory and the body keeps
 * no copy of it. Anything else (no such file, not an STL, a bad one, too large) is left to the
 * engine, which reads the file itself and reports it as always: undefined.
 */
export async function readStlEarly(path: string): Promise<{ stlMesh: TriMesh; fileBytes: number } | undefined> {
  if (!/\.stl$/i.test(path)) return undefined;
  let handle: FileHandle | undefined;
  try {
    // Opened without waiting (a FIFO's open would wait for a writer forever, holding one of the
    // process's few file-system threads) and refused unless a regular file within the memory budget.
    handle = await open(resolve(path), constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await handle.stat();
    const budget = 0.75 * Math.min(totalmem(), process.constrainedMemory?.() || Infinity);
    if (!info.isFile() || info.size === 0 || info.size > importLimit('stl', budget)) return undefined;
    // In shared memory: the engine thread and its mesh thread read the same arrays, copied nowhere.
    const read = await readStlPieces({ size: info.size, pieces: pieces(handle) }, path, { shared: true });
    // The weld's hash table and vertex store (about 20 bytes a triangle) are garbage now, and this
    // thread allocates almost nothing after it.
    collectGarbage();
    return 'mesh' in read ? { stlMesh: read.mesh, fileBytes: info.size } : undefined;
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

async function* pieces(handle: FileHandle): AsyncGenerator<Uint8Array> {
  const buffer = new Uint8Array(PIECE_BYTES);
  for (let at = 0; ; ) {
    const { bytesRead } = await handle.read(buffer, 0, PIECE_BYTES, at);
    if (bytesRead === 0) return;
    at += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}
