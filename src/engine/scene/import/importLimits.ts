import { BrepscopeError } from '../../errors';

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
