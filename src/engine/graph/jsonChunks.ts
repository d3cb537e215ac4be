/**
 * Serialises a JSON value piece by piece, the text equal to JSON.stringify(value) (compact), so a
 * host can write a large result (graph-ml on a big part: tens of MB) without building one string.
 * Handles what results hold: plain objects, arrays, strings, numbers, booleans, null; undefined
 * object members are left out and non-finite numbers become null, as in JSON.stringify.
 */
export function* jsonChunks(value: unknown, chunkSize = 1 << 16): Generator<string> {
  let buffer = '';
  function* flush(force: boolean): Generator<string> {
    if (buffer.length >= chunkSize || (force && buffer.length > 0)) {
      yield buffer;
      buffer = '';
    }
  }
  function* walk(v: unknown): Generator<string> {
    if (v === null || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') {
      buffer += JSON.stringify(v);
    } else if (Array.isArray(v)) {
      const items: unknown[] = v;
      buffer += '[';
      for (let i = 0; i < items.length; i++) {
        if (i > 0) buffer += ',';
        const item = items[i];
        if (item === undefined || typeof item === 'function') buffer += 'null';
        else yield* walk(item);
        yield* flush(false);
      }
      buffer += ']';
    } else if (typeof v === 'object') {
      buffer += '{';
      let first = true;
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
        if (item === undefined || typeof item === 'function') continue;
        buffer += (first ? '' : ',') + JSON.stringify(k) + ':';
        first = false;
        yield* walk(item);
        yield* flush(false);
      }
      buffer += '}';
    } else {
      buffer += 'null';
    }
  }
  yield* walk(value);
  yield* flush(true);
}
