import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataPath } from './data';

type V3 = [number, number, number];

/** An ASCII STL of the axis-aligned box [lo, hi], outward normals. */
export function boxStl(lo: V3, hi: V3): string {
  const c = (i: number): V3 => [i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]];
  // Two triangles a face, counter-clockwise seen from outside.
  const faces: [number, number, number, number][] = [
    [0, 2, 3, 1], // z = lo
    [4, 5, 7, 6], // z = hi
    [0, 1, 5, 4], // y = lo
    [2, 6, 7, 3], // y = hi
    [0, 4, 6, 2], // x = lo
    [1, 3, 7, 5], // x = hi
  ];
  const lines = ['solid box'];
  for (const [a, b, d, e] of faces) {
    for (const tri of [
      [a, b, d],
      [a, d, e],
    ]) {
      lines.push(' facet normal 0 0 0', '  outer loop');
      for (const i of tri) lines.push(`   vertex ${c(i!).join(' ')}`);
      lines.push('  endloop', ' endfacet');
    }
  }
  lines.push('endsolid box');
  return lines.join('\n') + '\n';
}

/** What a job of the fixture must give: a closed-form figure, or an error code. */
export type Expectation =
  | { status: 'ok'; volume?: number; maxDeviation?: number }
  | { status: 'failed'; code: string; at: 'body' | 'run' };

export interface BatchFixture {
  dir: string;
  manifest: string;
  expected: Map<string, Expectation>;
}

/**
 * Twenty-one small jobs (issue 17): generated boxes with closed-form volumes, box pairs whose deviation
 * is the offset exactly, real files from test-data, and bad jobs (a missing file, a truncated STEP,
 * an empty mesh, a body the run does not name, a deadline too short to meet).
 */
export function writeBatchFixture(dir: string): BatchFixture {
  mkdirSync(dir, { recursive: true });
  const expected = new Map<string, Expectation>();
  const lines: unknown[] = [];
  const add = (id: string, bodies: Record<string, string>, runs: { tool: string; args: unknown }[], expectation: Expectation, deadline?: number): void => {
    lines.push({ id, bodies, runs, ...(deadline === undefined ? {} : { deadline }) });
    expected.set(id, expectation);
  };
  for (let i = 0; i < 8; i++) {
    const size: V3 = [10 + i, 20 - i, 5 + 0.5 * i];
    writeFileSync(join(dir, `box${i}.stl`), boxStl([0, 0, 0], size));
    add(`box-metrics-${i}`, { box: `box${i}.stl` }, [{ tool: 'compute_metrics', args: { bodyId: 'box' } }], { status: 'ok', volume: size[0] * size[1] * size[2] });
  }
  for (let i = 0; i < 4; i++) {
    const offset = 0.05 * (i + 1);
    writeFileSync(join(dir, `inner${i}.stl`), boxStl([0, 0, 0], [10, 8, 6]));
    writeFileSync(join(dir, `outer${i}.stl`), boxStl([-offset, -offset, -offset], [10 + offset, 8 + offset, 6 + offset]));
    // Every point of the inner box is exactly `offset` from the outer one (the nearest face is parallel).
    add(
      `box-deviation-${i}`,
      { scan: `inner${i}.stl`, part: `outer${i}.stl` },
      [{ tool: 'measure_deviation', args: { fromBodyId: 'scan', toBodyId: 'part' } }],
      { status: 'ok', maxDeviation: offset },
    );
  }
  copyFileSync(dataPath('occt/Pump_Nut.brep'), join(dir, 'Pump_Nut.brep'));
  copyFileSync(dataPath('occt/screw.step'), join(dir, 'screw.step'));
  copyFileSync(dataPath('occt/shape.stl'), join(dir, 'shape.stl'));
  add('nut-metrics', { part: 'Pump_Nut.brep' }, [{ tool: 'compute_metrics', args: { bodyId: 'part' } }], { status: 'ok' });
  add('nut-validate-topology', { part: 'Pump_Nut.brep' }, [
    // An ample self-intersection budget: the check completes in every run, so the local pool and the
    // queue give the same answer whatever the machine's load (the default, 20 s, may stop it early).
    { tool: 'validate_geometry', args: { bodyId: 'part', selfIntersectionBudgetSeconds: 600 } },
    { tool: 'query_topology', args: { bodyId: 'part', entity: 'face' } },
  ], { status: 'ok' });
  add('screw-metrics', { part: 'screw.step' }, [{ tool: 'compute_metrics', args: { bodyId: 'part' } }], { status: 'ok' });
  add('stl-histogram', { scan: 'shape.stl', part: 'shape.stl' }, [{ tool: 'deviation_histogram', args: { fromBodyId: 'scan', referenceBodyId: 'part' } }], { status: 'ok' });
  add('missing-file', { part: 'no-such-file.step' }, [{ tool: 'compute_metrics', args: { bodyId: 'part' } }], { status: 'failed', code: 'FILE_NOT_FOUND', at: 'body' });
  const step = readFileSync(dataPath('occt/screw.step'));
  writeFileSync(join(dir, 'truncated.step'), step.subarray(0, Math.floor(step.length / 3)));
  add('truncated-step', { part: 'truncated.step' }, [{ tool: 'compute_metrics', args: { bodyId: 'part' } }], { status: 'failed', code: 'PARSE_FAILED', at: 'body' });
  writeFileSync(join(dir, 'empty.stl'), 'solid empty\nendsolid empty\n');
  add('empty-mesh', { scan: 'empty.stl' }, [{ tool: 'compute_metrics', args: { bodyId: 'scan' } }], { status: 'failed', code: 'EMPTY_MESH', at: 'body' });
  add('wrong-body', { box: 'box0.stl' }, [
    { tool: 'compute_metrics', args: { bodyId: 'other' } },
    { tool: 'compute_metrics', args: { bodyId: 'box' } },
  ], { status: 'failed', code: 'BODY_NOT_FOUND', at: 'run' });
  // Loading a BREP takes more than a millisecond: the job's own deadline stops it (the engine is replaced).
  add('deadline', { part: 'Pump_Nut.brep' }, [{ tool: 'compute_metrics', args: { bodyId: 'part' } }], { status: 'failed', code: 'TIMEOUT', at: 'body' }, 0.001);
  const manifest = join(dir, 'manifest.jsonl');
  writeFileSync(manifest, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return { dir, manifest, expected };
}
