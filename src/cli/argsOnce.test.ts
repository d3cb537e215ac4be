import { describe, expect, it } from 'vitest';
import { main } from './main';

describe('brepscope tool --args', () => {
  it('given twice is INVALID_ARGUMENT (exit 2), not the second object alone; no engine is started', async () => {
    let out = '';
    const io = { stdout: (t: string) => void (out += t), stderr: () => undefined };
    const code = await main(['tool', 'list_bodies', '--args', '{}', '--args', '{"bodyId":"b"}'], io, {});
    expect(code).toBe(2);
    expect(JSON.parse(out)).toEqual({ error: { code: 'INVALID_ARGUMENT', message: "--args given more than once: give the tool's arguments as one JSON object" } });
  });

  it('with a key given twice is INVALID_ARGUMENT naming it, not the last value alone', async () => {
    let out = '';
    const io = { stdout: (t: string) => void (out += t), stderr: () => undefined };
    const code = await main(['tool', 'list_bodies', '--args', '{"bodyId":"a","bodyId":"b"}'], io, {});
    expect(code).toBe(2);
    expect(JSON.parse(out)).toEqual({ error: { code: 'INVALID_ARGUMENT', message: '--args: bodyId is given twice' } });
  });
});
