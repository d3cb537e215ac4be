import { describe, expect, it } from 'vitest';
import { box } from '../engine/mesh/generators';
import { Scene } from '../engine/scene/Scene';
import { describeBody, type BodySummary } from '../engine/scene/describeBody';
import { addMeshBody } from '../test/deviationFixtures';
import { validityBadge } from './bodyBadge';

/** A closed 12-triangle box with `extra` collapsed triangles (two equal corners) appended: a scan's typical fault. */
function scanWithDegenerates(extra: number): BodySummary {
  const b = box([0, 0, 0], [10, 10, 10]);
  const indices = Array.from(b.indices);
  for (let i = 0; i < extra; i++) indices.push(i, i, (i + 1) % 8);
  const scene = new Scene();
  return describeBody(undefined, addMeshBody(scene, 'scan', { positions: b.positions, indices: Uint32Array.from(indices) }));
}

const brep = (valid: boolean): BodySummary => ({
  bodyId: 'part', name: 'part', kind: 'brep', sourceFormat: 'step', valid, source: null, solids: 1, shells: 1, faces: 6, edges: 12, vertices: 8, lengthUnit: 'mm', placement: null,
});

describe('body list badge: a scan with a few faulty triangles is not "invalid"', () => {
  it('the import counts the faults: 3 collapsed triangles on a closed box', () => {
    const s = scanWithDegenerates(3);
    expect(s.valid).toBe(false);
    expect(s.meshDefects).toEqual({ degenerateTriangles: 3, nonManifoldEdges: 0, inconsistentEdges: 0 });
  });

  it('a scan with 3 degenerate triangles: amber, the count on the badge, still measured', () => {
    const badge = validityBadge(scanWithDegenerates(3), undefined);
    expect(badge).toMatchObject({ label: '3 degenerate triangles', tone: 'warn', by: 'import' });
    expect(badge.title).toMatch(/^3 degenerate triangles among 15 triangles\. Common in a scan: it is still measured/);
    expect(validityBadge(scanWithDegenerates(1), undefined).label).toBe('1 degenerate triangle');
  });

  it('several kinds of fault: their total on the badge, each kind in the title', () => {
    const s: BodySummary = { ...scanWithDegenerates(2), meshDefects: { degenerateTriangles: 2, nonManifoldEdges: 4, inconsistentEdges: 1 } };
    const badge = validityBadge(s, undefined);
    expect(badge).toMatchObject({ label: '7 mesh defects', tone: 'warn' });
    expect(badge.title).toContain('2 degenerate triangles, 4 non-manifold edges, 1 inconsistently wound edge among');
  });

  it('a clean scan stays green', () => {
    expect(validityBadge(scanWithDegenerates(0), undefined)).toMatchObject({ label: 'valid', tone: 'ok' });
  });

  it('a CAD body that fails BRepCheck keeps its red "invalid"', () => {
    expect(validityBadge(brep(false), undefined)).toMatchObject({ label: 'invalid', tone: 'bad', title: 'BRepCheck_Analyzer rejects the shape' });
    expect(validityBadge(brep(true), undefined)).toMatchObject({ label: 'valid', tone: 'ok' });
  });

  it('validate_geometry errors: red on a CAD body, amber with the count on a scan', () => {
    const run = { valid: false, by: 'validate_geometry' as const, errors: 2 };
    expect(validityBadge(brep(true), run)).toMatchObject({ label: 'invalid', tone: 'bad', title: 'validate_geometry found 2 errors', by: 'validate_geometry' });
    expect(validityBadge(scanWithDegenerates(0), run)).toMatchObject({ label: '2 mesh issues', tone: 'warn', by: 'validate_geometry' });
  });
});
