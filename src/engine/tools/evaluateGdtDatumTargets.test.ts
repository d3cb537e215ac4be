import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { Characteristic, DatumReport } from '../gdt/evaluate';
import type { PmiResult } from '../gdt/pmi';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { dataPath } from '../../test/data';

/**
 * A datum defined by datum targets (NIST CTC 2's A by the points A1, A2, A3) has no feature faces:
 * evaluate_gdt said only "datum A has no faces". Now read_pmi lists the targets with their places,
 * and evaluate_gdt simulates the datum from them (datumTargets.ts); a target the file does not place
 * leaves the characteristics on its datum unevaluated, and says so. CTC 2 is 2 MB, so its form is
 * reproduced on NIST CTC 1: datum A's feature relation replaced by two point targets and a line on its face
 * (z = 0), placed as CTC 2 places them (PLACED_DATUM_TARGET_FEATURE related to the DATUM, an
 * AXIS2_PLACEMENT_3D 'orientation' in a SHAPE_REPRESENTATION_WITH_PARAMETERS); datum B's by two
 * point targets without a placement.
 */
let engine: Engine;
/** Two points and the start of a line on datum A's face (z = 0, outward +z), checked on it with native OCCT. */
const PLACES = [[-150, -60, 0], [150, -60, 0], [-20, 90, 0]];
/** A3's length: 40, its measure naming inches while the number is the model's millimetres (as NIST FTC 6 writes its targets). */
const LINE = 40;

beforeAll(async () => {
  await nodeKernel();
  engine = createNodeEngine();
  const text = readFileSync(dataPath('nist/nist_ctc_01_asme1_ap242-e1.stp'), 'latin1');
  const relation = "#196=SHAPE_ASPECT_RELATIONSHIP('',$,#35,#38);";
  const relationA = "#187=SHAPE_ASPECT_RELATIONSHIP('',$,#34,#37);";
  expect(text).toContain(relation);
  expect(text).toContain(relationA);
  const placed = PLACES.flatMap((p, i) => {
    const id = 9100 + 10 * i;
    return [
      `#${id}=PLACED_DATUM_TARGET_FEATURE('Datum Target.${i + 3}','${i < 2 ? 'point' : 'line'}',#4269,.T.,'${i + 1}');`,
      `#${id + 1}=SHAPE_ASPECT_RELATIONSHIP('',$,#${id},#37);`,
      `#${id + 2}=PROPERTY_DEFINITION('',$,#${id});`,
      `#${id + 3}=SHAPE_DEFINITION_REPRESENTATION(#${id + 2},#${id + 4});`,
      `#${id + 4}=SHAPE_REPRESENTATION_WITH_PARAMETERS('',(#${id + 5}${i < 2 ? '' : ',#9190'}),#4351);`,
      `#${id + 5}=AXIS2_PLACEMENT_3D('orientation',#${id + 6},#${id + 7},#${id + 8});`,
      `#${id + 6}=CARTESIAN_POINT('',(${p.map((c) => c.toFixed(1)).join(',')}));`,
      `#${id + 7}=DIRECTION('',(0.,0.,-1.));`,
      `#${id + 8}=DIRECTION('',(1.,0.,0.));`,
    ];
  });
  placed.push(
    `#9190=(LENGTH_MEASURE_WITH_UNIT()MEASURE_REPRESENTATION_ITEM()MEASURE_WITH_UNIT(LENGTH_MEASURE(${LINE}.),#9191)REPRESENTATION_ITEM('target length'));`,
    "#9191=(CONVERSION_BASED_UNIT('INCH',#9192)LENGTH_UNIT()NAMED_UNIT(#9193));",
    '#9192=LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(25.4),#4366);',
    '#9193=DIMENSIONAL_EXPONENTS(1.,0.,0.,0.,0.,0.,0.);',
  );
  const edited = text
    .replace(
      relation,
      [
        "#196=SHAPE_ASPECT_RELATIONSHIP('',$,#9001,#38);",
        "#9001=PLACED_DATUM_TARGET_FEATURE('Datum Target.1','point',#4269,.T.,'1');",
        "#9002=PLACED_DATUM_TARGET_FEATURE('Datum Target.2','point',#4269,.T.,'2');",
        "#9003=SHAPE_ASPECT_RELATIONSHIP('',$,#9002,#38);",
      ].join('\n'),
    )
    .replace(relationA, placed.join('\n'));
  await engine.runJson('import_file', { bytes: Buffer.from(edited, 'latin1').toString('base64'), fileName: 'ctc1-targets.stp', bodyId: 'part' });
}, 120_000);

describe('datum targets', () => {
  it('read_pmi lists the targets of a datum without faces and says so in DATUM_WITHOUT_FACES', async () => {
    const pmi = (await engine.runJson('read_pmi', { bodyId: 'part' })).result as unknown as PmiResult;
    const b = pmi.datums.find((d) => d.label === 'B')!;
    expect(b.faces).toEqual([]);
    expect(b.targets).toEqual([{ id: 'B1', kind: 'point' }, { id: 'B2', kind: 'point' }]);
    expect(pmi.datums.find((d) => d.label === 'C')!.targets).toBeUndefined();
    // A: each target's location (mm) and placement axes as the file writes them; the line's length
    // in the unit its measure names, and the same number in the coordinates' unit.
    const a = pmi.datums.find((d) => d.label === 'A')!.targets!;
    const at = (i: number) => ({ id: `A${i + 1}`, origin: PLACES[i], normal: [0, 0, -1], direction: [1, 0, 0] });
    expect(a.slice(0, 2)).toEqual([0, 1].map((i) => ({ ...at(i), kind: 'point' })));
    const { length, ...line } = a[2]!;
    expect(line).toEqual({ ...at(2), kind: 'line', inCoordinateUnit: { length: LINE } });
    expect(length).toBeCloseTo(LINE * 25.4, 9);
    const w = pmi.warnings.find((x) => x.code === 'DATUM_WITHOUT_FACES')!;
    expect(w.message).toContain('A by 3 datum targets (A1, A2, A3: points, line), B by 2 datum targets (B1, B2: points)');
  });

  it('evaluate_gdt: A is simulated from its targets (two points, a line read in the right unit); B, whose targets the file does not place, is not, and says so', async () => {
    // The nominal itself as the scan.
    const r = (await engine.runJson('evaluate_gdt', { actualBodyId: 'part', nominalBodyId: 'part', maxSamples: 5000 })).result as unknown as { characteristics: Characteristic[]; datums: DatumReport[] };
    const onB = r.characteristics.filter((c) => c.datums.some((d) => d.split('-').includes('B')));
    expect(onB.length).toBeGreaterThan(0);
    const reason = 'datum B: target B1 (point) has no location in the file';
    for (const c of onB) {
      expect(c.pass, c.id).toBeNull();
      expect(c.reason, c.id).toContain(reason);
    }
    expect(r.datums.find((d) => d.label === 'B')!.reason).toContain(reason);
    // A: the plane through its contacts, the face's own plane (z = 0, outward +z); the line read
    // 40 mm long (as named, 1016 mm, it runs off the part).
    const a = r.datums.find((d) => d.label === 'A')!;
    expect(a.reason).toBeUndefined();
    expect(a.note).toMatch(/^target A3: its sizes read in the coordinates' unit \(length 40 mm\); in the unit the file names \(length 1020 mm\) it lies [0-9.]+ mm off the nominal's surface$/);
    const f = a.feature as { kind: string; normal: number[]; point: number[] };
    expect(f.kind).toBe('plane');
    f.normal.forEach((v, i) => expect(v).toBeCloseTo([0, 0, 1][i]!, 12));
    expect(f.point[2]).toBeCloseTo(0, 9);
    // The profile and perpendicularity to A alone are read (before: pass null); each as it reads to A's face.
    const onAOnly = r.characteristics.filter((c) => c.datums.length > 0 && c.datums.every((d) => d === 'A'));
    expect(onAOnly.map((c) => c.id)).toEqual(['tolerance[3]', 'tolerance[4]']);
    const byFace = (await engine.runJson('evaluate_gdt', { actualBodyId: 'part', nominalBodyId: 'part', maxSamples: 5000, datums: [{ label: 'A', faces: ['face[97]'] }], characteristics: ['tolerance[3]', 'tolerance[4]'] })).result as unknown as { characteristics: Characteristic[] };
    onAOnly.forEach((c, i) => {
      expect(c.pass, c.id).toBe(true);
      expect(c.actual!, c.id).toBeCloseTo(byFace.characteristics[i]!.actual!, 9);
    });
    expect(r.characteristics.find((c) => c.kind === 'flatness')!.pass).toBe(true);
  }, 120_000);
});
