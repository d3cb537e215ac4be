import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadImage } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { BrepscopeError } from '../errors';
import { withKernel, type OC } from '../kernel';
import { box, mergeMeshes } from '../mesh/generators';
import { tessellateShape } from '../mesh/tessellate';
import type { TriMesh } from '../mesh/TriMesh';
import { CANDIDATE_COLOR, REFERENCE_COLOR, SECTION_IMAGE_HEIGHT, SECTION_IMAGE_WIDTH, SECTION_PLOT_AREA, WHISKER_WITHIN_COLOR, whiskerColor, whiskerMagnification } from '../render/sectionOverlay';
import { addShapeBody } from '../scene/addShapeBody';
import { writeBinaryStl } from '../scene/import/stl';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { compoundOf, makeBox, makeCylinder } from '../../test/kernelShapes';
import { dataPath } from '../../test/data';
import { halfCylinderSkin } from '../../test/sectionMeshes';
import { chainPolylines } from '../mesh/sliceChain';
import { planeFrame } from '../mesh/sliceMesh';
import { sectionBrep } from '../scene/sectionBrep';
import type { CrossSectionResult } from './crossSectionCompare';
import { BREP_CURVE_REFINEMENT, STATION_INSET } from './crossSectionCompare';

const H = 40;
const RATIO = (10.2 / 10) ** 2;

let oc: OC;
let engine: Engine;
let outDir: string;
const compare = (args: object) => engine.runJson('cross_section_compare', args).then((r) => r.result) as Promise<CrossSectionResult>;

async function importMesh(bodyId: string, mesh: TriMesh): Promise<void> {
  await engine.run('import_file', { bytes: Buffer.from(writeBinaryStl(mesh)).toString('base64'), fileName: `${bodyId}.stl`, bodyId });
}

/** A tube: cylinder of radius ro minus the coaxial one of radius ri, z in [0, H]. */
function makeTube(ro: number, ri: number) {
  return withKernel(oc, (own) => {
    const outer = own(makeCylinder(oc, ro, H));
    const inner = own(makeCylinder(oc, ri, H + 2, -1));
    return own(new oc.BRepAlgoAPI_Cut_3(outer, inner, own(new oc.Message_ProgressRange_1()))).Shape();
  });
}

/** The station levels the tool must place: 2 % inset at both ends, evenly spaced. */
function expectedLevels(lo: number, hi: number, n: number): number[] {
  if (n === 1) return [(lo + hi) / 2];
  const a = lo + STATION_INSET * (hi - lo), b = hi - STATION_INSET * (hi - lo);
  return Array.from({ length: n }, (_, k) => a + ((b - a) * k) / (n - 1));
}

async function errorCode(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as BrepscopeError).code;
  }
  return 'no error';
}

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  outDir = await mkdtemp(join(tmpdir(), 'brepscope-sections-'));
  const s = engine.scene;
  addShapeBody(oc, s, 'cyl10', makeCylinder(oc, 10, H));
  addShapeBody(oc, s, 'cyl102', makeCylinder(oc, 10.2, H));
  addShapeBody(oc, s, 'boxA', makeBox(oc, 20, 10, 30));
  addShapeBody(oc, s, 'boxB', makeBox(oc, 20, 10, 30, [0, 0, 10]));
  addShapeBody(oc, s, 'boxFar', makeBox(oc, 20, 10, 5, [0, 0, 50]));
  addShapeBody(oc, s, 'boxMoved', makeBox(oc, 20, 10, 30, [1.5, -0.75, 0]));
  addShapeBody(oc, s, 'gapped', compoundOf(oc, [makeBox(oc, 20, 10, 10), makeBox(oc, 20, 10, 10, [0, 0, 20])]));
  addShapeBody(oc, s, 'tube10', makeTube(10, 9));
  addShapeBody(oc, s, 'tube102', makeTube(10.2, 9.2));
  // The STL pair: the kernel's own tessellation of each cylinder, through a binary STL.
  for (const [id, r] of [['stl10', 10], ['stl102', 10.2]] as const) {
    const shape = makeCylinder(oc, r, H);
    try {
      await importMesh(id, tessellateShape(oc, shape, 0.01));
    } finally {
      shape.delete();
    }
  }
  await importMesh('halfSkin', halfCylinderSkin(10, H, 256, 4));
  await importMesh('boxMeshes', mergeMeshes(box([0, 0, 0], [20, 10, 10]), box([0, 0, 20], [20, 10, 30])));
});

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe('cross_section_compare: cylinder r = 10.2 against r = 10 along their axis', () => {
  it('BREP pair, defaults: 12 stations, every signedMean about +0.2, areaRatio about (10.2/10)^2', async () => {
    const r = await compare({ fromBodyId: 'cyl102', referenceBodyId: 'cyl10', axis: [0, 0, 1] });
    expect(r.referenceMode).toBe('envelope');
    expect(r.overlap[0]).toBeCloseTo(0, 9);
    expect(r.overlap[1]).toBeCloseTo(H, 9);
    expect(r.sections).toHaveLength(12);
    expect(r.warnings).toEqual([]);
    // Default deflection 0.5 % of the diagonal (0.245); BREP section curves are discretized
    // BREP_CURVE_REFINEMENT times finer, so each circle is a polygon with sag <= 2.45e-4: per direction
    // the two can differ by one sag, and their means by about 2/3 of one.
    const sag = BREP_CURVE_REFINEMENT * 0.005 * Math.hypot(20.4, 20.4, H);
    for (const s of r.sections) {
      expect(Math.abs(s.signedMean! - 0.2)).toBeLessThan(sag);
      expect(s.maxAbs).toBeGreaterThanOrEqual(Math.abs(s.signedMean!));
      expect(s.maxAbs).toBeLessThan(0.2 + sag);
      expect(Math.abs(s.areaRatio! - RATIO)).toBeLessThan(1e-4);
      expect(s.centroidOffset).toBeLessThan(1e-9);
      // The rigid best fit cannot absorb a size difference.
      expect(Math.abs(s.shapeL2! - 0.2)).toBeLessThan(sag);
      expect([s.fromContours, s.referenceContours, s.fromOpenPaths, s.referenceOpenPaths]).toEqual([1, 1, 0, 0]);
      expect(s.openProfile).toBe(false);
      expect(s.registrationSmell).toBe(false);
      expect(s.imagePath).toBeNull();
    }
    expect(Math.abs(r.meanSignedAcrossSections! - 0.2)).toBeLessThan(sag);
    expect(r.worstStation).not.toBeNull();
    expect(r.worstAxisCoord).toBe(r.sections[r.worstStation!]!.axisCoord);
    expect(r.maxAbsSignedSection).toBe(Math.max(...r.sections.map((s) => Math.abs(s.signedMean!))));
  });

  it('BREP pair at deflection 0.002: signedMean and rms within 1e-4 of 0.2, areaRatio within 1e-5', async () => {
    const r = await compare({ fromBodyId: 'cyl102', referenceBodyId: 'cyl10', axis: [0, 0, 1], stations: 3, deflection: 0.002 });
    for (const s of r.sections) {
      expect(Math.abs(s.signedMean! - 0.2)).toBeLessThan(1e-4);
      expect(Math.abs(s.rms! - 0.2)).toBeLessThan(1e-4);
      expect(Math.abs(s.areaRatio! - RATIO)).toBeLessThan(1e-5);
    }
  });

  it('STL pair (tessellated at 0.01): every signedMean within the two chord sags of +0.2, areaRatio about (10.2/10)^2', async () => {
    const r = await compare({ fromBodyId: 'stl102', referenceBodyId: 'stl10', axis: [0, 0, 1] });
    expect(r.sections).toHaveLength(12);
    expect(r.overlap[0]).toBeCloseTo(0, 5);
    expect(r.overlap[1]).toBeCloseTo(H, 5);
    for (const s of r.sections) {
      expect(Math.abs(s.signedMean! - 0.2)).toBeLessThan(0.02);
      expect(Math.abs(s.areaRatio! - RATIO)).toBeLessThan(2e-3);
      expect(s.fromContours).toBe(1);
      expect(s.referenceContours).toBe(1);
      expect(s.registrationSmell).toBe(false);
    }
  });

  it('mixed: an STL candidate against a BREP reference, and the sign flips when the roles swap', async () => {
    const r = await compare({ fromBodyId: 'stl102', referenceBodyId: 'cyl10', axis: [0, 0, 1], stations: 4, deflection: 0.01 });
    for (const s of r.sections) expect(Math.abs(s.signedMean! - 0.2)).toBeLessThan(0.02);
    const swapped = await compare({ fromBodyId: 'cyl10', referenceBodyId: 'stl102', axis: [0, 0, 1], stations: 4, deflection: 0.01 });
    for (const s of swapped.sections) {
      expect(Math.abs(s.signedMean! + 0.2)).toBeLessThan(0.02);
      expect(Math.abs(s.areaRatio! - 1 / RATIO)).toBeLessThan(2e-3);
    }
  });
});

describe('cross_section_compare: stations and overlap', () => {
  it('a box against the same box moved 10 along the axis: overlap is the shared range, stations inset 2 % and evenly spaced', async () => {
    const r = await compare({ fromBodyId: 'boxA', referenceBodyId: 'boxB', axis: [0, 0, 1], stations: 5 });
    expect(r.overlap[0]).toBeCloseTo(10, 9);
    expect(r.overlap[1]).toBeCloseTo(30, 9);
    const levels = expectedLevels(10, 30, 5);
    expect(r.sections.map((s) => s.station)).toEqual([0, 1, 2, 3, 4]);
    r.sections.forEach((s, k) => {
      expect(s.axisCoord).toBeCloseTo(levels[k]!, 9);
      expect(s.offset).toBeCloseTo(levels[k]! - 10, 9);
      // Identical sections: nothing to report.
      expect(Math.abs(s.signedMean!)).toBeLessThan(1e-9);
      expect(s.areaRatio).toBeCloseTo(1, 12);
      expect(s.shapeL2).toBeLessThan(1e-9);
    });
    expect(r.warnings).toEqual([]);
  });

  it('the axis is normalized, and its direction sets the axis coordinates (reversed axis: negated, stations from the other end)', async () => {
    const scaled = await compare({ fromBodyId: 'boxA', referenceBodyId: 'boxB', axis: [0, 0, 7], stations: 5 });
    expect(scaled.overlap[0]).toBeCloseTo(10, 9);
    expect(scaled.overlap[1]).toBeCloseTo(30, 9);
    const reversed = await compare({ fromBodyId: 'boxA', referenceBodyId: 'boxB', axis: [0, 0, -1], stations: 5 });
    expect(reversed.overlap[0]).toBeCloseTo(-30, 9);
    expect(reversed.overlap[1]).toBeCloseTo(-10, 9);
    expectedLevels(-30, -10, 5).forEach((l, k) => expect(reversed.sections[k]!.axisCoord).toBeCloseTo(l, 9));
  });

  it('through moves the station centre: off-axis inside the profile the envelope still reads +0.2; outside it, the centre falls back to the area centroid with a warning', async () => {
    const inside = await compare({ fromBodyId: 'cyl102', referenceBodyId: 'cyl10', axis: [0, 0, 1], stations: 2, through: [6, -3, 0], deflection: 0.002 });
    for (const s of inside.sections) expect(Math.abs(s.signedMean! - 0.2)).toBeLessThan(2e-3);
    expect(inside.warnings).toEqual([]);
    const outside = await compare({ fromBodyId: 'cyl102', referenceBodyId: 'cyl10', axis: [0, 0, 1], stations: 2, through: [30, 0, 0], deflection: 0.002 });
    for (const s of outside.sections) expect(Math.abs(s.signedMean! - 0.2)).toBeLessThan(1e-4);
    expect(outside.warnings.map((w) => w.code)).toContain('STATION_RECENTRED');
  });

  it('one station sits in the middle of the overlap', async () => {
    const r = await compare({ fromBodyId: 'boxA', referenceBodyId: 'boxB', axis: [0, 0, 1], stations: 1 });
    expect(r.sections).toHaveLength(1);
    expect(r.sections[0]!.axisCoord).toBeCloseTo(20, 9);
    expect(r.sections[0]!.offset).toBeCloseTo(10, 9);
  });

  it('shapeL2 is pose-invariant: a box moved sideways by (1.5, -0.75) has shapeL2 0 while the signed figures and centroidOffset see the shift', async () => {
    const r = await compare({ fromBodyId: 'boxMoved', referenceBodyId: 'boxA', axis: [0, 0, 1], stations: 3 });
    for (const s of r.sections) {
      expect(s.shapeL2).toBeLessThan(1e-6);
      expect(s.centroidOffset).toBeCloseTo(Math.hypot(1.5, 0.75), 9);
      expect(s.areaRatio).toBeCloseTo(1, 12);
      expect(s.rms).toBeGreaterThan(0.5);
    }
  });
});

describe('cross_section_compare: open and thin-walled references', () => {
  it('an open half-cylinder skin as reference: openProfile true, figures defined, signedMean about +0.2 over the half it covers', async () => {
    const r = await compare({ fromBodyId: 'cyl102', referenceBodyId: 'halfSkin', axis: [0, 0, 1], stations: 6, deflection: 0.002 });
    expect(r.sections).toHaveLength(6);
    for (const s of r.sections) {
      expect(s.openProfile).toBe(true);
      expect(s.referenceContours).toBe(0);
      expect(s.referenceOpenPaths).toBe(1);
      expect(s.fromContours).toBe(1);
      expect(s.registrationSmell).toBe(false);
      expect(s.areaRatio).toBeNull();
      // The skin's 256 facets over half a turn sag 10 (1 - cos(pi / 512)) = 1.9e-4 (the candidate's
      // chords far less): the mean moves by less than that.
      expect(Math.abs(s.signedMean! - 0.2)).toBeLessThan(2e-4);
      expect(Number.isFinite(s.rms)).toBe(true);
      expect(Number.isFinite(s.maxAbs)).toBe(true);
      expect(Number.isFinite(s.centroidOffset)).toBe(true);
      // The half arc fits inside the larger circle: the best fit leaves at most the radius difference.
      expect(s.shapeL2).toBeGreaterThan(0);
      expect(s.shapeL2).toBeLessThan(0.2 + 1e-3);
    }
    expect(r.warnings.map((w) => w.code)).toContain('OPEN_PROFILE');
    // Profile mode leaves out candidate samples beyond the arc's ends, so it measures the covered half too.
    const profile = await compare({ fromBodyId: 'cyl102', referenceBodyId: 'halfSkin', axis: [0, 0, 1], stations: 2, outerEnvelope: false, deflection: 0.002 });
    expect(profile.referenceMode).toBe('profile');
    for (const s of profile.sections) {
      expect(s.openProfile).toBe(true);
      expect(Math.abs(s.signedMean! - 0.2)).toBeLessThan(2e-4);
      expect(Math.abs(s.maxAbs! - 0.2)).toBeLessThan(2e-4);
      expect(Number.isFinite(s.shapeL2)).toBe(true);
    }
  });

  it('outerEnvelope true against false on a thin-walled tube: the envelope sees +0.2, profile mode also measures the candidate bore to the outer wall', async () => {
    const args = { fromBodyId: 'tube102', referenceBodyId: 'tube10', axis: [0, 0, 1], stations: 3, deflection: 0.005 };
    const envelope = await compare(args);
    const profile = await compare({ ...args, outerEnvelope: false });
    expect(envelope.referenceMode).toBe('envelope');
    expect(profile.referenceMode).toBe('profile');
    // Profile mode: arc-length weighted, outer wall +0.2 over 2 pi 10.2, bore (r 9.2) -0.8 from the reference's outer wall over 2 pi 9.2.
    const expected = (10.2 * 0.2 + 9.2 * -0.8) / (10.2 + 9.2);
    for (let k = 0; k < 3; k++) {
      const e = envelope.sections[k]!, p = profile.sections[k]!;
      expect([e.fromContours, e.referenceContours]).toEqual([2, 2]);
      expect(Math.abs(e.signedMean! - 0.2)).toBeLessThan(1e-4);
      // Per direction the chords (sag 5e-6) can differ by one sag.
      expect(Math.abs(e.maxAbs! - 0.2)).toBeLessThan(1e-4);
      expect(Math.abs(p.signedMean! - expected)).toBeLessThan(5e-4);
      expect(Math.abs(p.maxAbs! - 0.8)).toBeLessThan(1e-4);
      // Area, centroid and shape use the main (outer) loops in both modes.
      expect(e.areaRatio).toBeCloseTo(RATIO, 4);
      expect(p.areaRatio).toBe(e.areaRatio);
      expect(p.shapeL2).toBe(e.shapeL2);
    }
  });
});

describe('kernel sections of a real part', () => {
  it('CrankArm at x = 81.4136: edge ends 6e-3 apart (vertex tolerance 9.5e-3) still close into one loop', async () => {
    await engine.run('import_file', { path: dataPath('occt/CrankArm.brep'), bodyId: 'crank' });
    const body = engine.scene.get('crank');
    if (body.kind !== 'brep') throw new Error('expected a BREP body');
    const [station] = sectionBrep(oc, body.shape, planeFrame([1, 0, 0]), [81.4136], 1e-3);
    expect(station!.error).toBeUndefined();
    expect(station!.vertexTolerance).toBeGreaterThan(5e-3);
    const curves = chainPolylines(station!.pieces, Math.max(1e-4, 2 * station!.vertexTolerance));
    expect(curves.paths).toHaveLength(0);
    expect(curves.loops).toHaveLength(1);
    // With only the default weld (1e-6 of the diagonal) the same edges leave a gap.
    expect(chainPolylines(station!.pieces, 1.7e-4).paths.length).toBeGreaterThan(0);
  });
});

describe('cross_section_compare: registration smell', () => {
  it('a station that cuts only the candidate: registrationSmell on that station alone, and a warning', async () => {
    // The reference is two boxes z 0..10 and 20..30; stations at 0.6, 7.8, 15, 22.2, 29.4.
    for (const reference of ['gapped', 'boxMeshes']) {
      const r = await compare({ fromBodyId: 'boxA', referenceBodyId: reference, axis: [0, 0, 1], stations: 5 });
      expect(r.sections.map((s) => s.registrationSmell)).toEqual([false, false, true, false, false]);
      const smelly = r.sections[2]!;
      expect(smelly.referenceContours + smelly.referenceOpenPaths).toBe(0);
      expect(smelly.fromContours).toBe(1);
      expect(smelly.signedMean).toBeNull();
      expect(smelly.areaRatio).toBeNull();
      expect(smelly.shapeL2).toBeNull();
      expect(r.warnings.filter((w) => w.code === 'ONE_BODY_CUT')).toHaveLength(1);
      expect(r.warnings.find((w) => w.code === 'ONE_BODY_CUT')!.message).toContain('2 (candidate only)');
      // Aggregates skip the station without figures.
      expect(r.meanSignedAcrossSections).toBeCloseTo(0, 9);
    }
  });
});

describe('cross_section_compare: overlay PNGs', () => {
  it('one decodable 800 x 800 PNG per station, named <prefix>_NN.png, showing both colours in the plot', async () => {
    const dir = join(outDir, 'cyl');
    const r = await compare({ fromBodyId: 'cyl102', referenceBodyId: 'cyl10', axis: [0, 0, 1], stations: 3, outputDir: dir, imagePrefix: 'cyl' });
    expect((await readdir(dir)).sort()).toEqual(['cyl_00.png', 'cyl_01.png', 'cyl_02.png']);
    expect(r.sections.map((s) => s.imagePath)).toEqual([0, 1, 2].map((k) => `${dir}/cyl_0${k}.png`));
    const info = await stat(r.sections[1]!.imagePath!);
    expect(info.size).toBeGreaterThan(5_000);
    expect(info.size).toBeLessThan(500_000);
    const image = await loadImage(await readFile(r.sections[1]!.imagePath!));
    expect([image.width, image.height]).toEqual([SECTION_IMAGE_WIDTH, SECTION_IMAGE_HEIGHT]);
    const { createCanvas } = await import('@napi-rs/canvas');
    const canvas = createCanvas(image.width, image.height);
    const g = canvas.getContext('2d');
    g.drawImage(image, 0, 0);
    const [x0, y0, x1, y1] = SECTION_PLOT_AREA;
    const data = g.getImageData(x0, y0, x1 - x0, y1 - y0).data;
    const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    const count = (hex: string) => {
      const [r0, g0, b0] = rgb(hex);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - r0!) + Math.abs(data[i + 1]! - g0!) + Math.abs(data[i + 2]! - b0!) < 30) n++;
      return n;
    };
    // Each circle is about 2 pi 10 model units x 25 px per unit (the plot also holds the whisker tips at r 11) = 1600 px
    // long and 2-4 px wide; the whiskers cross both strokes every few pixels.
    expect(count(REFERENCE_COLOR)).toBeGreaterThan(700);
    expect(count(CANDIDATE_COLOR)).toBeGreaterThan(700);
  });

  it('the default prefix is section; a registration-smell station still gets its image', async () => {
    const dir = join(outDir, 'gap');
    const r = await compare({ fromBodyId: 'boxA', referenceBodyId: 'gapped', axis: [0, 0, 1], stations: 5, outputDir: dir });
    expect((await readdir(dir)).sort()).toEqual(['section_00.png', 'section_01.png', 'section_02.png', 'section_03.png', 'section_04.png']);
    expect(r.sections[2]!.imagePath).toBe(`${dir}/section_02.png`);
  });
});

/** The RGB of every pixel of a PNG, with a lookup by position. */
async function pixels(path: string): Promise<(x: number, y: number) => [number, number, number]> {
  const image = await loadImage(await readFile(path));
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(image.width, image.height);
  const g = canvas.getContext('2d');
  g.drawImage(image, 0, 0);
  const data = g.getImageData(0, 0, image.width, image.height).data;
  return (x, y) => {
    const o = 4 * (Math.round(y) * image.width + Math.round(x));
    return [data[o]!, data[o + 1]!, data[o + 2]!];
  };
}

const rgbOf = (css: string): [number, number, number] =>
  css.startsWith('#') ? ([1, 3, 5].map((i) => parseInt(css.slice(i, i + 2), 16)) as [number, number, number]) : (css.match(/\d+/g)!.map(Number) as [number, number, number]);

/**
 * The share of pixels on a circle of model radius `r` about the profile centre that have `css`'s colour.
 * The plot is fitted to the profiles and the whisker tips (tips at `reach`): one scale, centred.
 */
function ringShare(at: (x: number, y: number) => [number, number, number], r: number, reach: number, css: string): number {
  const [x0, y0, x1, y1] = SECTION_PLOT_AREA;
  const span = 2 * reach;
  const scale = Math.min((x1 - x0) / (span * 1.12), (y1 - y0) / (span * 1.12));
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  const want = rgbOf(css);
  let hits = 0;
  const n = 2000;
  for (let i = 0; i < n; i++) {
    const t = (2 * Math.PI * i) / n;
    const [r0, g0, b0] = at(cx + r * scale * Math.cos(t), cy - r * scale * Math.sin(t));
    if (Math.abs(r0 - want[0]) + Math.abs(g0 - want[1]) + Math.abs(b0 - want[2]) < 40) hits++;
  }
  return hits / n;
}

describe('cross_section_compare: deviation whiskers on the reference outline', () => {
  it('r 10.2 against r 10, tolerance 0.1: magnification 5 (0.08 x 20 / 0.2), whiskers from r 10 out to r 11 in the saturated proud colour, none inside', async () => {
    const dir = join(outDir, 'whiskers');
    const r = await compare({ fromBodyId: 'cyl102', referenceBodyId: 'cyl10', axis: [0, 0, 1], stations: 1, outputDir: dir, tolerance: 0.1 });
    expect(r.whiskers).toEqual({ scale: 5, tolerance: 0.1, unit: 'model units' });
    const at = await pixels(r.sections[0]!.imagePath!);
    // d = +0.2 everywhere, span = max(range 0.2, 2 x 0.1): |d| at the range end, the arm's darkest stop.
    const proud = whiskerColor(0.2, 0.2, 0.1);
    expect(rgbOf(proud)).toEqual([103, 0, 31]);
    // Whiskers run from r 10 to r 10 + 5 x 0.2 = 11; between the candidate's stroke (10.2) and the tips they alone are drawn,
    // 1.5 px wide at least 3 px apart (anti-aliased: a ring of pixels meets their exact colour about an eighth of the time).
    expect(ringShare(at, 10.6, 11, proud)).toBeGreaterThan(0.08);
    expect(ringShare(at, 10.9, 11, proud)).toBeGreaterThan(0.08);
    expect(ringShare(at, 11.15, 11, proud)).toBe(0);
    expect(ringShare(at, 9.6, 11, proud)).toBe(0);
  });

  it('the pair swapped: shy whiskers drawn inward from r 10.2 to 9.2; the signed mean in the header reads -0.2', async () => {
    const dir = join(outDir, 'whiskers-in');
    const r = await compare({ fromBodyId: 'cyl10', referenceBodyId: 'cyl102', axis: [0, 0, 1], stations: 1, outputDir: dir, tolerance: 0.1 });
    expect(r.sections[0]!.signedMean!).toBeCloseTo(-0.2, 3);
    expect(r.whiskers?.scale).toBe(5);
    const at = await pixels(r.sections[0]!.imagePath!);
    const shy = whiskerColor(-0.2, 0.2, 0.1);
    expect(rgbOf(shy)).toEqual([5, 48, 97]);
    expect(ringShare(at, 9.6, 10.2, shy)).toBeGreaterThan(0.08);
    expect(ringShare(at, 10.6, 10.2, shy)).toBe(0);
    expect(ringShare(at, 9.0, 10.2, shy)).toBe(0);
  });

  it('a tolerance wider than the deviation: every whisker grey; a given whiskerScale is used as given', async () => {
    const dir = join(outDir, 'whiskers-grey');
    const r = await compare({ fromBodyId: 'cyl102', referenceBodyId: 'cyl10', axis: [0, 0, 1], stations: 1, outputDir: dir, tolerance: 0.3, whiskerScale: 10 });
    expect(r.whiskers).toEqual({ scale: 10, tolerance: 0.3, unit: 'model units' });
    const at = await pixels(r.sections[0]!.imagePath!);
    // Tips at 10 + 10 x 0.2 = 12.
    expect(ringShare(at, 11.2, 12, WHISKER_WITHIN_COLOR)).toBeGreaterThan(0.08);
    expect(ringShare(at, 11.2, 12, whiskerColor(0.2, 0.6, 0.1))).toBe(0);
  });

  it('profile mode draws whiskers too; without outputDir there are none', async () => {
    const dir = join(outDir, 'whiskers-profile');
    const r = await compare({ fromBodyId: 'cyl102', referenceBodyId: 'cyl10', axis: [0, 0, 1], stations: 1, outputDir: dir, tolerance: 0.1, outerEnvelope: false });
    expect(r.whiskers?.scale).toBe(5);
    const at = await pixels(r.sections[0]!.imagePath!);
    expect(ringShare(at, 10.6, 11, whiskerColor(0.2, 0.2, 0.1))).toBeGreaterThan(0.08);
    const bare = await compare({ fromBodyId: 'cyl102', referenceBodyId: 'cyl10', axis: [0, 0, 1], stations: 1 });
    expect(bare.whiskers).toBeNull();
  });

  it('whiskerMagnification: a round factor (1-2-5, at least 1) drawing the larger of tolerance and p95 |d| 8 % of the size', () => {
    expect(whiskerMagnification(20, [0.2, -0.2], 0.1)).toBe(5);
    expect(whiskerMagnification(100, [0.01], 0.1)).toBe(50);
    expect(whiskerMagnification(100, [], 0)).toBe(1);
    expect(whiskerMagnification(10, [5], 0)).toBe(1);
    // 95th percentile of |d| over 100 values 0.001..0.1 is 0.095 (one outlier of 5 does not set it).
    const d = Array.from({ length: 100 }, (_, i) => (i + 1) / 1000);
    d[99] = 5;
    expect(whiskerMagnification(100, d, 0)).toBe(50);
  });
});

describe('cross_section_compare: bad input', () => {
  it('zero axis, stations < 1 or fractional, a bad deflection or image prefix: INVALID_ARGUMENT', async () => {
    const base = { fromBodyId: 'cyl102', referenceBodyId: 'cyl10', axis: [0, 0, 1] };
    expect(await errorCode(compare({ ...base, axis: [0, 0, 0] }))).toBe('INVALID_ARGUMENT');
    expect(await errorCode(compare({ ...base, stations: 0 }))).toBe('INVALID_ARGUMENT');
    expect(await errorCode(compare({ ...base, stations: -3 }))).toBe('INVALID_ARGUMENT');
    expect(await errorCode(compare({ ...base, stations: 2.5 }))).toBe('INVALID_ARGUMENT');
    expect(await errorCode(compare({ ...base, deflection: 0 }))).toBe('INVALID_ARGUMENT');
    expect(await errorCode(compare({ ...base, imagePrefix: '../x' }))).toBe('INVALID_ARGUMENT');
    expect(await errorCode(compare({ ...base, axis: [0, 1] }))).toBe('INVALID_ARGUMENT');
  });

  it('bodies that do not overlap along the axis: INVALID_ARGUMENT with both extents; along another axis they compare, and the scene still works', async () => {
    let caught: BrepscopeError | undefined;
    try {
      await compare({ fromBodyId: 'boxA', referenceBodyId: 'boxFar', axis: [0, 0, 1] });
    } catch (e) {
      caught = e as BrepscopeError;
    }
    expect(caught?.code).toBe('INVALID_ARGUMENT');
    const details = caught?.details as { fromExtent: number[]; referenceExtent: number[] };
    expect(details.fromExtent[1]).toBeCloseTo(30, 9);
    expect(details.referenceExtent[0]).toBeCloseTo(50, 9);
    const sideways = await compare({ fromBodyId: 'boxA', referenceBodyId: 'boxFar', axis: [1, 0, 0], stations: 2 });
    expect(sideways.sections.every((s) => s.registrationSmell === false && s.fromContours === 1 && s.referenceContours === 1)).toBe(true);
  });

  it('an unknown body: BODY_NOT_FOUND', async () => {
    expect(await errorCode(compare({ fromBodyId: 'nope', referenceBodyId: 'cyl10', axis: [0, 0, 1] }))).toBe('BODY_NOT_FOUND');
  });
});
