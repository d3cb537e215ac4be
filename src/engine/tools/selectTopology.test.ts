import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { addShapeBody } from '../scene/addShapeBody';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { makeBox } from '../../test/kernelShapes';

let engine: Engine;
const select = (args: object) => engine.runJson('select_topology', args).then((r) => r.result) as Promise<{ selectionId: string; bodyId: string; ids: string[] }>;

beforeAll(async () => {
  const oc = await nodeKernel();
  engine = testEngine();
  addShapeBody(oc, engine.scene, 'box', makeBox(oc, 1, 2, 3));
});

describe('select_topology', () => {
  it('mints a selectionId for valid ids and resolves it later', async () => {
    const sel = await select({ bodyId: 'box', ids: ['face[0]', 'edge[11]', 'vertex[7]', 'face[0]'] });
    expect(sel.selectionId).toMatch(/^sel_\d+$/);
    expect(sel.ids).toEqual(['face[0]', 'edge[11]', 'vertex[7]']);
    expect(await select({ selectionId: sel.selectionId })).toEqual(sel);
    const other = await select({ bodyId: 'box', ids: ['face[5]'] });
    expect(other.selectionId).not.toBe(sel.selectionId);
  });

  it('refuses ids out of range or malformed, and unknown selections', async () => {
    await expect(select({ bodyId: 'box', ids: ['face[6]'] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(select({ bodyId: 'box', ids: ['edge[12]'] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(select({ bodyId: 'box', ids: ['face(1)'] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(select({ bodyId: 'box', ids: [] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(select({ bodyId: 'box' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(select({})).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(select({ selectionId: 'sel_999' })).rejects.toMatchObject({ code: 'SELECTION_NOT_FOUND' });
    await expect(select({ bodyId: 'ghost', ids: ['face[0]'] })).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
  });

  it('forgets selections of a removed body', async () => {
    const sel = await select({ bodyId: 'box', ids: ['face[1]'] });
    await engine.run('remove_body', { bodyId: 'box' });
    await expect(select({ selectionId: sel.selectionId })).rejects.toMatchObject({ code: 'SELECTION_NOT_FOUND' });
  });
});
