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

/**
 * The first key given twice in one object of valid JSON text, as a dotted path (`bodies.scan`), or
 * undefined. JSON.parse keeps the last of duplicate keys without a word: a manifest line or `--args`
 * naming a body twice would silently run on the second file.
 */
export function duplicateJsonKey(text: string): string | undefined {
  // One frame per open object or array: its keys so far (arrays have none) and its path.
  const frames: { keys: Set<string> | null; path: string; lastKey: string }[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      const start = i++;
      while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      const raw = text.slice(start, ++i);
      let j = i;
      while (j < n && /\s/.test(text[j]!)) j++;
      const top = frames[frames.length - 1];
      if (text[j] === ':' && top?.keys) {
        const key = JSON.parse(raw) as string;
        const path = top.path ? `${top.path}.${key}` : key;
        if (top.keys.has(key)) return path;
        top.keys.add(key);
        top.lastKey = path;
      }
      continue;
    }
    if (c === '{' || c === '[') {
      const parent = frames[frames.length - 1];
      const path = parent ? (parent.keys ? parent.lastKey : `${parent.path}[]`) : '';
      frames.push({ keys: c === '{' ? new Set() : null, path, lastKey: path });
    } else if (c === '}' || c === ']') frames.pop();
    i++;
  }
  return undefined;
}
