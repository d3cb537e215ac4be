import { afterEach, describe, expect, it } from 'vitest';
import type { BodySummary } from '../engine';
import { alignRoles, comparePairs, markNominal } from './deviationReview';
import { inspectStore, resetStores, sceneStore, type BodyEntry } from './stores';

/** Which body "Align" moves in each pair the deviation review offers: the scan, never the part onto a cloud. */
const entry = (bodyId: string, kind: BodySummary['kind']): BodyEntry => ({
  bodyId,
  summary: { bodyId, name: bodyId, kind, sourceFormat: kind === 'brep' ? 'brep' : kind === 'mesh' ? 'stl' : 'xyz', valid: true, source: null, solids: 0, shells: 0, faces: 0, edges: 0, vertices: 0, lengthUnit: null, placement: null } satisfies BodySummary,
  color: '#000',
  visible: true,
  opacity: 1,
});

const offers = () => comparePairs().map((pair) => ({ pair, ...alignRoles(pair) }));

afterEach(() => resetStores());

describe('the Align offer', () => {
  it('a part, a mesh scan and a cloud: the mesh moves onto the part whichever is measured, the cloud moves onto the part', () => {
    sceneStore.setState({ bodies: [entry('part', 'brep'), entry('scan', 'mesh'), entry('cloud', 'points')] });
    // The actual coloured against the nominal by default (issue 29.1), whatever the scan's file type.
    expect(offers()).toEqual([
      { pair: { from: 'scan', to: 'part', flip: false }, moving: 'scan', fixed: 'part' },
      { pair: { from: 'cloud', to: 'part', flip: false }, moving: 'cloud', fixed: 'part' },
    ]);
    // On the nominal: the part is measured, its signs flipped; the scan still moves. A cloud stays on the actual.
    inspectStore.setState({ colorOn: 'nominal' });
    expect(offers()).toEqual([
      { pair: { from: 'part', to: 'scan', flip: true }, moving: 'scan', fixed: 'part' },
      { pair: { from: 'cloud', to: 'part', flip: false }, moving: 'cloud', fixed: 'part' },
    ]);
  });

  it('a cloud and a part only: the first offer aligns the cloud; against a mesh part, the cloud moves onto the mesh', () => {
    sceneStore.setState({ bodies: [entry('cloud', 'points'), entry('part', 'brep')] });
    expect(offers()).toEqual([{ pair: { from: 'cloud', to: 'part', flip: false }, moving: 'cloud', fixed: 'part' }]);
    sceneStore.setState({ bodies: [entry('mesh', 'mesh'), entry('cloud', 'points')] });
    expect(offers()).toEqual([{ pair: { from: 'cloud', to: 'mesh', flip: false }, moving: 'cloud', fixed: 'mesh' }]);
    // A cloud cannot be "on nominal" (it has no surface): it stays the measured side.
    inspectStore.setState({ colorOn: 'nominal' });
    expect(offers()).toEqual([{ pair: { from: 'cloud', to: 'mesh', flip: false }, moving: 'cloud', fixed: 'mesh' }]);
  });

  it('two CAD bodies: the first is the nominal until the user marks the other; the actual moves', () => {
    sceneStore.setState({ bodies: [entry('part', 'brep'), entry('asBuilt', 'brep')] });
    expect(offers()).toEqual([{ pair: { from: 'asBuilt', to: 'part', flip: false }, moving: 'asBuilt', fixed: 'part' }]);
    markNominal('asBuilt');
    expect(offers()).toEqual([{ pair: { from: 'part', to: 'asBuilt', flip: false }, moving: 'part', fixed: 'asBuilt' }]);
  });
});
