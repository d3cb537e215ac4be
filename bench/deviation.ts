import { uvSphere } from '../src/engine/mesh/generators';
import { sampleSurface } from '../src/engine/mesh/sampleSurface';
import { prepareDeviationReference } from '../src/engine/mesh/signedDeviation';
import type { TriMesh } from '../src/engine/mesh/TriMesh';
import { buildFastWinding } from '../src/engine/mesh/windingNumber';
import { writeBinaryStl } from '../src/engine/scene/import/stl';
import { createNodeEngine } from '../src/node/nodeEngine';
import { maxRssMb, median, peakRssMb, round, roundOrNull, time, type BenchCase } from './harness';

/**
 * The deviation tools at scan scale: a 1,000,994-triangle sphere STL (r = 50) as the reference and
 * a 199,808-triangle candidate (r = 50 with a +-0.3 ripple), both loaded through import_file from
 * binary STL bytes. Closest-point throughput on such a BVH is the "mesh: BVH build, closest point,
 * fast winding number" case of bench/meshQueries.ts (not repeated here).
 */
function rippledSphere(): TriMesh {
  const m = uvSphere(50, 448, 224);
  const p = m.positions;
  for (let v = 0; v < p.length; v += 3) {
    const x = p[v]!, y = p[v + 1]!, z = p[v + 2]!;
    const r = Math.hypot(x, y, z);
    const theta = Math.acos(z / r), phi = Math.atan2(y, x);
    const s = (50 + 0.3 * Math.sin(5 * phi) * Math.sin(3 * theta)) / r;
    p[v] = x * s;
    p[v + 1] = y * s;
    p[v + 2] = z * s;
  }
  return m;
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

export const deviationCases: BenchCase[] = [
  {
    name: 'deviation: measure_deviation, symmetric_difference_volume (1M-triangle STL reference, 200k candidate)',
    async run() {
      const engine = createNodeEngine();
      const scan = uvSphere(50, 1003, 500);
      const cand = rippledSphere();
      const refBytes = writeBinaryStl(scan);
      const candBytes = writeBinaryStl(cand);
      let t0 = performance.now();
      await engine.run('import_file', { bytes: b64(refBytes), fileName: 'scan.stl', bodyId: 'scan' });
      await engine.run('import_file', { bytes: b64(candBytes), fileName: 'cand.stl', bodyId: 'cand' });
      const loadMs = round(performance.now() - t0);

      // measure_deviation at defaults, cold: the query structures are built inside the call.
      const args = { fromBodyId: 'cand', toBodyId: 'scan' };
      t0 = performance.now();
      const cold = (await engine.run('measure_deviation', args)).result;
      const coldMs = round(performance.now() - t0);
      const rssAfterDeviation = peakRssMb();
      const maxRssAfterDeviation = maxRssMb();
      // The same call with everything built: the distance work alone. Deviations are kept with the
      // bodies once computed, so each timed run measures fresh copies of the pair.
      let copies = 0;
      const freshPair = async (otherMode: 'robust' | 'nearest') => {
        const id = ++copies;
        await engine.run('import_file', { bytes: b64(refBytes), fileName: 'scan.stl', bodyId: `scan${id}` });
        await engine.run('import_file', { bytes: b64(candBytes), fileName: 'cand.stl', bodyId: `cand${id}` });
        // Structures and samples built by a run in the other sign mode, whose deviations are kept apart.
        await engine.run('measure_deviation', { fromBodyId: `cand${id}`, toBodyId: `scan${id}`, signMode: otherMode });
        return id;
      };
      const distanceWork = async (signMode: 'robust' | 'nearest') => {
        const samples: number[] = [];
        for (let i = 0; i < 3; i++) {
          const id = await freshPair(signMode === 'robust' ? 'nearest' : 'robust');
          const t = await time(() => engine.run('measure_deviation', { fromBodyId: `cand${id}`, toBodyId: `scan${id}`, signMode }), { warmup: 0, runs: 1 });
          samples.push(t.medianMs);
          await engine.run('remove_body', { bodyId: `cand${id}` });
          await engine.run('remove_body', { bodyId: `scan${id}` });
        }
        return { medianMs: median(samples) };
      };
      const warm = await distanceWork('robust');
      const warmNearest = await distanceWork('nearest');
      // Build costs on their own, on the mesh layer's builders (the ones the body caches hold).
      const refBuild = await time(() => prepareDeviationReference(scan), { warmup: 0, runs: 1 });
      const candBuild = await time(() => prepareDeviationReference(cand), { warmup: 0, runs: 1 });
      const sampling = await time(() => [sampleSurface(cand, 20000, candBuild.last.pseudoNormals), sampleSurface(scan, 20000, refBuild.last.pseudoNormals)], { warmup: 0, runs: 1 });

      // symmetric_difference_volume: cold includes the fast-winding builds (BVHs exist already).
      const sdv = (maxSamples: number) => engine.run('symmetric_difference_volume', { fromBodyId: 'cand', referenceBodyId: 'scan', maxSamples });
      const windingBuild = await time(() => [buildFastWinding(refBuild.last.bvh), buildFastWinding(candBuild.last.bvh)], { warmup: 0, runs: 1 });
      t0 = performance.now();
      const sdvCold = (await sdv(100000)).result;
      const sdvColdMs = round(performance.now() - t0);
      const sdv100k = await time(() => sdv(100000), { warmup: 0, runs: 3 });
      const sdv300 = await time(() => sdv(300), { warmup: 1, runs: 5 });

      return {
        referenceTriangles: scan.indices.length / 3,
        candidateTriangles: cand.indices.length / 3,
        loadMs,
        measureDeviation: {
          samplesPerDirection: [cold.fromToTo.samples, cold.toToFrom.samples],
          fromToToSignedMean: roundOrNull(cold.fromToTo.signedMean, 5),
          fromToToMax: round(cold.fromToTo.max, 5),
          toToFromAmbiguous: cold.toToFrom.ambiguousSamples,
          coldCallMs: coldMs,
          referenceBuildMs: refBuild.medianMs,
          candidateBuildMs: candBuild.medianMs,
          samplingMs: sampling.medianMs,
          distanceWorkMsRobust: warm.medianMs,
          distanceWorkMsNearest: warmNearest.medianMs,
          rssMbAfterFirstCall: rssAfterDeviation,
          peakRssMbAfterFirstCall: maxRssAfterDeviation,
        },
        closestPointThroughput: "see bench/meshQueries.ts, case 'mesh: BVH build, closest point, fast winding number (1M-triangle sphere)'",
        symmetricDifferenceVolume: {
          fastWindingBuildMs: windingBuild.medianMs,
          cold100kMs: sdvColdMs,
          warm100kMs: sdv100k.medianMs,
          warm300Ms: sdv300.medianMs,
          symmetricDifferenceMm3: roundOrNull(sdvCold.symmetricDifferenceVolumeMm3, 2),
          stdErrMm3: roundOrNull(sdvCold.estimatedStdErrMm3, 2),
          ambiguousFraction: sdvCold.ambiguousFraction,
          reliable: sdvCold.reliable,
        },
        peakRssMb: maxRssMb(),
      };
    },
  },
];
