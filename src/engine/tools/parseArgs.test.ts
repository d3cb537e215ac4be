import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { parseArgs } from './parseArgs';
import { findTool } from './registry';

const messageOf = (tool: { name: string; schema: z.ZodType }, args: unknown): string => {
  try {
    parseArgs(tool, args);
  } catch (e) {
    expect(e).toMatchObject({ code: 'INVALID_ARGUMENT' });
    return (e as Error).message;
  }
  throw new Error('the arguments were accepted');
};

describe('parseArgs: what a union argument got wrong', () => {
  const tool = {
    name: 't',
    schema: z.strictObject({ items: z.array(z.union([z.string().min(1), z.strictObject({ kind: z.enum(['a', 'b']), faces: z.array(z.string()).min(1) })])) }),
  };

  it('an object where a string or an object is taken: the object alternative\'s own problems, by field', () => {
    expect(messageOf(tool, { items: ['ok', { type: 'a', face: 'x' }] })).toBe(
      't: items[1].kind: Invalid option: expected one of "a"|"b"; items[1].faces: Invalid input: expected array, received undefined; items[1]: Unrecognized keys: "type", "face"',
    );
  });

  it('a value of neither type: what each alternative expected', () => {
    expect(messageOf(tool, { items: [5] })).toBe('t: items[0]: none of the accepted forms: Invalid input: expected string, received number | Invalid input: expected object, received number');
  });

  it("evaluate_gdt's characteristics: a misspelt characteristic names kind and faces, not just 'Invalid input'", () => {
    const message = messageOf(findTool('evaluate_gdt'), { actualBodyId: 'a', nominalBodyId: 'n', characteristics: [{ type: 'flatness', face: 'face[0]', tolerance: 0.1 }] });
    expect(message).toMatch(/^evaluate_gdt: characteristics\[0\]\.kind: /);
    expect(message).toContain('characteristics[0]: Unrecognized keys: "type", "face"');
  });
});
