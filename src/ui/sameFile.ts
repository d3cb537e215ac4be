import type { KeptFile } from './session';

/**
 * The body whose file the page already holds as `bodyId`'s: the same file dropped twice (same name,
 * size and modification time, or for downloads the same URL or the same bytes). The second copy
 * becomes the actual, so Compare would measure the part against itself and read 0 everywhere,
 * a PASS that says nothing about any part as made.
 */
export function sameFileAs(bodyId: string, kept: readonly KeptFile[]): string | null {
  const mine = kept.find((f) => f.bodyId === bodyId);
  if (!mine) return null;
  const other = kept.find((f) => f.bodyId !== bodyId && f.order < mine.order && same(f, mine)) ?? kept.find((f) => f.bodyId !== bodyId && same(f, mine));
  return other?.bodyId ?? null;
}

function same(a: KeptFile, b: KeptFile): boolean {
  if (a.sourceUrl !== undefined && a.sourceUrl === b.sourceUrl) return true;
  const x = a.bytes, y = b.bytes;
  if (x instanceof Uint8Array && y instanceof Uint8Array) return x.length === y.length && x.every((v, i) => v === y[i]);
  if (x instanceof Uint8Array || y instanceof Uint8Array) return false;
  const nameA = a.fileName ?? (x instanceof File ? x.name : undefined);
  const nameB = b.fileName ?? (y instanceof File ? y.name : undefined);
  const modified = (f: Blob) => (f instanceof File ? f.lastModified : null);
  return nameA !== undefined && nameA === nameB && x.size === y.size && modified(x) === modified(y);
}
