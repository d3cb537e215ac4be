/**
 * A tool result as JSON text, the way every host prints one: viewer data's typed arrays become plain
 * arrays (JSON.stringify would write them as objects keyed "0", "1" ...); NaN becomes null as usual.
 */
export function resultJson(value: unknown, space?: number): string {
  return JSON.stringify(value ?? null, typedArraysAsArrays, space);
}

function typedArraysAsArrays(_key: string, value: unknown): unknown {
  const typed = value instanceof Float32Array || value instanceof Float64Array || value instanceof Uint32Array || value instanceof Int32Array || value instanceof Uint8Array;
  return typed ? Array.from(value) : value;
}
