import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browserGlobals, demoFile, startTestPage, stopTestPage, until, type TestPage } from '../test/page';
import { importBytes, removeBody, selectBody } from './bodies';
import { session, WorkerLost } from './session';
import { engineStore, kernelStore, sceneStore } from './stores';
import { runFromPanel } from './toolRuns';

/** The engine session: one engine at a time, replaced on cancel, crash or kernel abort, the scene restored from the kept files. */
let page: TestPage;

beforeEach(() => {
  browserGlobals();
  page = startTestPage();
});
afterEach(() => stopTestPage());

const bodyIds = () => sceneStore.getState().bodies.map((b) => b.bodyId).sort();

async function loadDemo(): Promise<void> {
  await Promise.all([importBytes('part.brep', demoFile('part.brep')), importBytes('scan.stl', demoFile('scan.stl'))]);
  await until(() => sceneStore.getState().bodies.length === 2 && sceneStore.getState().bodies.every((b) => b.mesh), 120_000, 'the demo drawn');
}

describe('session', () => {
  it('starts one engine and loads its kernel; keeps every imported file in import order', async () => {
    expect(engineStore.getState().generation).toBe(1);
    await until(() => kernelStore.getState().status === 'ready', 120_000, 'the kernel');
    await loadDemo();
    expect(session().keptFiles().map((f) => f.bodyId)).toEqual(['part', 'scan']);
    expect(session().keptFiles().map((f) => f.path)).toEqual(['part.brep', 'scan.stl']);
    expect(page.engines).toHaveLength(1);
  });

  it('a crashed engine is replaced and the scene restored with the same ids; the user is told', async () => {
    await loadDemo();
    const volume = (await session().run('compute_metrics', { bodyId: 'part', metrics: ['volume'] })).ok;
    expect(volume).toBe(true);
    session().replaceWorker(new WorkerLost('WORKER_CRASHED', 'the engine worker was terminated'));
    expect(engineStore.getState().generation).toBe(2);
    expect(engineStore.getState().notices.map((n) => n.code)).toEqual(['WORKER_CRASHED']);
    // Calls made during the restore wait for it, then run on the new engine, which has both bodies.
    const listed = await session().run('list_bodies', {});
    expect(engineStore.getState().restoring).toBe(false);
    expect(listed.ok && listed.value.result.bodies.map((b) => b.bodyId).sort()).toEqual(['part', 'scan']);
    expect(page.engines).toHaveLength(2);
    expect(page.engines[1]!.scene.list().map((b) => b.bodyId).sort()).toEqual(['part', 'scan']);
    expect(bodyIds()).toEqual(['part', 'scan']);
  });

  it('a kernel abort (its own code) replaces the engine; the answer is the error, and the next call works', async () => {
    await loadDemo();
    page.abortNext.add('compute_metrics');
    const outcome = await session().run('compute_metrics', { bodyId: 'part' });
    expect(outcome.ok ? null : outcome.error.code).toBe('KERNEL_ABORTED');
    expect(engineStore.getState().generation).toBe(2);
    expect(engineStore.getState().notices.map((n) => n.code)).toEqual(['WORKER_CRASHED']);
    const again = await session().run('compute_metrics', { bodyId: 'part', metrics: ['volume'] });
    expect(again.ok && again.value.result.volume).toBeGreaterThan(0);
  });

  it('Cancel ends the running tool with CANCELLED and restores the scene in a new engine', async () => {
    await loadDemo();
    const run = runFromPanel('symmetric_difference_volume', { fromBodyId: 'part', referenceBodyId: 'scan', maxSamples: 2_000_000 });
    await until(() => page.calls.some((c) => c.tool === 'symmetric_difference_volume'), 10_000, 'the run to start');
    session().cancelRun();
    const call = await run;
    expect(call.ok ? null : call.error.code).toBe('CANCELLED');
    // Cancelling is not a crash: no notice.
    expect(engineStore.getState().notices).toEqual([]);
    const listed = await session().run('list_bodies', {});
    expect(listed.ok && listed.value.result.bodies.map((b) => b.bodyId).sort()).toEqual(['part', 'scan']);
  });

  it('a removed body is forgotten: it is not restored, and its page state goes', async () => {
    await loadDemo();
    selectBody('scan');
    await removeBody('scan');
    expect(bodyIds()).toEqual(['part']);
    expect(sceneStore.getState().selectedId).toBeNull();
    expect(session().keptFiles().map((f) => f.bodyId)).toEqual(['part']);
    session().replaceWorker(new WorkerLost('WORKER_CRASHED', 'test'));
    const listed = await session().run('list_bodies', {});
    expect(listed.ok && listed.value.result.bodies.map((b) => b.bodyId)).toEqual(['part']);
  });

  it('a body that cannot be restored leaves the list with its error', async () => {
    await loadDemo();
    // Simulate a kept file that no longer loads: its bytes replaced by garbage.
    const kept = session().keptFiles().find((f) => f.bodyId === 'scan')!;
    kept.bytes = new TextEncoder().encode('not an STL at all');
    kept.path = 'scan.bin';
    session().replaceWorker(new WorkerLost('WORKER_CRASHED', 'test'));
    await until(() => !engineStore.getState().restoring && bodyIds().length === 1, 60_000, 'the restore');
    expect(bodyIds()).toEqual(['part']);
    expect(sceneStore.getState().errors.map((e) => [e.fileName, e.code])).toEqual([['scan', 'UNSUPPORTED_FORMAT']]);
  });
});
