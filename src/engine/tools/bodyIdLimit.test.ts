import { describe, expect, it } from 'vitest';
import { Scene, defaultBodyId } from '../scene/Scene';
import { MAX_BODY_ID_LENGTH } from '../scene/bodyIdLimit';
import { parseArgs } from './parseArgs';
import { findTool, toolManifests } from './registry';

const TEN_MB_ID = 'x'.repeat(10 * 1024 * 1024);

function refusal(run: () => unknown): { code?: string; message: string } {
  try {
    run();
  } catch (e) {
    return e as { code?: string; message: string };
  }
  throw new Error('accepted');
}

/** Every property named like a body id, anywhere in a JSON Schema (nested objects, arrays, unions). */
function bodyIdProperties(schema: unknown, path: string, out: Array<{ path: string; schema: Record<string, unknown> }>): void {
  if (!schema || typeof schema !== 'object') return;
  const s = schema as Record<string, unknown>;
  for (const [key, value] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) {
    if (/bodyId$/i.test(key)) out.push({ path: `${path}.${key}`, schema: value as Record<string, unknown> });
    bodyIdProperties(value, `${path}.${key}`, out);
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf']) {
    const v = s[key];
    for (const sub of Array.isArray(v) ? v : v ? [v] : []) bodyIdProperties(sub, path, out);
  }
}

describe('bodyId length bound', () => {
  it('every tool argument named *bodyId has maxLength 256 in the published schema', () => {
    const found: Array<{ path: string; schema: Record<string, unknown> }> = [];
    for (const m of toolManifests()) bodyIdProperties(m.inputSchema, m.name, found);
    // import_file, measure_deviation, align_bodies ... : a silent schema change would shrink this list.
    expect(found.length).toBeGreaterThanOrEqual(30);
    const unbounded = found.filter((f) => f.schema.maxLength !== MAX_BODY_ID_LENGTH).map((f) => f.path);
    expect(unbounded).toEqual([]);
    expect(MAX_BODY_ID_LENGTH).toBe(256);
  });

  it('a 10 MB bodyId is refused with INVALID_ARGUMENT and a short message that does not echo it', () => {
    for (const [name, args] of [
      ['measure_deviation', { fromBodyId: TEN_MB_ID, toBodyId: 'b' }],
      ['compute_metrics', { bodyId: TEN_MB_ID }],
      ['import_file', { path: 'a.stl', bodyId: TEN_MB_ID }],
      ['symmetric_difference_volume', { fromBodyId: 'a', referenceBodyId: TEN_MB_ID }],
    ] as const) {
      const e = refusal(() => parseArgs(findTool(name), args));
      expect(e.code, name).toBe('INVALID_ARGUMENT');
      expect(e.message, name).toContain(`at most 256 characters; this one has ${TEN_MB_ID.length}`);
      expect(e.message.length, name).toBeLessThan(200);
    }
  });

  it('256 characters are accepted, 257 refused', () => {
    const tool = findTool('compute_metrics');
    expect(parseArgs(tool, { bodyId: 'a'.repeat(256) })).toMatchObject({ bodyId: 'a'.repeat(256) });
    expect(refusal(() => parseArgs(tool, { bodyId: 'a'.repeat(257) })).message).toBe(
      'compute_metrics: bodyId: a bodyId has at most 256 characters; this one has 257',
    );
  });

  it('BODY_NOT_FOUND quotes an over-long id cut to 40 characters with its length', () => {
    const e = refusal(() => new Scene().get(`${'y'.repeat(40)}${TEN_MB_ID}`));
    expect(e.code).toBe('BODY_NOT_FOUND');
    expect(e.message).toBe(`body '${'y'.repeat(40)}…' (${TEN_MB_ID.length + 40} characters) is not in the scene (the scene is empty)`);
  });

  it('a default id from a very long file name is cut to the bound, its _2 form too', () => {
    const long = `${'n'.repeat(5000)}.stl`;
    const first = defaultBodyId(long, () => false);
    expect(first).toBe('n'.repeat(256));
    const second = defaultBodyId(long, (id) => id === first);
    expect(second).toBe(`${'n'.repeat(254)}_2`);
  });
});
