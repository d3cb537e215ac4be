import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine';
import { withKernel, type OC } from '../engine/kernel';
import { addShapeBody } from '../engine/scene/addShapeBody';
import { SELF_CHECK_WHOLE_FACES } from '../engine/scene/shapeIssues';
import type { BodyValidation } from '../engine/tools/validateGeometry';
import { createNodeEngine, nodeKernel } from '../node/nodeEngine';
import { dataPath } from '../test/data';
import { figureEightPrism, makeBox } from '../test/kernelShapes';

/**
 * Issue 34, finding 3. validate_geometry at its defaults ran over 180 s on OCCT's shell1.brep (99
 * faces) and CAx-IF dm1-id-214.stp with no progress and no end in sight, and reported 12 valid files
 * invalid, a B-spline sphere among them: BRepAlgoAPI_Check's argument analyzer finds a lone face
 * crossing itself at tolerances it widens itself, looser than BRepCheck's. Now the check has a budget
 * (selfIntersectionBudgetSeconds), stops between kernel calls with the check reported as not
 * completed, checks big parts a group of faces at a time (boxes first), keeps a completed answer per
 * body, and a lone face's finding on a shape BRepCheck accepts is a warning.
 */

let oc: OC;
let engine: Engine;
const validate = async (bodyId: string, args: Record<string, unknown> = {}): Promise<BodyValidation> => (await engine.run('validate_geometry', { bodyId, ...args })).result as BodyValidation;
const brepCheckValid = (shape: TopoDS_Shape): boolean => withKernel(oc, (own) => own(new oc.BRepCheck_Analyzer(shape, true, false)).IsValid_2());

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
});

describe('self-intersection: never a false invalid, a budget, groups of faces, a cache (issue 34.3)', () => {
  it('an analytic sphere and its B-spline conversion are BRepCheck-valid solids: valid here, no selfIntersection error', async () => {
    const sphere = withKernel(oc, (own) => own(new oc.BRepPrimAPI_MakeSphere_1(10)).Shape());
    const nurbs = withKernel(oc, (own) => own(new oc.BRepBuilderAPI_NurbsConvert_2(sphere, false)).Shape());
    for (const [id, shape] of [['sphere', sphere], ['nurbsSphere', nurbs]] as const) {
      expect(brepCheckValid(shape), id).toBe(true);
      addShapeBody(oc, engine.scene, id, shape);
      const v = await validate(id);
      expect(v.valid, id).toBe(true);
      expect(v.selfIntersection, id).toMatchObject({ completed: true });
      expect(v.issues.filter((i) => i.severity === 'error'), id).toEqual([]);
      // What the analyzer finds on the B-spline sphere (if anything) is one face alone: a warning.
      for (const i of v.issues) expect([i.kind, i.severity, i.entities], id).toEqual(['selfIntersectionUnconfirmed', 'warning', ['face[0]']]);
    }
  });

  it(`a crossing in a part of more than ${SELF_CHECK_WHOLE_FACES} faces (checked a group of faces at a time) is still an error naming the faces`, async () => {
    const prism = figureEightPrism(oc, 40);
    const faces = 42;
    expect(faces).toBeGreaterThan(SELF_CHECK_WHOLE_FACES);
    addShapeBody(oc, engine.scene, 'eight', prism);
    const v = await validate('eight', { selfIntersectionBudgetSeconds: 600 });
    expect(v.selfIntersection).toMatchObject({ completed: true, cached: false });
    // Groups of up to 6 faces over the pairs whose boxes meet: far fewer calls than pairs of faces.
    expect(v.selfIntersection!.checks).toBeGreaterThan(1);
    expect(v.selfIntersection!.checks).toBeLessThan((faces * (faces - 1)) / 2 / 4);
    expect(v.valid).toBe(false);
    const self = v.issues.find((i) => i.kind === 'selfIntersection')!;
    expect(self.severity).toBe('error');
    // The crossing at the origin is between the side faces of the two polygon edges through it (t near 0 and near pi).
    expect(self.entities.filter((id) => id.startsWith('face[')).length).toBeGreaterThanOrEqual(2);
  });

  it('shell1.brep (99 faces) with a 1 s budget ends, not completed: checks done fewer than planned, a warning says so, valid stays what BRepCheck says', async () => {
    await engine.run('import_file', { path: dataPath('occt/shell1.brep'), bodyId: 'shell1' });
    const v = await validate('shell1', { selfIntersectionBudgetSeconds: 1 });
    expect(v.valid).toBe(true);
    expect(v.selfIntersection!.completed).toBe(false);
    expect(v.selfIntersection!.checksDone).toBeLessThan(v.selfIntersection!.checks);
    expect(v.issues.map((i) => i.kind).sort()).toEqual(['freeEdge', 'openShell', 'selfIntersectionNotCompleted']);
    // A budget of 0 starts nothing.
    const none = await validate('shell1', { selfIntersectionBudgetSeconds: 0 });
    expect(none.selfIntersection).toMatchObject({ completed: false, checksDone: 0 });
    expect(none.selfIntersection!.checks).toBeGreaterThan(0);
  });

  it('a completed check is kept per body: asked again (even with no budget) it answers from the cache with the same issues', async () => {
    addShapeBody(oc, engine.scene, 'box', makeBox(oc, 10, 20, 30));
    const first = await validate('box');
    expect(first).toMatchObject({ valid: true, issues: [], selfIntersection: { completed: true, cached: false, checks: 1, checksDone: 1 } });
    const again = await validate('box', { selfIntersectionBudgetSeconds: 0 });
    expect(again).toMatchObject({ valid: true, issues: [], selfIntersection: { completed: true, cached: true } });
    const eight = await validate('eight', { selfIntersectionBudgetSeconds: 0 });
    expect(eight.selfIntersection).toMatchObject({ completed: true, cached: true });
    expect(eight.issues.map((i) => i.kind)).toContain('selfIntersection');
  });
});
