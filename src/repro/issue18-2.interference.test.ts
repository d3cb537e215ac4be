import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine/Engine';
import { graphValidate } from '../engine/graph/graphValidate';
import { withKernel, type OC } from '../engine/kernel';
import { addShapeBody } from '../engine/scene/addShapeBody';
import type { SolidContact } from '../engine/scene/solidInterference';
import type { BodyValidation } from '../engine/tools/validateGeometry';
import { nodeKernel } from '../node/nodeEngine';
import { testEngine } from '../test/testEngine';
import { dataPath } from '../test/data';
import { BRACKET, makeBowTiePrism, makeBracketWithBolts, makeOverlappingBoxes, makeTouchingBoxes } from '../test/interferenceShapes';
import { compoundOf, makeBox } from '../test/kernelShapes';

/**
 * Issue 18, finding 2. validate_geometry (default settings) marked a bracket-with-bolts assembly
 * invalid with 61 "self-intersection" entities, while BRepCheck found it valid: BRepAlgoAPI_Check ran
 * on the whole compound, so bolts touching or pressed into the bracket read as the shape crossing
 * itself. Now each solid is checked alone (an error when it crosses itself) and contact between
 * different solids is `interference`, a warning, with each pair and whether it touches or overlaps.
 * graph-validate follows the same policy.
 */

let oc: OC;
let engine: Engine;
const shapes = new Map<string, TopoDS_Shape>();

// A budget no check here comes near (the default, 20 s, can run out on a loaded machine: the answer would then be 'not completed').
const validate = (bodyId: string) => engine.run('validate_geometry', { bodyId, selfIntersectionBudgetSeconds: 600 }).then((r) => r.result) as Promise<BodyValidation>;
const brepCheckValid = (shape: TopoDS_Shape) => withKernel(oc, (own) => own(new oc.BRepCheck_Analyzer(shape, true, false)).IsValid_2());

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  for (const [id, make] of [
    ['touching', makeTouchingBoxes],
    ['overlapping', makeOverlappingBoxes],
    ['bowTie', makeBowTiePrism],
    ['bracket', makeBracketWithBolts],
  ] as const) {
    const shape = make(oc);
    shapes.set(id, shape);
    addShapeBody(oc, engine.scene, id, shape);
  }
});

afterAll(() => {
  for (const s of shapes.values()) s.delete();
});

describe('interference between solids is not self-intersection (issue 18.2)', () => {
  it('two boxes sharing a face: valid, one interference warning, the pair touches', async () => {
    expect(brepCheckValid(shapes.get('touching')!)).toBe(true);
    const v = await validate('touching');
    expect(v.valid).toBe(true);
    expect(v.issues).toHaveLength(1);
    expect(v.issues[0]).toMatchObject({ kind: 'interference', severity: 'warning', entities: ['solid[0]', 'solid[1]'], count: 2 });
    expect(v.issues[0]!.pairs).toEqual<SolidContact[]>([{ solids: ['solid[0]', 'solid[1]'], contact: 'touch', overlapVolume: 0 }]);
  });

  it('two overlapping boxes: valid, the pair overlaps by the 5-cube they share (125)', async () => {
    const v = await validate('overlapping');
    expect(v.valid).toBe(true);
    expect(v.issues.map((i) => i.kind)).toEqual(['interference']);
    const [pair] = v.issues[0]!.pairs!;
    expect(pair).toMatchObject({ solids: ['solid[0]', 'solid[1]'], contact: 'overlap' });
    expect(Math.abs(pair!.overlapVolume! - 125) / 125).toBeLessThan(1e-9);
  });

  it('one solid whose side faces cross (a bow-tie prism): self-intersection stays an error, no interference', async () => {
    const v = await validate('bowTie');
    expect(v.valid).toBe(false);
    const self = v.issues.find((i) => i.kind === 'selfIntersection')!;
    expect(self).toMatchObject({ severity: 'error', source: 'BOPAlgo_SelfIntersect' });
    expect(self.entities.filter((id) => id.startsWith('face['))).toHaveLength(2);
    expect(v.issues.some((i) => i.kind === 'interference')).toBe(false);
  });

  it('bracket with bolts: BRepCheck-valid and valid here; the slip-fit bolt touches, the press-fit bolt overlaps by pi (4.02^2 - 4^2) 10', async () => {
    expect(brepCheckValid(shapes.get('bracket')!)).toBe(true);
    const v = await validate('bracket');
    expect(v.valid).toBe(true);
    expect(v.issues.map((i) => i.kind)).toEqual(['interference']);
    const pairs = v.issues[0]!.pairs!;
    expect(pairs.map((p) => [p.solids, p.contact])).toEqual([
      [['solid[0]', 'solid[1]'], 'touch'],
      [['solid[0]', 'solid[2]'], 'overlap'],
    ]);
    expect(pairs[0]!.overlapVolume).toBe(0);
    expect(Math.abs(pairs[1]!.overlapVolume! - BRACKET.pressFitOverlap) / BRACKET.pressFitOverlap).toBeLessThan(1e-7);
  });

  it('separate solids are not reported, and a repeated part in the same relative placement gets the same answer', async () => {
    // Three identical pairs of touching cubes far apart, and a loose cube: 3 touching pairs, nothing else.
    const parts: TopoDS_Shape[] = [];
    for (const x of [0, 100, 200]) parts.push(makeBox(oc, 10, 10, 10, [x, 0, 0]), makeBox(oc, 10, 10, 10, [x, 10, 0]));
    parts.push(makeBox(oc, 10, 10, 10, [50, 50, 50]));
    addShapeBody(oc, engine.scene, 'rows', compoundOf(oc, parts));
    for (const p of parts) p.delete();
    const v = await validate('rows');
    expect(v.valid).toBe(true);
    expect(v.issues[0]!.pairs!.map((p) => `${p.solids.join('-')} ${p.contact}`)).toEqual(['solid[0]-solid[1] touch', 'solid[2]-solid[3] touch', 'solid[4]-solid[5] touch']);
  });

  it('graph-validate: the same policy (selfIntersecting only within a solid; interference among the warnings)', () => {
    for (const id of ['touching', 'overlapping', 'bracket']) {
      const g = graphValidate(oc, shapes.get(id)!, { selfIntersection: 'on' });
      expect(g.isValid).toBe(true);
      expect(g.healthRecord.selfIntersecting).toBe(false);
      expect(g.errorCount).toBe(0);
      expect(g.warnings.map((w) => w.kind)).toEqual(['interference']);
    }
    const bracket = graphValidate(oc, shapes.get('bracket')!, { selfIntersection: 'on' });
    expect(bracket.warnings[0]!.pairs!.map((p) => p.contact)).toEqual(['touch', 'overlap']);
    const bowTie = graphValidate(oc, shapes.get('bowTie')!, { selfIntersection: 'on' });
    expect(bowTie.isValid).toBe(false);
    expect(bowTie.healthRecord.selfIntersecting).toBe(true);
    expect(bowTie.warnings.some((w) => w.kind === 'interference')).toBe(false);
  });

  it('the AS1 assembly (CAx-IF): valid, no self-intersection; its 18 solids touch in 32 pairs and overlap nowhere', async () => {
    await engine.run('import_file', { path: dataPath('cax-if/as1_pe_203.stp'), bodyId: 'as1' });
    const v = await validate('as1');
    expect(v.valid).toBe(true);
    expect(v.issues.map((i) => i.kind)).toEqual(['interference']);
    const pairs = v.issues[0]!.pairs!;
    expect(pairs).toHaveLength(32);
    expect(pairs.every((p) => p.contact === 'touch' && p.overlapVolume === 0)).toBe(true);
    // Independently: native OCCT 7.6.3 (STEPControl_Reader, TopExp::MapShapes of the solids,
    // BRepExtrema_DistShapeShape <= 1e-6 for every pair of the 18) finds exactly these 32 pairs. (The
    // WASM build's BRepExtrema reports 10 more at 5e-8 whose boxes are 800 apart: not usable here.)
    const native =
      '0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 0-10 0-11 0-12 0-13 0-14 1-2 1-4 1-6 1-15 1-17 2-3 4-5 6-7 8-9 8-11 8-13 8-15 8-16 9-10 11-12 13-14 15-16 15-17';
    expect(pairs.map((p) => p.solids.map((id) => id.slice(6, -1)).join('-')).join(' ')).toBe(native);
  });
});
