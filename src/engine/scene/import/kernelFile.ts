import type { OC } from '../../kernel';

let counter = 0;

/**
 * Kernel files live in a folder, not at the root: the OCAF reader (XBF) and TDocStd_Application.SaveAs
 * refuse a path whose folder part is empty (`/x.xbf` opens as PCDM_RS_UnknownDocument).
 */
const FOLDER = '/tmp'; // Emscripten's default file system always has it.

/**
 * Puts bytes into the kernel's in-memory file system for readers that only take a path, and
 * removes the file afterwards. Unique names: reopening a path can return cached documents (XBF).
 */
export function withKernelFile<T>(oc: OC, bytes: Uint8Array, extension: string, fn: (path: string) => T): T {
  const path = `${FOLDER}/brepscope-${Date.now().toString(36)}-${++counter}.${extension}`;
  oc.FS.writeFile(path, bytes);
  try {
    return fn(path);
  } finally {
    try {
      oc.FS.unlink(path);
    } catch {
      // The reader may have removed or never kept it; nothing to clean.
    }
  }
}

/** Reads a file the kernel wrote into its in-memory file system, then removes it. */
export function takeKernelFile(oc: OC, path: string): Uint8Array {
  try {
    return oc.FS.readFile(path);
  } finally {
    try {
      oc.FS.unlink(path);
    } catch {
      // Already gone.
    }
  }
}

/** A fresh path in the kernel's file system for a writer to fill (then `takeKernelFile`). */
export function uniqueKernelPath(extension: string): string {
  return `${FOLDER}/brepscope-out-${Date.now().toString(36)}-${++counter}.${extension}`;
}
