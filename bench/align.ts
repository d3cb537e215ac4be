import { readFileSync } from 'node:fs';
import { writeBinaryStl } from '../src/engine/scene/import/stl';
import { readBrepShape } from '../src/engine/scene/import/brep';
import { createNodeEngine, nodeKernel } from '../src/node/nodeEngine';
import { movedMesh, randomMotion } from '../src/test/alignFixture';
import { dataPath } from '../src/test/data';
import { scanOfPart } from '../src/test/scanFixture';
import { peakRssMb, round, time, type BenchCase } from './harness';

const CRANK = dataPath('occt/CrankArm.brep');

export const alignCases: BenchCase[] = [
  {
    name: 'align_bodies: a ~200k-triangle noisy scan of CrankArm moved 123 degrees, bestFit against the exact part',
    async run() {
      const oc = await nodeKernel();
      const crank = readBrepShape(oc, readFileSync(CRANK), 'CrankArm');
      // diagonal 175 mm; noise 0.0005 x diagonal; a fine tessellation for the scan's triangles.
      const scan = movedMesh(scanOfPart(oc, crank, { deflection: 0.002, angularDeflection: 0.025, offset: 0, sigma: 0.0875, seed: 7 }), randomMotion(1, 180, 175));
      crank.delete();
      const engine = createNodeEngine();
      await engine.run('import_file', { path: CRANK, bodyId: 'part' });
      await engine.run('import_file', { bytes: Buffer.from(writeBinaryStl(scan)).toString('base64'), fileName: 'scan.stl', bodyId: 'scan' });
      const args = { movingBodyId: 'scan', fixedBodyId: 'part' };
      const t0 = performance.now();
      await engine.run('align_bodies', args);
      const firstCallMs = round(performance.now() - t0);
      const warm = await time(() => engine.run('align_bodies', args), { warmup: 0, runs: 3 });
      const pre = await time(() => engine.run('align_bodies', { ...args, mode: 'preAlign' }), { warmup: 0, runs: 3 });
      const r = warm.last.result;
      return {
        triangles: scan.indices.length / 3,
        firstCallMs,
        warmMedianMs: warm.medianMs,
        preAlignMedianMs: pre.medianMs,
        rmsAfter: round(r.rmsAfter, 5),
        iterations: r.iterations,
        converged: r.converged,
        peakRssMb: peakRssMb(),
      };
    },
  },
];
