import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cylinder } from '../src/engine/mesh/generators';
import { writeBinaryStl } from '../src/engine/scene/import/stl';
import { createNodeEngine, nodeKernel } from '../src/node/nodeEngine';
import { brepBytes, makeCylinder } from '../src/test/kernelShapes';
import { peakRssMb, round, time, type BenchCase, type Figures } from './harness';
import { dataPath } from '../src/test/data';

const CRANK = dataPath('occt/CrankArm.brep');

/** A capped cylinder skin r = 50, h = 200: 2 x 1000 x 500 + 2 x 1000 = 1,002,000 triangles. */
const scanMesh = () => cylinder({ radius: 50, height: 200, segments: 1000, stacks: 500, caps: true });

export const crossSectionCases: BenchCase[] = [
  {
    name: 'cross_section_compare: 12 stations, 1M-triangle STL against a BREP cylinder',
    async run() {
      const oc = await nodeKernel();
      const engine = createNodeEngine();
      const mesh = scanMesh();
      const triangles = mesh.indices.length / 3;
      let t0 = performance.now();
      await engine.run('import_file', { bytes: Buffer.from(writeBinaryStl(mesh)).toString('base64'), fileName: 'scan.stl', bodyId: 'scan' });
      const loadMs = round(performance.now() - t0);
      await engine.run('import_file', { bytes: Buffer.from(brepBytes(oc, makeCylinder(oc, 50.2, 200))).toString('base64'), fileName: 'cad.brep', bodyId: 'cad' });
      const args = { fromBodyId: 'cad', referenceBodyId: 'scan', axis: [0, 0, 1] as [number, number, number], stations: 12 };
      // The first call also tessellates the BREP body for its extent (cached per deflection afterwards).
      t0 = performance.now();
      const first = (await engine.run('cross_section_compare', args)).result;
      const firstCallMs = round(performance.now() - t0);
      const warm = await time(() => engine.run('cross_section_compare', args), { warmup: 0, runs: 5 });
      const meshCandidate = await time(() => engine.run('cross_section_compare', { ...args, fromBodyId: 'scan', referenceBodyId: 'cad' }), { warmup: 1, runs: 5 });
      const profileMode = await time(() => engine.run('cross_section_compare', { ...args, outerEnvelope: false }), { warmup: 1, runs: 5 });
      const dir = await mkdtemp(join(tmpdir(), 'brepscope-bench-sections-'));
      let withImages;
      try {
        withImages = await time(() => engine.run('cross_section_compare', { ...args, outputDir: dir, overwrite: true }), { warmup: 0, runs: 3 });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      const s = first.sections[0]!;
      return {
        triangles,
        loadMs,
        firstCallMs,
        brepCandidateMedianMs: warm.medianMs,
        meshCandidateMedianMs: meshCandidate.medianMs,
        profileModeMedianMs: profileMode.medianMs,
        withTwelvePngsMedianMs: withImages.medianMs,
        targetMs: 1000,
        check: { signedMean: round(s.signedMean!, 5), areaRatio: round(s.areaRatio!, 5), expectedAreaRatio: round((50.2 / 50) ** 2, 5) },
        rssMb: peakRssMb(),
      };
    },
  },
  {
    name: 'cross_section_compare: 12 stations, CrankArm.brep against itself (kernel sections on a real part)',
    async run() {
      const engine = createNodeEngine();
      await engine.run('import_file', { path: CRANK, bodyId: 'a' });
      await engine.run('import_file', { path: CRANK, bodyId: 'b' });
      const out: Figures = {};
      for (const [name, axis] of [['x', [1, 0, 0]], ['z', [0, 0, 1]]] as const) {
        const args = { fromBodyId: 'a', referenceBodyId: 'b', axis: [...axis] as [number, number, number], stations: 12 };
        const t = await time(() => engine.run('cross_section_compare', args), { warmup: 1, runs: 1 });
        const r = t.last.result;
        out[name] = { medianMs: t.medianMs, maxAbsSignedSection: r.maxAbsSignedSection, warnings: r.warnings.length };
      }
      return out;
    },
  },
];
