import { describe, expect, it } from 'vitest';
import { Engine, memoryFiles } from '../engine';
import { box } from '../engine/mesh/generators';
import { writeBinaryStl } from '../engine/scene/import/stl';
import { guarded } from './guarded';

describe('the engine worker keeps a dropped File, not its bytes (issue 32, item 1)', () => {

  it('guarded: a Blob given and restored into a new engine streams again; the snapshot gives the Blob back for a body that keeps no bytes', async () => {
    const stl = writeBinaryStl(box([0, 0, 0], [1, 2, 3], 3));
    const blob = new Blob([stl.slice()]);
    const first = guarded(new Engine({ files: memoryFiles() }));
    await first.putFile('scan.stl', blob);
    expect((await first.run('import_file', { path: 'scan.stl', bodyId: 'scan' })).ok).toBe(true);
    const snapshot = await first.snapshot();
    expect(snapshot.bodies.map((b) => [b.bodyId, b.path, b.bytes])).toEqual([['scan', 'scan.stl', blob]]);
    const engine = new Engine({ files: memoryFiles() });
    const second = guarded(engine);
    const restored = await second.restore({ bodies: snapshot.bodies.map((b) => ({ ...b, bytes: b.bytes ?? new Uint8Array() })) });
    expect(restored.ok && restored.value).toEqual({ restored: ['scan'], failed: [] });
    const body = engine.scene.get('scan');
    expect(body.origin?.bytes).toBeUndefined();
    expect((await engine.run('compute_metrics', { bodyId: 'scan', metrics: ['volume'] })).result.volume).toBeCloseTo(6, 9);
  });
});
