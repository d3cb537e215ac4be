import { describe, expect, it } from 'vitest';
import { duplicateJsonKey } from './json';

describe('duplicateJsonKey finds a key given twice in one object', () => {
  it.each([
    ['{"a":1,"a":2}', 'a'],
    ['{"id":"x","bodies":{"scan":"a.stl","scan":"b.stl"}}', 'bodies.scan'],
    ['{"runs":[{"tool":"t","args":{"k":1}},{"tool":"u","tool":"v"}]}', 'runs[].tool'],
    ['{"a":{"b":1},"c":{"b":2},"a":3}', 'a'],
    ['{"k\\u0041":1,"kA":2}', 'kA'],
  ])('%s -> %s', (text, path) => {
    expect(duplicateJsonKey(text)).toBe(path);
  });

  it.each([
    '{"a":1,"b":{"a":2}}',
    '[{"a":1},{"a":2}]',
    '{"a":"\\"a\\":","b":["a","a"]}',
    '{"a":"}","b":{"a":1}}',
    '42',
  ])('none in %s', (text) => {
    expect(duplicateJsonKey(text)).toBeUndefined();
  });
});
