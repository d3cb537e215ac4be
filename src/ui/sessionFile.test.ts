import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browserGlobals, demoFile, startTestPage, stopTestPage, until } from '../test/page';
import { importBytes } from './bodies';
import { setPassShare, setTitleField, setTolerance } from './deviationReview';
import { openSession, readSession, sessionBytes, type SessionManifest } from './sessionFile';
import { inspectStore, resetStores, sceneStore } from './stores';
import { runFromPanel } from './toolRuns';

/** The `.brepscope` session file (issue 29.6): saved from one page, opened in a fresh one. */
beforeEach(() => {
  browserGlobals();
  startTestPage();
});
afterEach(() => stopTestPage());

/** 10 degrees about z and a shift: where the scan stands when saved. */
const c = Math.cos(0.17453292519943295), s = Math.sin(0.17453292519943295);
const PLACED = [
  [c, -s, 0, 1.5],
  [s, c, 0, -0.25],
  [0, 0, 1, 0.125],
  [0, 0, 0, 1],
];

describe('session files', () => {
  it('carry the files, placements, tolerance, verdict rule, roles, title block and last run: the reopened page shows the same figures', async () => {
    await Promise.all([importBytes('part.brep', demoFile('part.brep')), importBytes('scan.stl', demoFile('scan.stl'))]);
    expect((await runFromPanel('set_placement', { bodyId: 'scan', transform: PLACED })).ok).toBe(true);
    setTolerance(0.15);
    setPassShare(0.95);
    setTitleField('part', 'Bracket');
    setTitleField('operator', 'Ann');
    inspectStore.setState({ colorOn: 'nominal' });
    await runFromPanel('measure_deviation', { fromBodyId: 'part', toBodyId: 'scan' });
    const before = await until(() => (inspectStore.getState().heat?.histogramStatus === 'done' ? inspectStore.getState().heat : undefined), 120_000, 'the review');
    const bytes = await sessionBytes();

    const entries = unzipSync(bytes);
    expect(Object.keys(entries).sort()).toEqual(['files/1-part.brep', 'files/2-scan.stl', 'session.json']);
    expect(entries['files/2-scan.stl']).toEqual(demoFile('scan.stl'));

    // A fresh page: nothing of the first one left.
    stopTestPage();
    resetStores();
    startTestPage();
    await openSession('saved.brepscope', bytes);
    const after = await until(() => (inspectStore.getState().heat?.histogramStatus === 'done' ? inspectStore.getState().heat : undefined), 120_000, 'the reopened review');
    expect(sceneStore.getState().bodies.map((b) => b.bodyId).sort()).toEqual(['part', 'scan']);
    expect(sceneStore.getState().bodies.find((b) => b.bodyId === 'scan')!.summary.placement!.transform).toEqual(PLACED);
    expect(inspectStore.getState()).toMatchObject({ tolerance: { value: 0.15, source: 'link' }, passShare: 0.95, colorOn: 'nominal', titleBlock: { part: 'Bracket', operator: 'Ann' } });
    expect(after).toMatchObject({ fromBodyId: 'part', toBodyId: 'scan', tolerance: 0.15, flip: true });
    // The same files, placement and settings: the same figures, to the bit.
    expect(after.histogram!.mean).toBe(before.histogram!.mean);
    expect(after.histogram!.withinTolerance).toBe(before.histogram!.withinTolerance);
  });

  it('refuses what is not a session with coded errors', () => {
    expect(readSession(strToU8('not a zip'))).toMatchObject({ code: 'PARSE_FAILED' });
    expect(readSession(zipSync({ 'a.txt': strToU8('x') }))).toMatchObject({ code: 'PARSE_FAILED', message: expect.stringContaining('no session.json') });
    const manifest = (m: Partial<SessionManifest>) => zipSync({ 'session.json': strToU8(JSON.stringify({ format: 'brepscope-session', version: 1, bodies: [], inspection: {}, ...m })) });
    expect(readSession(manifest({ version: 99 }))).toMatchObject({ code: 'UNSUPPORTED_FORMAT' });
    expect(readSession(manifest({ bodies: [{ bodyId: 'a', fileName: 'a.stl', entry: 'files/1-a.stl' }] }))).toMatchObject({ code: 'PARSE_FAILED', message: expect.stringContaining('files/1-a.stl') });
    expect(readSession(manifest({}))).toMatchObject({ manifest: { bodies: [] } });
  });
});
