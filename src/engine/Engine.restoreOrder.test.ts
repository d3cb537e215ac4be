import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testEngine } from '../test/testEngine';
import { dataPath } from '../test/data';
import { box } from './mesh/generators';
import { writeBinaryStl } from './scene/import/stl';

const dir = mkdtempSync(join(tmpdir(), 'brepscope-restore-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ids = (bodies: unknown): string[] => (bodies as { bodies: { bodyId: string }[] }).bodies.map((b) => b.bodyId);

describe('Engine.restore: the scene comes back as it was', () => {
  // A host replaces an engine after a TIMEOUT and restores its scene. The meshes loaded at once and the
  // BREP after the kernel, so list_bodies answered [box, box_2, wedge] for a scene of [box, wedge, box_2].
  it('bodies keep their order, a BREP between two meshes included; the box still measures 6', async () => {
    const stl = join(dir, 'box.stl');
    writeFileSync(stl, writeBinaryStl(box([0, 0, 0], [1, 2, 3])));
    const first = testEngine();
    for (const path of [stl, dataPath('occt/wedge_ok.brep'), stl]) await first.runJson('import_file', { path });
    const before = ids((await first.runJson('list_bodies', {})).result);
    expect(before).toEqual(['box', 'wedge_ok', 'box_2']);

    const second = testEngine();
    const report = await second.restore(first.snapshot(), { giveFiles: false });
    expect(report.failed).toEqual([]);
    expect(ids((await second.runJson('list_bodies', {})).result)).toEqual(before);
    const metrics = (await second.runJson('compute_metrics', { bodyId: 'box_2', metrics: ['volume'] })).result as { volume: number };
    expect(metrics.volume).toBeCloseTo(6, 9);
    first.dispose();
    second.dispose();
  }, 120_000);
});
