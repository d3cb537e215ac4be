import { BrepscopeError } from '../../errors';
import type { SourceFormat } from '../Body';

/** Files above this are refused before parsing: the kernel copies them into a 32-bit WASM heap. */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;

/**
 * What one reader may allocate for one file's content (arrays outside the JavaScript heap, which no
 * heap limit bounds): the host's memory ceiling (--max-memory, set with setImportMemoryBudget).
 * Unset, no budget applies (the browser, tests).
 */
let budgetBytes = Number.POSITIVE_INFINITY;
let budgetSource = '';

/** Sets the reader budget from the host's ceiling; `source` names it in messages (e.g. "--max-memory 1024"). */
export function setImportMemoryBudget(bytes: number, source: string): void {
  budgetBytes = bytes;
  budgetSource = source;
}

/**
 * Refuses a file whose content would take more than the budget once read (expanded sizes, declared
 * counts: computed before anything is allocated), with FILE_TOO_LARGE instead of a process killed.
 */
export function checkImportMemory(bytes: number, name: string, what: string): void {
  if (!(bytes > budgetBytes)) return;
  throw new BrepscopeError(
    'FILE_TOO_LARGE',
    `${name}: ${what}: about ${(bytes / 2 ** 20).toFixed(0)} MiB to hold, over the ${(budgetBytes / 2 ** 20).toFixed(0)} MiB memory ceiling (${budgetSource})`,
  );
}

/**
 * Mesh and scan files (STL, PLY, OBJ, 3MF, point text) never enter the kernel: they are capped by
 * memory, not by its heap. This is the hard cap whatever the memory: one ArrayBuffer holds the file
 * (Node's Buffer and typed arrays stop at 4 GiB).
 */
/** Formats read without the kernel (scanFile.ts's MeshFileFormat; listed here so that hosts need not load the parsers). */
const MESH_FORMATS: ReadonlySet<SourceFormat> = new Set<SourceFormat>(['stl', 'ply', 'obj', '3mf', 'xyz']);
const isMeshFileFormat = (format: SourceFormat): boolean => MESH_FORMATS.has(format);

export const MAX_MESH_FILE_BYTES = 2 ** 32 - 1;

/**
 * Peak bytes of memory a mesh body costs per byte of its file, at the densest format (binary STL,
 * 50 bytes a triangle): the file itself, the welded mesh and its BVH when it is measured, 290 bytes
 * a triangle measured with /usr/bin/time on the CLI (docs/scaling.md). Text formats spend more file
 * bytes a triangle, so the same ratio over-estimates them.
 */
export const MESH_MEMORY_PER_FILE_BYTE = 290 / 50;

/**
 * The largest file of this format a host with `memoryBytes` to spend may read: the kernel's limit
 * for files the kernel reads, the memory budget (capped by MAX_MESH_FILE_BYTES) for mesh files.
 * `format` undefined (not known from the name) takes the kernel's.
 */
export function importLimit(format: SourceFormat | undefined, memoryBytes: number): number {
  if (format === undefined || !isMeshFileFormat(format)) return MAX_IMPORT_BYTES;
  return Math.max(MAX_IMPORT_BYTES, Math.min(MAX_MESH_FILE_BYTES, Math.floor(memoryBytes / MESH_MEMORY_PER_FILE_BYTE)));
}

/** The refusal, one wording for every host. */
export function tooLargeMessage(fileName: string, bytes: number, limit: number, format: SourceFormat | undefined): string {
  const kind = format === undefined || !isMeshFileFormat(format) ? 'import limit (the kernel reads the file)' : 'mesh file limit (memory budget)';
  return `${fileName}: ${(bytes / 2 ** 20).toFixed(0)} MiB is over the ${(limit / 2 ** 20).toFixed(0)} MiB ${kind}`;
}
