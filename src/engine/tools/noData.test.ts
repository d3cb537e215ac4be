import type { SurfaceBody } from '../scene/Body';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { seededRandom } from '../mesh/generators';
import type { TriMesh } from '../mesh/TriMesh';
import { addShapeBody } from '../scene/addShapeBody';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { addMeshBody } from '../../test/deviationFixtures';
import { makeBox } from '../../test/kernelShapes';
import type { HeatmapResult } from './deviationHeatmap';
import type { HistogramResult } from './deviationHistogram';
import { directedCoverage } from '../deviation/coverage';
import { directedDeviation } from '../deviation/directed';
import { surfaceSamples } from '../deviation/samples';
import { bodyDiagonal, measuredSurface } from '../deviation/surfaces';
import type { DeviationResult } from './measureDeviation';

/**
 * Issue 20.1, missing scan data is not deviation. The part is a 40 x 30 x 20 box; its "scan" is six
 * planar grid patches (spacing 0.5, not welded at the box's edges, as a scan's patches), each moved
 * 0.1 outward with seeded Gaussian noise of SIGMA along the face normal. The independent answers:
 * every covered sample of the part lies 0.1 inside the scan (signed -0.1), every scan sample 0.1
 * outside the part; a hole cut out of the scan's top patch (whole grid cells, so its area is the
 * cells' count x 0.25) leaves the part's top face under it without a counterpart.
 */
const OFFSET = 0.1;
const SIGMA = 0.002;
const H = 0.5;
const BOX: [number, number, number] = [40, 30, 20];
const HOLE = { x: 20, y: 15, r: 5 };
const TOTAL_AREA = 2 * (40 * 30 + 40 * 20 + 30 * 20);

interface Patch {
  /** Axis of the face normal, its sign, and the face's level on that axis. */
  axis: 0 | 1 | 2;
  sign: 1 | -1;
  level: number;
}

const PATCHES: Patch[] = [0, 1, 2].flatMap((axis) => [
  { axis: axis as 0 | 1 | 2, sign: -1 as const, level: 0 },
  { axis: axis as 0 | 1 | 2, sign: 1 as const, level: BOX[axis]! },
]);

/** The scan: grid patches over each face, offset outward; `keepCell` drops cells (a hole); `extra` adds a stray patch. */
function scan(options: { hole: boolean; seed: number; stray?: boolean }): { mesh: TriMesh; holeArea: number } {
  const rand = seededRandom(options.seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const positions: number[] = [];
  const indices: number[] = [];
  let holeArea = 0;
  const patch = (origin: [number, number, number], u: 0 | 1 | 2, v: 0 | 1 | 2, lenU: number, lenV: number, normal: [number, number, number], cut: (cu: number, cv: number) => boolean) => {
    const nu = Math.round(lenU / H), nv = Math.round(lenV / H);
    const base = positions.length / 3;
    for (let j = 0; j <= nv; j++) {
      for (let i = 0; i <= nu; i++) {
        const p: [number, number, number] = [...origin];
        p[u] += i * H;
        p[v] += j * H;
        const d = OFFSET + SIGMA * gauss();
        positions.push(p[0] + d * normal[0], p[1] + d * normal[1], p[2] + d * normal[2]);
      }
    }
    for (let j = 0; j < nv; j++) {
      for (let i = 0; i < nu; i++) {
        if (cut(origin[u]! + (i + 0.5) * H, origin[v]! + (j + 0.5) * H)) {
          holeArea += H * H;
          continue;
        }
        const a = base + j * (nu + 1) + i, b = a + 1, c = a + nu + 1, d = c + 1;
        // Wound so the triangle normal is `normal` (u x v has the sign of the axis order).
        const ccw = ((v - u + 3) % 3 === 1) === normal[3 - u - v]! > 0;
        if (ccw) indices.push(a, b, d, a, d, c);
        else indices.push(a, d, b, a, c, d);
      }
    }
  };
  for (const { axis, sign, level } of PATCHES) {
    const u = ((axis + 1) % 3) as 0 | 1 | 2, v = ((axis + 2) % 3) as 0 | 1 | 2;
    const origin: [number, number, number] = [0, 0, 0];
    origin[axis] = level;
    const normal: [number, number, number] = [0, 0, 0];
    normal[axis] = sign;
    const top = axis === 2 && sign === 1;
    patch(origin, u, v, BOX[u]!, BOX[v]!, normal, (cu, cv) => options.hole && top && Math.hypot(cu - HOLE.x, cv - HOLE.y) < HOLE.r);
  }
  if (options.stray) {
    // A fixture the scanner saw 4 above the top face: a 10 x 10 patch, nothing of the part there.
    patch([5, 5, BOX[2] + 4 - OFFSET], 0, 1, 10, 10, [0, 0, 1], () => false);
  }
  return { mesh: { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) }, holeArea };
}

let oc: OC;
let engine: Engine;
let holeArea = 0;
const deviation = (args: object) => engine.runJson('measure_deviation', args).then((r) => r.result) as Promise<DeviationResult>;
const histogram = (args: object) => engine.runJson('deviation_histogram', args).then((r) => r.result) as Promise<HistogramResult>;
const heatmap = (args: object) => engine.runJson('deviation_heatmap', args).then((r) => r.result) as unknown as Promise<HeatmapResult>;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  addShapeBody(oc, engine.scene, 'part', makeBox(oc, ...BOX));
  const holed = scan({ hole: true, seed: 7 });
  holeArea = holed.holeArea;
  addMeshBody(engine.scene, 'holed', holed.mesh);
  addMeshBody(engine.scene, 'whole', scan({ hole: false, seed: 7 }).mesh);
  addMeshBody(engine.scene, 'stray', scan({ hole: false, seed: 7, stray: true }).mesh);
  // The hole is what was asked for: about pi r^2 of whole cells.
  expect(Math.abs(holeArea - Math.PI * HOLE.r ** 2)).toBeLessThan(0.1 * Math.PI * HOLE.r ** 2);
});

/** Noise bound: 5 sigma of the Gaussian offset noise (a few thousand draws). */
const NOISE = 5 * SIGMA;

describe('no data: a +0.1 offset scan with a hole against its part', () => {
  it('without the hole: no sample is no data, every figure is the clean offset', async () => {
    for (const surface of ['exact', 'tessellated'] as const) {
      const r = await deviation({ fromBodyId: 'part', toBodyId: 'whole', surface });
      for (const rec of [r.fromToTo, r.toToFrom]) {
        expect(rec.noDataSamples).toBe(0);
        expect(Math.abs(rec.max - OFFSET)).toBeLessThan(NOISE);
        expect(Math.abs(rec.mean - OFFSET)).toBeLessThan(SIGMA / 5);
        expect(rec.ambiguousSamples).toBe(0);
      }
      expect(Math.abs(r.fromToTo.signedMean! + OFFSET)).toBeLessThan(SIGMA / 5);
      expect(Math.abs(r.toToFrom.signedMean! - OFFSET)).toBeLessThan(SIGMA / 5);
      expect(r.fromToTo.signedMin!).toBeGreaterThan(-OFFSET - NOISE);
      expect(r.toToFrom.signedMax!).toBeLessThan(OFFSET + NOISE);
      // The default search distance: 10 x the median (1.0) against 5% of the part's diagonal (2.69).
      expect(r.fromToTo.maxDistance).toBeCloseTo(0.05 * Math.hypot(...BOX), 9);
    }
  });

  it('with the hole: the part under it is no data (its area within sampling error), the covered figures are the clean offset', async () => {
    const whole = await deviation({ fromBodyId: 'part', toBodyId: 'whole' });
    const r = await deviation({ fromBodyId: 'part', toBodyId: 'holed' });
    const f = r.fromToTo;
    const total = f.samples + f.noDataSamples;
    expect(total).toBe(whole.fromToTo.samples);
    const expected = (total * holeArea) / TOTAL_AREA;
    // Binomial sampling error of an area share, at 4 sigma (the samples are area-uniform on the box's faces).
    expect(Math.abs(f.noDataSamples - expected)).toBeLessThan(4 * Math.sqrt(expected));
    expect(Math.abs(f.signedMean! + OFFSET)).toBeLessThan(SIGMA / 5);
    expect(Math.abs(f.max - OFFSET)).toBeLessThan(NOISE);
    expect(Math.abs(f.p95 - OFFSET)).toBeLessThan(NOISE);
    expect(f.signedMin!).toBeGreaterThan(-OFFSET - NOISE);
    expect(Math.abs(f.worstPoint[2] - BOX[2]) < 1e-9 && Math.hypot(f.worstPoint[0] - HOLE.x, f.worstPoint[1] - HOLE.y) < HOLE.r + H).toBe(false);
    // The scan's samples all have the part under them.
    expect(r.toToFrom.noDataSamples).toBe(0);
    expect(Math.abs(r.toToFrom.signedMean! - OFFSET)).toBeLessThan(SIGMA / 5);
    expect(r.symmetricHausdorff).toBeLessThan(OFFSET + NOISE);
    console.log(`hole: area ${holeArea}, ${f.noDataSamples} of ${total} samples no data (expected ${expected.toFixed(1)}); max ${f.max}, signedMean ${f.signedMean}, maxDistance ${f.maxDistance}`);
  });

  it('exactly the samples over the removed cells are no data (away from the hole rim by more than the lean band)', async () => {
    const from = engine.scene.get('part') as SurfaceBody, to = engine.scene.get('holed') as SurfaceBody;
    const deflection = 0.005 * bodyDiagonal(oc, from);
    for (const surface of ['exact', 'tessellated'] as const) {
      const d = await directedDeviation({}, oc, measuredSurface(oc, from, deflection), 20000, measuredSurface(oc, to, deflection), 'robust', surface, 't');
      const { noData } = directedCoverage(d, undefined, bodyDiagonal(oc, from), 't');
      const p = d.samples.points;
      let over = 0, unsure = 0;
      for (let i = 0; i < d.samples.count; i++) {
        const [x, y, z] = [p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!];
        const onTop = Math.abs(z - BOX[2]) < 1e-6;
        // In a removed cell: the cell centre is within the hole radius.
        const cx = (Math.floor(x / H) + 0.5) * H, cy = (Math.floor(y / H) + 0.5) * H;
        const inHole = onTop && Math.hypot(cx - HOLE.x, cy - HOLE.y) < HOLE.r;
        // Within 0.02 of a cell edge the rim is near: the lean band decides, either answer is right.
        const nearEdge = Math.min(x / H - Math.floor(x / H), Math.ceil(x / H) - x / H, y / H - Math.floor(y / H), Math.ceil(y / H) - y / H) * H < 0.02;
        if (onTop && nearEdge && Math.hypot(x - HOLE.x, y - HOLE.y) < HOLE.r + H && Math.hypot(x - HOLE.x, y - HOLE.y) > HOLE.r - H) {
          unsure++;
          continue;
        }
        if (inHole) over++;
        expect(noData[i] === 1).toBe(inHole);
      }
      expect(over).toBeGreaterThan(100);
      expect(unsure).toBeLessThan(over / 5);
    }
  });

  it('deviation_histogram and the heat map apply the same rule: counts, search distance and the figures agree with measure_deviation', async () => {
    const r = await deviation({ fromBodyId: 'part', toBodyId: 'holed', maxSamples: 20000 });
    const h = await histogram({ fromBodyId: 'part', referenceBodyId: 'holed', maxSamples: 20000, tolerance: 0.05 });
    expect(h.noDataSamples).toBe(r.fromToTo.noDataSamples);
    expect(h.samples).toBe(r.fromToTo.samples);
    expect(h.maxDistance).toBe(r.fromToTo.maxDistance);
    expect(h.maxAbs).toBe(r.fromToTo.max);
    expect(h.mean!).toBeCloseTo(r.fromToTo.signedMean!, 12);
    expect(h.buckets.reduce((n, b) => n + b.count, 0)).toBe(h.signedSamples);
    expect(h.signedMin!).toBeGreaterThan(-OFFSET - NOISE);
    expect(h.withinTolerance).toBe(0);
    const map = await heatmap({ fromBodyId: 'part', toBodyId: 'holed', statistics: true });
    expect(map.maxDistance).toBe(r.fromToTo.maxDistance);
    expect(map.statistics!.noDataSamples).toBe(r.fromToTo.noDataSamples);
    expect(map.range![1]).toBeLessThan(OFFSET + NOISE);
    expect(map.signedVertices + map.ambiguousVertices + map.noDataVertices).toBeLessThanOrEqual(map.vertexCount);
    // The box's display mesh has no vertex over the hole (its top face is two triangles): colour the
    // whole scan against the holed one instead. Its top-grid vertices inside the hole (all four cells
    // around them removed) are no data, the rim's vertices (identical in both scans) are not.
    const scanMap = await heatmap({ fromBodyId: 'whole', toBodyId: 'holed' });
    const pos = (engine.scene.get('whole') as unknown as { mesh: TriMesh }).mesh.positions;
    const removed = (cu: number, cv: number) => Math.hypot(cu - HOLE.x, cv - HOLE.y) < HOLE.r;
    let inside = 0;
    for (let v = 0; v < scanMap.vertexCount; v++) {
      const [x, y, z] = [pos[3 * v]!, pos[3 * v + 1]!, pos[3 * v + 2]!];
      const onTop = Math.abs(z - BOX[2] - OFFSET) < 0.05 && x > 0 && x < BOX[0] && y > 0 && y < BOX[1];
      const i = Math.round(x / H), j = Math.round(y / H);
      const hole = onTop && [-0.5, 0.5].every((di) => [-0.5, 0.5].every((dj) => removed((i + di) * H, (j + dj) * H)));
      if (hole) inside++;
      expect(scanMap.noData[v] === 1).toBe(hole);
      if (hole) expect(scanMap.values[v]).toBeNaN();
    }
    expect(scanMap.noDataVertices).toBe(inside);
    expect(inside).toBeGreaterThan(250);
    // Without the hole the heat map has no no-data vertex.
    expect((await heatmap({ fromBodyId: 'part', toBodyId: 'whole' })).noDataVertices).toBe(0);
    expect((await heatmap({ fromBodyId: 'whole', toBodyId: 'whole' })).noDataVertices).toBe(0);
  });
});

describe('no data: maxDistance', () => {
  it('a stray patch 4 above the part: its scan samples are no data by the default search distance, by count', async () => {
    const r = await deviation({ fromBodyId: 'part', toBodyId: 'stray' });
    const samples = surfaceSamples(measuredSurface(oc, engine.scene.get('stray'), r.deflection), 20000);
    let strayCount = 0;
    for (let i = 0; i < samples.count; i++) if (samples.points[3 * i + 2]! > BOX[2] + 2) strayCount++;
    expect(strayCount).toBeGreaterThan(100);
    expect(r.toToFrom.noDataSamples).toBe(strayCount);
    expect(Math.abs(r.toToFrom.max - OFFSET)).toBeLessThan(NOISE);
    expect(r.fromToTo.noDataSamples).toBe(0);
    // A search distance beyond 4 keeps them: the stray patch is then the worst.
    const wide = await deviation({ fromBodyId: 'part', toBodyId: 'stray', maxDistance: 5 });
    expect(wide.toToFrom.noDataSamples).toBe(0);
    expect(wide.toToFrom.maxDistance).toBe(5);
    expect(Math.abs(wide.toToFrom.max - 4)).toBeLessThan(0.01);
  });

  it('a search distance under the offset leaves nothing covered: NO_COVERAGE; a malformed one: INVALID_ARGUMENT', async () => {
    await expect(deviation({ fromBodyId: 'part', toBodyId: 'whole', maxDistance: 0.05 })).rejects.toMatchObject({ code: 'NO_COVERAGE' });
    await expect(histogram({ fromBodyId: 'part', referenceBodyId: 'whole', maxDistance: 0.05 })).rejects.toMatchObject({ code: 'NO_COVERAGE' });
    for (const maxDistance of [0, -1, 'far', Infinity]) {
      await expect(deviation({ fromBodyId: 'part', toBodyId: 'whole', maxDistance })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
  });
});
