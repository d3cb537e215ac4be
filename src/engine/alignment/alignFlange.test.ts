import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { applyToPoints, axisAngle, compose, fromMatrix4, IDENTITY, rotationDistance, type Rigid } from '../math/rigid';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addMeshBody } from '../../test/deviationFixtures';
import { movedMesh, randomMotion } from '../../test/alignFixture';
import { makeFlange } from '../../test/flangeParts';
import { writePointText } from '../../test/meshWriters';
import { cloudOfPart, scanOfPart } from '../../test/scanFixture';
import type { AlignResult } from './alignBodies';

/**
 * Issue 28, items 1 and 2 on a flange (a disc with a hub, a bore and a six-hole bolt circle), with
 * and without a keyway, scanned as a mesh and as a cloud, in place and moved by 20 seeded motions.
 */
let oc: OC;
let engine: Engine;
const shapes: Record<string, TopoDS_Shape> = {};
const SIGMA = 0.02;
const MOTIONS = 20;
const align = (args: object) => engine.runJson('align_bodies', { sampleCount: 3000, ...args }).then((r) => r.result as unknown as AlignResult);
const loadCloud = (bodyId: string, points: Float64Array) =>
  engine.runJson('import_file', { bytes: Buffer.from(writePointText(points)).toString('base64'), fileName: `${bodyId}.xyz`, bodyId });

/** The pose error left: found after moved should be the identity, or a symmetry of the part (a turn about z). */
function residual(found: AlignResult, moved: Rigid): Rigid {
  return compose(fromMatrix4(found.transform) as Rigid, moved);
}
const degrees = (m: Rigid) => (rotationDistance(m.r, IDENTITY.r) * 180) / Math.PI;
/** The turn about z by a multiple of 60 degrees nearest to `m`, and how far `m` is from it (degrees; translation at the rim). */
function nearestSymmetry(m: Rigid): { k: number; degrees: number; shift: number } {
  let best = { k: 0, degrees: Infinity, shift: Infinity };
  for (let k = 0; k < 6; k++) {
    const s = axisAngle([0, 0, 1], (k * Math.PI) / 3);
    const d = (rotationDistance(m.r, s) * 180) / Math.PI;
    if (d < best.degrees) best = { k, degrees: d, shift: Math.hypot(m.t[0]!, m.t[1]!, m.t[2]!) };
  }
  return best;
}

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  for (const keyway of [true, false]) {
    const id = keyway ? 'keyed' : 'plain';
    shapes[id] = makeFlange(oc, keyway);
    addShapeBody(oc, engine.scene, id, shapes[id]);
  }
});

for (const part of ['keyed', 'plain'] as const) {
  for (const kind of ['mesh', 'cloud'] as const) {
    describe(`align_bodies on a flange ${part === 'keyed' ? 'with a keyway' : 'without a keyway (six-fold symmetric)'}, scanned as a ${kind}`, () => {
      let scan: Float64Array | ReturnType<typeof scanOfPart>;
      const load = async (id: string, motion: Rigid) => {
        if (kind === 'mesh') addMeshBody(engine.scene, id, movedMesh(scan as ReturnType<typeof scanOfPart>, motion));
        else await loadCloud(id, applyToPoints(motion, scan as Float64Array));
      };
      beforeAll(() => {
        scan =
          kind === 'mesh'
            ? scanOfPart(oc, shapes[part]!, { deflection: 0.3, offset: 0, sigma: SIGMA, seed: 3 })
            : cloudOfPart(oc, shapes[part]!, { deflection: 0.3, count: 12000, offset: 0, sigma: SIGMA, seed: 4 });
      });

      it('in place: never moved (outcome alreadyAligned, identity, not applied even with apply: true)', async () => {
        await load(`${part}-${kind}-in-place`, IDENTITY);
        const r = await align({ movingBodyId: `${part}-${kind}-in-place`, fixedBodyId: part, apply: true });
        console.log(`${part} ${kind} in place: ${r.outcome}; rms ${r.rmsBefore.toFixed(4)} (rejected ${r.rejected?.rmsAfter.toFixed(4)}, ${r.rejected?.rotationAngleDegrees.toExponential(2)} deg); ambiguous ${r.ambiguous} (${r.equivalentPoses.length})`);
        expect(r.outcome).toBe('alreadyAligned');
        expect(r.applied).toBe(false);
        expect(r.placement).toBeNull();
        expect(r.transform).toEqual([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
        expect(r.rmsAfter).toBe(r.rmsBefore);
        expect(r.warnings.map((w) => w.code)).toContain('ALREADY_ALIGNED');
        // What was found and not proposed is the start within the noise.
        expect(r.rejected!.rotationAngleDegrees).toBeLessThan(0.01);
        expect(r.ambiguous).toBe(part === 'plain');
      });

      for (let seed = 1; seed <= MOTIONS; seed++) {
        it(`seeded motion ${seed} of ${MOTIONS}: ${part === 'keyed' ? 'the true pose within 0.02 degrees' : 'an equivalent pose (a turn by 60 k degrees), reported ambiguous, with the six poses listed'}`, async () => {
          const truth = randomMotion(100 + seed, 180, 60);
          const id = `${part}-${kind}-${seed}`;
          await load(id, truth);
          const r = await align({ movingBodyId: id, fixedBodyId: part });
          engine.scene.remove(id);
          const left = residual(r, truth);
          expect(r.outcome).toBe('aligned');
          if (part === 'keyed') {
            console.log(`${part} ${kind} seed ${seed}: rotation error ${degrees(left).toExponential(2)} deg, ${Math.hypot(...left.t).toExponential(2)} mm`);
            expect(degrees(left)).toBeLessThan(0.02);
            expect(Math.hypot(...left.t)).toBeLessThan(0.02);
            expect(r.ambiguous).toBe(false);
            expect(r.equivalentPoses).toEqual([]);
          } else {
            const s = nearestSymmetry(left);
            console.log(`${part} ${kind} seed ${seed}: turn ${s.k * 60} deg, off it ${s.degrees.toExponential(2)} deg, ${s.shift.toExponential(2)} mm`);
            expect(s.degrees).toBeLessThan(0.02);
            expect(s.shift).toBeLessThan(0.02);
            expect(r.ambiguous).toBe(true);
            expect(r.equivalentPoses).toHaveLength(6);
            // Each listed pose is one of the six (to the polish's accuracy), all different, nearest the start first, the chosen one first.
            const ks = r.equivalentPoses.map((p) => nearestSymmetry(compose(fromMatrix4(p.transform) as Rigid, truth)));
            for (const k of ks) expect(k.degrees).toBeLessThan(0.1);
            expect(new Set(ks.map((k) => k.k)).size).toBe(6);
            const angles = r.equivalentPoses.map((p) => p.rotationAngleDegrees);
            expect(angles).toEqual([...angles].sort((a, b) => a - b));
            expect(ks[0]!.k).toBe(s.k);
          }
        });
      }
    });
  }
}
