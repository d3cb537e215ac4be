import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom, uvSphere } from '../src/engine/mesh/generators';
import { readBrepShape } from '../src/engine/scene/import/brep';
import { writeBinaryStl } from '../src/engine/scene/import/stl';
import { nodeKernel } from '../src/node/nodeEngine';
import { dataPath } from '../src/test/data';
import { writePly } from '../src/test/meshWriters';
import { cloudOfPart } from '../src/test/scanFixture';
import { round, type BenchCase, type Figures } from './harness';
import { hasTime, runProcess } from './timedProcess';

/**
 * Issue 22 at scale: measure_deviation of a 5-million-point binary PLY cloud (no normals) against
 * a real part's exact surface (CrankArm.brep) and against a 1M-triangle mesh, each as a whole
 * `brepscope tool` process: wall time, CPU time (GNU time: user + system, all threads) and peak
 * resident memory, with every point measured (maxSamples 5,000,000, which applies to the other
 * direction too: the reference's samples against the cloud) and at the default maxSamples (20,000
 * per direction, the cloud's points by area: cloudAreaSamples.ts). Printed only, not in bench/baseline.json. About 7
 * minutes on a loaded 2-core machine.
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const POINTS = 5_000_000;
const DEADLINE_S = 3600;

interface ProcessFigures {
  wallMs: number;
  cpuMs: number | null;
  peakRssMb: number | null;
  result: { fromToTo: { samples: number; noDataSamples: number; signedMean: number | null; ambiguousFraction: number }; toToFrom: { samples: number; noDataSamples: number } };
}

async function runCli(args: string[]): Promise<ProcessFigures> {
  const run = await runProcess(process.execPath, [join(ROOT, 'bin/brepscope.js'), ...args]);
  return {
    wallMs: round(run.wallMs, 0),
    cpuMs: hasTime ? round(run.cpuMs, 0) : null,
    peakRssMb: hasTime ? round(run.peakRssMb, 0) : null,
    result: JSON.parse(run.stdout) as ProcessFigures['result'],
  };
}

/** `count` points: copies of `base` (cycled), each copy after the first moved by seeded isotropic noise of sigma. */
function replicate(base: Float64Array, count: number, sigma: number, seed: number): Float64Array {
  const random = seededRandom(seed);
  const out = new Float64Array(3 * count);
  const n = base.length / 3;
  for (let i = 0; i < count; i++) {
    const j = i % n, jitter = i < n ? 0 : sigma;
    for (let k = 0; k < 3; k++) out[3 * i + k] = Math.fround(base[3 * j + k]! + jitter * (2 * random() - 1));
  }
  return out;
}

const figuresOf = (what: string, run: ProcessFigures): Figures => ({
  what,
  wallMs: run.wallMs,
  cpuMs: run.cpuMs,
  peakRssMb: run.peakRssMb,
  fromToToSamples: run.result.fromToTo.samples,
  fromToToNoData: run.result.fromToTo.noDataSamples,
  fromToToSignedMean: run.result.fromToTo.signedMean === null ? null : round(run.result.fromToTo.signedMean, 4),
  toToFromSamples: run.result.toToFrom.samples,
});

export const cloudScaleCases: BenchCase[] = [
  {
    name: 'cloud deviation at scale: 5M-point PLY cloud against CrankArm.brep (exact) and against a 1M-triangle mesh, whole process',
    async run() {
      const dir = await mkdtemp(join(tmpdir(), 'brepscope-bench-cloud-'));
      try {
        // A scan of the part: 200k points on its exact faces, +0.05 along the exact normal with
        // noise 0.01 (cloudOfPart), repeated with 0.01 of isotropic jitter up to 5M points.
        const oc = await nodeKernel();
        const partPath = dataPath('occt/CrankArm.brep');
        const shape = readBrepShape(oc, readFileSync(partPath), 'CrankArm');
        let partCloud: Float64Array;
        try {
          partCloud = replicate(cloudOfPart(oc, shape, { deflection: 0.05, count: 200_000, offset: 0.05, sigma: 0.01, seed: 3 }), POINTS, 0.01, 4);
        } finally {
          shape.delete();
        }
        const partCloudPath = join(dir, 'crank-5M.ply');
        await writeFile(partCloudPath, writePly({ positions: partCloud, indices: new Uint32Array(0) }, { encoding: 'binary_little_endian', faces: false }));
        // A sphere scan: 5M points uniformly on r = 50.1 with noise 0.01, against a 1,000,994-triangle sphere r = 50.
        const random = seededRandom(7);
        const sphereCloud = new Float64Array(3 * POINTS);
        for (let i = 0; i < POINTS; i++) {
          const z = 2 * random() - 1, phi = 2 * Math.PI * random(), r = 50.1 + 0.01 * (2 * random() - 1);
          const s = Math.sqrt(1 - z * z);
          sphereCloud[3 * i] = Math.fround(r * s * Math.cos(phi));
          sphereCloud[3 * i + 1] = Math.fround(r * s * Math.sin(phi));
          sphereCloud[3 * i + 2] = Math.fround(r * z);
        }
        const sphereCloudPath = join(dir, 'sphere-5M.ply');
        await writeFile(sphereCloudPath, writePly({ positions: sphereCloud, indices: new Uint32Array(0) }, { encoding: 'binary_little_endian', faces: false }));
        const meshPath = join(dir, 'sphere-r50-1M.stl');
        await writeFile(meshPath, writeBinaryStl(uvSphere(50, 1003, 500)));

        // The every-point runs take 3 to 8 minutes of wall time on a loaded 2-core machine, near the
        // CLI's default 10-minute deadline (TIMEOUT, exit 2): a bench measures, it is not stopped.
        const tool = (cloud: string, reference: string, maxSamples?: number) => [
          'tool',
          'measure_deviation',
          '--deadline',
          String(DEADLINE_S),
          '--body',
          `scan=${cloud}`,
          '--body',
          `ref=${reference}`,
          '--args',
          JSON.stringify({ fromBodyId: 'scan', toBodyId: 'ref', ...(maxSamples ? { maxSamples } : {}) }),
        ];
        const fileMb = (points: number) => round((points * 12) / 2 ** 20, 1);
        return {
          cloudPoints: POINTS,
          cloudFileMb: fileMb(POINTS),
          partExact: {
            everyPoint: figuresOf(
              'maxSamples 5,000,000 in both directions: every cloud point against CrankArm.brep exact faces, and up to 5M samples of the exact faces against the cloud',
              await runCli(tool(partCloudPath, partPath, POINTS)),
            ),
            defaultSamples: figuresOf('the same at the default maxSamples (20,000 of the points)', await runCli(tool(partCloudPath, partPath))),
          },
          mesh1M: {
            everyPoint: figuresOf(
              'maxSamples 5,000,000 in both directions: every cloud point against a 1,000,994-triangle sphere STL, and up to 5M samples of the mesh against the cloud',
              await runCli(tool(sphereCloudPath, meshPath, POINTS)),
            ),
            defaultSamples: figuresOf('the same at the default maxSamples', await runCli(tool(sphereCloudPath, meshPath))),
          },
        };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  },
];
