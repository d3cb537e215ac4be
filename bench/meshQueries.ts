import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { peakRssMb, round, time, type BenchCase, type Figures } from './harness';
import { buildBvh } from '../src/engine/mesh/TriangleBvh';
import { closestCompatiblePoint, closestPoint, createHit } from '../src/engine/mesh/closestPoint';
import { seededRandom, uvSphere } from '../src/engine/mesh/generators';
import { createSignedDeviation, prepareDeviationReference, signedDeviation, type SignMode } from '../src/engine/mesh/signedDeviation';
import { buildFastWinding, DEFAULT_BETA, windingNumber } from '../src/engine/mesh/windingNumber';

const RADIUS = 50;
/** 2 x 1003 x 499 = 1,000,994 triangles. */
const mesh = () => uvSphere(RADIUS, 1003, 500);

/** Points within 2% of the radius of the sphere, with the outward radial direction as their normal. */
function nearSurface(n: number, seed: number): { points: Float64Array; normals: Float64Array } {
  const rnd = seededRandom(seed);
  const points = new Float64Array(3 * n);
  const normals = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const u = 2 * rnd() - 1, phi = 2 * Math.PI * rnd(), rho = RADIUS * (1 + 0.02 * (2 * rnd() - 1));
    const s = Math.sqrt(1 - u * u);
    normals[3 * i] = s * Math.cos(phi);
    normals[3 * i + 1] = s * Math.sin(phi);
    normals[3 * i + 2] = u;
    for (let k = 0; k < 3; k++) points[3 * i + k] = rho * normals[3 * i + k]!;
  }
  return { points, normals };
}

/**
 * The same kind of points in the order a deviation run meets them: along a candidate surface's
 * tessellation (rings of a coarser sphere), each 1% off the surface. Consecutive queries are near
 * each other, as consecutive samples of a mesh are.
 */
function alongSurface(n: number): Float64Array {
  const rings = Math.round(Math.sqrt(n / 2));
  const perRing = Math.ceil(n / rings);
  const p = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const ring = Math.floor(i / perRing), k = i % perRing;
    const theta = (Math.PI * (ring + 0.5)) / rings, phi = (2 * Math.PI * k) / perRing;
    const r = RADIUS * (1 + 0.01 * Math.sin(7 * phi + 3 * theta));
    p[3 * i] = r * Math.sin(theta) * Math.cos(phi);
    p[3 * i + 1] = r * Math.sin(theta) * Math.sin(phi);
    p[3 * i + 2] = r * Math.cos(theta);
  }
  return p;
}

/** Uniform points in the sphere's bounding box, as symmetric_difference_volume samples them. */
function inBox(n: number, seed: number): Float64Array {
  const rnd = seededRandom(seed);
  const p = new Float64Array(3 * n);
  for (let i = 0; i < p.length; i++) p[i] = RADIUS * (2 * rnd() - 1);
  return p;
}

const perSecond = (count: number, ms: number) => Math.round((count * 1000) / ms);

export const meshQueryCases: BenchCase[] = [
  {
    name: 'mesh: BVH build, closest point, fast winding number (1M-triangle sphere)',
    async run() {
      const m = mesh();
      const triangles = m.indices.length / 3;
      const build = await time(() => buildBvh(m), { warmup: 1, runs: 3 });
      const bvh = build.last;
      const ref = await time(() => prepareDeviationReference(m), { warmup: 0, runs: 1 });
      const Q = 200_000;
      const { points, normals } = nearSurface(Q, 1);
      const hit = createHit();
      const nearest = await time(() => {
        let s = 0;
        for (let i = 0; i < Q; i++) s += closestPoint(bvh, points[3 * i]!, points[3 * i + 1]!, points[3 * i + 2]!, hit).distance;
        return s;
      }, { warmup: 1, runs: 3 });
      const ordered = alongSurface(Q);
      const nearestOrdered = await time(() => {
        let s = 0;
        for (let i = 0; i < Q; i++) s += closestPoint(bvh, ordered[3 * i]!, ordered[3 * i + 1]!, ordered[3 * i + 2]!, hit).distance;
        return s;
      }, { warmup: 1, runs: 3 });
      // The robust candidate set: triangles facing against the sample's normal are skipped. Inward
      // normals make the filter reject the near side, the worst case for the filtered search.
      const filtered = (sign: number) =>
        time(() => {
          let s = 0;
          for (let i = 0; i < Q; i++) {
            const o = 3 * i;
            s += closestCompatiblePoint(bvh, points[o]!, points[o + 1]!, points[o + 2]!, sign * normals[o]!, sign * normals[o + 1]!, sign * normals[o + 2]!, hit).distance;
          }
          return s;
        }, { warmup: 1, runs: 3 });
      const compatible = await filtered(1);
      const deviation = (mode: SignMode) => {
        const t = createSignedDeviation();
        return time(() => {
          let ambiguous = 0;
          for (let i = 0; i < Q; i++) {
            const o = 3 * i;
            if (signedDeviation(ref.last, points[o]!, points[o + 1]!, points[o + 2]!, normals[o]!, normals[o + 1]!, normals[o + 2]!, mode, t).ambiguous) ambiguous++;
          }
          return ambiguous;
        }, { warmup: 1, runs: 3 });
      };
      const devNearest = await deviation('nearest');
      const devRobust = await deviation('robust');

      const fwBuild = await time(() => buildFastWinding(bvh), { warmup: 1, runs: 3 });
      const fw = fwBuild.last;
      const W = 100_000;
      const wp = inBox(W, 2);
      const winding = (count: number, beta: number) =>
        time(() => {
          let inside = 0;
          for (let i = 0; i < count; i++) if (Math.round(windingNumber(fw, wp[3 * i]!, wp[3 * i + 1]!, wp[3 * i + 2]!, { beta })) !== 0) inside++;
          return inside;
        }, { warmup: 1, runs: 3 });
      const w100k = await winding(W, DEFAULT_BETA);
      const w100kBeta2 = await winding(W, 2);
      const w300 = await winding(300, DEFAULT_BETA);
      return {
        triangles,
        bvhNodes: bvh.nodeCount,
        bvhDepth: bvh.maxDepth,
        bvhBuildMs: build.medianMs,
        deviationReferenceBuildMs: ref.medianMs,
        closestPointQueries: Q,
        closestPointPerSec: perSecond(Q, nearest.medianMs),
        closestPointSurfaceOrderPerSec: perSecond(Q, nearestOrdered.medianMs),
        compatiblePointPerSec: perSecond(Q, compatible.medianMs),
        signedDeviationNearestPerSec: perSecond(Q, devNearest.medianMs),
        signedDeviationRobustPerSec: perSecond(Q, devRobust.medianMs),
        signedDeviationRobustAmbiguous: devRobust.last,
        fastWindingBuildMs: fwBuild.medianMs,
        windingBeta: DEFAULT_BETA,
        winding100kMs: w100k.medianMs,
        winding100kPerSec: perSecond(W, w100k.medianMs),
        winding100kInsideFraction: round(w100k.last / W, 4),
        winding100kBeta2Ms: w100kBeta2.medianMs,
        winding300Ms: w300.medianMs,
        peakRssMb: peakRssMb(),
      };
    },
  },
  ...([1, 4] as const).map((millions) => ({
    name: `mesh: closest point and signed queries beside Open3D RaycastingScene (${millions}M-triangle sphere)`,
    run: () => queriesBesideOpen3d(millions),
  })),
];

const PYTHON = '/usr/bin/python3';
const OPEN3D_SCRIPT = fileURLToPath(new URL('./open3dDistance.py', import.meta.url));

/** Whether Debian's python3-open3d can be imported (the peer figure is left out where not). */
function hasOpen3d(): boolean {
  try {
    execFileSync(PYTHON, ['-c', 'import open3d'], { stdio: 'ignore', timeout: 60_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Points per second on one thread (and per CPU second, the figure compared), ours and Open3D's (Embree) on the same float32 sphere and points (near
 * the surface, random order), with the load average beside them: on a shared machine compare the
 * ratio, not the absolute rates. Also the robust sign's cost over the plain signed query, and the
 * BVH build per million triangles.
 */
async function queriesBesideOpen3d(millions: 1 | 4): Promise<Figures> {
  const m = millions === 1 ? uvSphere(RADIUS, 1003, 500) : uvSphere(RADIUS, 2003, 1000);
  // As a binary STL holds it (and as Open3D reads it): float32 coordinates, so the BVH keeps
  // float32 corners and both sides measure the same triangles.
  for (let i = 0; i < m.positions.length; i++) m.positions[i] = Math.fround(m.positions[i]!);
  const triangles = m.indices.length / 3;
  const load = loadavg()[0]!;
  const build = await time(() => buildBvh(m), { warmup: 0, runs: 3 });
  const bvh = build.last;
  const ref = prepareDeviationReference(m);
  const Q = 100_000;
  const { points, normals } = nearSurface(Q, 5);
  const hit = createHit();
  const nearest = await time(() => {
    let s = 0;
    for (let i = 0; i < Q; i++) s += closestPoint(bvh, points[3 * i]!, points[3 * i + 1]!, points[3 * i + 2]!, hit).distance;
    return s;
  }, { warmup: 1, runs: 3 });
  // CPU time of the same loop, the figure set beside Open3D's (wall time on a shared machine mostly measures waiting).
  let nearestCpuMs = Infinity;
  for (let r = 0; r < 3; r++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < Q; i++) closestPoint(bvh, points[3 * i]!, points[3 * i + 1]!, points[3 * i + 2]!, hit);
    const c = process.cpuUsage(c0);
    nearestCpuMs = Math.min(nearestCpuMs, (c.user + c.system) / 1000);
  }
  const deviation = (mode: SignMode) => {
    const t = createSignedDeviation();
    return time(() => {
      let s = 0;
      for (let i = 0; i < Q; i++) {
        const o = 3 * i;
        s += signedDeviation(ref, points[o]!, points[o + 1]!, points[o + 2]!, normals[o]!, normals[o + 1]!, normals[o + 2]!, mode, t).distance;
      }
      return s;
    }, { warmup: 1, runs: 3 });
  };
  const plain = await deviation('nearest');
  const robust = await deviation('robust');
  // The robust sign's cost in CPU time, the two modes alternated (best of 3 each): the wall-time
  // ratio above swings with the machine's load.
  const signedCpuMs = { nearest: Infinity, robust: Infinity };
  const signedTarget = createSignedDeviation();
  for (let r = 0; r < 3; r++) {
    for (const mode of ['nearest', 'robust'] as const) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < Q; i++) {
        const o = 3 * i;
        signedDeviation(ref, points[o]!, points[o + 1]!, points[o + 2]!, normals[o]!, normals[o + 1]!, normals[o + 2]!, mode, signedTarget);
      }
      const c = process.cpuUsage(c0);
      signedCpuMs[mode] = Math.min(signedCpuMs[mode], (c.user + c.system) / 1000);
    }
  }
  const figures: Figures = {
    triangles,
    loadAverage: round(load, 2),
    bvhBuildMs: build.medianMs,
    bvhBuildSecondsPerMillion: round(build.medianMs / 1000 / (triangles / 1e6), 3),
    closestPointPerSec: perSecond(Q, nearest.medianMs),
    closestPointPerCpuSec: perSecond(Q, nearestCpuMs),
    signedNearestPerSec: perSecond(Q, plain.medianMs),
    signedRobustPerSec: perSecond(Q, robust.medianMs),
    robustOverPlain: round(robust.medianMs / plain.medianMs, 3),
    robustOverPlainCpu: round(signedCpuMs.robust / signedCpuMs.nearest, 3),
    peakRssMb: peakRssMb(),
  };
  if (!hasOpen3d()) return { ...figures, open3d: 'python3-open3d not installed' };
  const dir = mkdtempSync(join(tmpdir(), 'brepscope-open3d-'));
  try {
    writeFileSync(join(dir, 'positions.f64'), m.positions);
    writeFileSync(join(dir, 'indices.u32'), m.indices);
    writeFileSync(join(dir, 'points.f64'), points);
    const o3d = JSON.parse(execFileSync(PYTHON, [OPEN3D_SCRIPT, dir, '1'], { encoding: 'utf8', timeout: 600_000 })) as { buildS: number; distanceS: number; signedS: number; sum: number };
    const ours = nearest.last;
    return {
      ...figures,
      open3dLoadAverage: round(loadavg()[0]!, 2),
      open3dBuildMs: round(1000 * o3d.buildS, 1),
      open3dDistancePerCpuSec: Math.round(Q / o3d.distanceS),
      open3dSignedPerCpuSec: Math.round(Q / o3d.signedS),
      // Open3D reads float32 corners and points: the sums agree to float32 rounding, not exactly.
      distanceSumRelativeDifference: round(Math.abs(o3d.sum - ours) / ours, 9),
      // Points per CPU second, ours over Open3D's: above 1 is faster.
      closestPointOverOpen3d: round((1000 * o3d.distanceS) / nearestCpuMs, 3),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
