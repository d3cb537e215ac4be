import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { MAX_IMPORT_BYTES, parseStl } from '../engine/hostFacts';
import type { TriMesh } from '../engine';

/**
 * An STL file read and parsed on the CLI's own thread while the engine thread is still loading its
 * code (a few hundred milliseconds): the engine then gets the bytes and the mesh instead of reading
 * and parsing the file after it started (ImportRequest.stlMesh). With the same parser, so the body
 * is the same. Anything that goes wrong here (no such file, not an STL, too large) is left to the
 * engine, which reads the file itself and reports it as always: undefined. `started`: the read
 * bin/brepscope.js began before the CLI's code loaded.
 */
export async function readStlEarly(path: string, started?: Promise<Uint8Array>): Promise<{ bytes: Uint8Array; stlMesh: TriMesh } | undefined> {
  if (!/\.stl$/i.test(path)) return undefined;
  try {
    const buffer = await (started ?? readRegularFile(resolve(path)));
    if (buffer.byteLength === 0 || buffer.byteLength > MAX_IMPORT_BYTES) return undefined;
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    // In shared memory: the engine thread and its mesh thread read the same arrays, copied nowhere.
    return { bytes, stlMesh: parseStl(bytes, path, { shared: true }) };
  } catch {
    return undefined;
  }
}

/**
 * A regular file's bytes, or a throw: opened without waiting (a FIFO's open would wait for a writer
 * forever, holding one of the process's few file-system threads) and refused unless a regular file.
 */
async function readRegularFile(path: string): Promise<Uint8Array> {
  const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await file.stat();
    if (!info.isFile() || info.size > MAX_IMPORT_BYTES) throw new Error('left to the engine');
    return await file.readFile();
  } finally {
    await file.close();
  }
}
