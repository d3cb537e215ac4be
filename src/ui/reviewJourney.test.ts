import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeKernel } from '../node/nodeEngine';
import { dataPath } from '../test/data';
import { makeCrossedBipyramid } from '../test/interferenceShapes';
import { brepBytes } from '../test/kernelShapes';
import { browserGlobals, demoFile, startTestPage, stopTestPage, until } from '../test/page';
import { featureFaces, findFeatures, highlightedFeatureFaces, hoverFeature, selectFeature } from './features';
import { assemblyFileOf, openAssemblyOf } from './assembly';
import { dismissAllErrors, importBytes } from './bodies';
import { validateGraph } from './graphActions';
import { inspectStore, sceneStore, toolStore } from './stores';
import { runFromPanel } from './toolRuns';

/**
 * Issue 20's findings about the page's state (items 4 and 9), on the real engine: the validity
 * badge follows the latest validation; a file imported twice is named as the user knows it; error
 * cards clear at once; a STEP body opens its assembly tree without a typed file name.
 */

const bytesOf = (b: Uint8Array | Buffer): Uint8Array<ArrayBuffer> => new Uint8Array(b).slice();
const body = (id: string) => sceneStore.getState().bodies.find((b) => b.bodyId === id);

beforeAll(() => {
  browserGlobals();
  startTestPage();
});

afterAll(() => stopTestPage());

describe('the body list after validation (issue 20.4)', () => {
  it('the badge follows the latest validation, not the import check', async () => {
    // BRepCheck_Analyzer accepts it (valid on import); its faces cross, which validate_geometry's and
    // graph_validate's self-intersection check finds (an error).
    const oc = await nodeKernel();
    const bytes = brepBytes(oc, makeCrossedBipyramid(oc));
    expect(await importBytes('crossed.brep', bytesOf(bytes))).toBe('crossed');
    expect(body('crossed')?.summary.valid).toBe(true);
    expect(body('crossed')?.validation).toBeUndefined();

    const call = await runFromPanel('validate_geometry', { bodyId: 'crossed' });
    expect(call.ok && call.result && 'issues' in call.result && call.result.valid).toBe(false);
    expect(body('crossed')?.validation).toMatchObject({ valid: false, by: 'validate_geometry' });
    expect(body('crossed')!.validation!.errors).toBeGreaterThan(0);

    await validateGraph('crossed');
    expect(inspectStore.getState().graph.validate?.result?.isValid).toBe(false);
    expect(body('crossed')?.validation).toMatchObject({ valid: false, by: 'graph_validate' });

    // Every validation of the scene (no bodyId) marks each body it checked.
    const all = await runFromPanel('validate_geometry', {});
    expect(all.ok).toBe(true);
    expect(body('crossed')?.validation).toMatchObject({ valid: false, by: 'validate_geometry' });
  });
});

describe('small things (issue 20.9)', () => {
  it('a file imported twice is named in its messages as the user knows it, never by its worker path', async () => {
    const screw = readFileSync(dataPath('occt/screw.step'));
    const truncated = bytesOf(screw.subarray(0, Math.floor(screw.length / 2)));
    await importBytes('truncated.step', truncated.slice());
    await importBytes('truncated.step', truncated.slice());
    const errors = sceneStore.getState().errors.filter((e) => e.fileName === 'truncated.step');
    expect(errors).toHaveLength(2);
    for (const e of errors) {
      expect(e.message).toContain('truncated.step');
      expect(e.message).not.toMatch(/\d\/truncated\.step/);
    }
    dismissAllErrors();
    expect(sceneStore.getState().errors).toEqual([]);
  });

  it('a STEP body opens its assembly tree from its own button', async () => {
    const bytes = bytesOf(readFileSync(dataPath('cax-if/as1_pe_203.stp')));
    expect(await importBytes('as1_pe_203.stp', bytes)).toBe('as1_pe_203');
    expect(assemblyFileOf('as1_pe_203')).toBe('as1_pe_203.stp');
    expect(assemblyFileOf('crossed')).toBeNull();
    await openAssemblyOf('as1_pe_203');
    const assembly = await until(() => inspectStore.getState().assembly, 60_000, 'the tree');
    expect(assembly).toMatchObject({ source: 'as1_pe_203.stp', bodyId: 'as1_pe_203' });
    expect(assembly.tree.children.length).toBeGreaterThan(0);
  });
});

describe('the feature list (issue 20.5)', () => {
  it("the demo part's holes and pockets, each face once; hover and click highlight a feature's faces", async () => {
    expect(await importBytes('part.brep', demoFile('part.brep'))).toBe('part');
    await findFeatures('part');
    const state = await until(() => (inspectStore.getState().features?.status === 'done' ? inspectStore.getState().features : undefined), 60_000, 'features');
    // Through the tool panel: its form and result show the same run.
    expect(toolStore.getState().selected).toBe('recognize_features');
    expect(toolStore.getState().results.recognize_features).toMatchObject({ ok: true, args: { bodyId: 'part' } });
    const kinds = state.features.map((f) => f.kind);
    // makeDemo: a bore and two counterbored bolt holes (each bolt hole and its counterbore a hole of its own), one pocket.
    expect(kinds).toEqual(['hole', 'hole', 'hole', 'hole', 'hole', 'pocket']);
    const all = state.features.flatMap(featureFaces);
    expect(new Set(all).size).toBe(all.length);

    expect(highlightedFeatureFaces('part')).toEqual({ hovered: [], selected: [] });
    hoverFeature(1);
    expect(highlightedFeatureFaces('part')).toEqual({ hovered: featureFaces(state.features[1]!), selected: [] });
    selectFeature(0);
    hoverFeature(null);
    expect(highlightedFeatureFaces('part')).toEqual({ hovered: [], selected: featureFaces(state.features[0]!) });
    // Another body has no highlight; a second click lets go.
    expect(highlightedFeatureFaces('crossed')).toEqual({ hovered: [], selected: [] });
    selectFeature(0);
    expect(highlightedFeatureFaces('part').selected).toEqual([]);
  });
});
