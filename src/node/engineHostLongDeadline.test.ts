import { afterAll, describe, expect, it } from 'vitest';
import { dataPath } from '../test/data';
import { EngineHost } from './EngineHost';

const hosts: EngineHost[] = [];
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
});

/**
 * Bad-input sweep: `brepscope tool ... --deadline 3000000` (34.7 days) answered TIMEOUT "the engine
 * thread did not start within 3000000 s" in 0.8 s: Node fires a timer longer than 2^31 - 1 ms at once.
 * A deadline past that is held to it, so it is as good as none.
 */
describe('a deadline longer than a timer holds', { timeout: 120_000 }, () => {
  for (const [what, hostMs, callMs] of [
    ['the host\'s (--deadline 3000000)', 3e9, undefined],
    ['a call\'s (a batch job\'s deadline of 1e308 s)', undefined, Math.round(1e308 * 1000)],
  ] as const) {
    it(`${what}: the calls run and answer`, async () => {
      const host = EngineHost.start(hostMs === undefined ? {} : { deadlineMs: hostMs });
      hosts.push(host);
      const budget = callMs === undefined ? {} : { deadlineMs: callMs };
      const body = await host.run('import_file', { path: dataPath('occt/shape.stl'), bodyId: 'scan' }, budget);
      expect(body.result).toMatchObject({ bodyId: 'scan', kind: 'mesh', sourceFormat: 'stl' });
      const listed = await host.run('list_bodies', {}, budget);
      expect((listed.result as { bodies: { bodyId: string }[] }).bodies.map((b) => b.bodyId)).toEqual(['scan']);
    });
  }
});
