/** Files above this are refused before parsing: the kernel copies them into a 32-bit WASM heap. */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;
