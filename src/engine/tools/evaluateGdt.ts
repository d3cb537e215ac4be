import { z } from 'zod';
import { warning, type ToolWarning } from '../warnings';
import { BrepscopeError, invalidArgument } from '../errors';
import { bodyPoints, brepScanSamples } from '../gdt/bodySamples';
import { evaluateCharacteristics, type CharacteristicSpec, type DatumSpec } from '../gdt/evaluate';
import { BORDER_MARGIN, faceSplitter, MAX_DISTANCE, nominalAccess } from '../gdt/nominalAccess';
import type { FaceSplit } from '../gdt/faceSplit';
import { readPmi, targetList, type PmiResult } from '../gdt/pmi';
import { lengthUnitMm } from '../gdt/stepText';
import { referenceBody } from '../scene/pointsBody';
import { parseEntityId } from '../scene/topology';
import { defineTool } from './defineTool';
import { exactReference } from '../deviation/structures';
import { bodyDiagonal, defaultDeflection } from '../deviation/surfaces';
import { scanDensifier } from '../gdt/scanDensify';
import { scanSurface } from '../gdt/scanSurface';
import { bodyIdSchema } from './schemas';
import { alignToDatums, movedSet } from '../gdt/datumAlignment';
import { compose, fromMatrix4, IDENTITY, toMatrix4, type Rigid } from '../math/rigid';

const matrix4Schema = z.array(z.array(z.number()).length(4)).length(4);

const KINDS = ['flatness', 'straightness', 'roundness', 'cylindricity', 'perpendicularity', 'parallelism', 'angularity', 'position', 'surfaceProfile', 'lineProfile', 'diameter', 'radius', 'sphericalDiameter', 'sphericalRadius', 'distance', 'thickness', 'angle', 'circularRunout', 'totalRunout', 'coaxiality', 'concentricity', 'symmetry'] as const;

const faceList = z.array(z.string().min(1)).min(1);

/**
 * Samples drawn near face sets that got fewer than 300, in all, per maxSamples. One maxSamples ran
 * out on a noisy scan of NIST FTC 7 at the default (noise puts fewer drawn samples on small faces,
 * so each face set draws more): the fillet chain, read last, lost 6 to 9 of its 32 faces, and a
 * verdict hung on the callouts' order. Four leaves room; each face set still takes at most
 * 20 x 300.
 */
const DENSIFY_SHARE = 4;

const vec3 = z.tuple([z.number(), z.number(), z.number()]);
const targetSchema = z.strictObject({
  id: z.string().min(1).optional().describe('Name in reasons. Default: the label and its number (A1)'),
  kind: z.enum(['point', 'line', 'rectangle', 'circle', 'circular curve']).describe('point; line (from origin along direction, length); rectangle (centred on origin: length along direction, width across); circle (an area: diameter about origin, across normal); circular curve (a contact circle: diameter about origin, across normal)'),
  origin: vec3.describe('Location on the nominal (mm)'),
  normal: vec3.optional().describe("The target's axis (circle, circular curve, rectangle): the placement z"),
  direction: vec3.optional().describe("A line's run, a rectangle's length: the placement x"),
  length: z.number().positive().optional(),
  width: z.number().positive().optional(),
  diameter: z.number().positive().optional(),
});

const characteristicSchema = z.strictObject({
  id: z.string().min(1).optional().describe('Name in the result. Default: c[N]'),
  kind: z.enum(KINDS).describe('What to evaluate'),
  faces: z.array(z.string().min(1)).default([]).describe("The nominal's faces it applies to (face[N])"),
  edges: z.array(z.string().min(1)).optional().describe("Sizes: the nominal's circular edges it applies to (edge[N]: a hole's edge at its drill point, a countersink's rim), besides faces"),
  tolerance: z.number().nonnegative().optional().describe('Geometric tolerance: zone size'),
  zone: z.enum(['width', 'diameter']).default('width').describe('width (two planes or surfaces) or diameter (a cylindrical zone). Default width'),
  modifiers: z.array(z.enum(['maximumMaterial', 'leastMaterial'])).default([]).describe('Material condition of the tolerance'),
  datums: z.array(z.string().min(1)).default([]).describe('Datum labels in precedence order; A-B is the common datum of A and B'),
  nominal: z.number().optional().describe('Size: nominal value (mm, degrees for an angle)'),
  upper: z.number().optional().describe('Size: upper deviation'),
  lower: z.number().optional().describe('Size: lower deviation (negative below nominal)'),
  size: z.strictObject({ nominal: z.number(), upper: z.number(), lower: z.number() }).optional().describe("The feature's size limits, for a material-condition bonus"),
  composite: z.enum(['upper', 'lower']).optional().describe("A composite frame's segment (position, profile): the lower segment's datums orient its zone and do not locate it"),
  perLength: z.number().positive().optional().describe('Straightness: the zone applies to every length of this size along each element (mm; "0.2/15")'),
  perArea: z
    .strictObject({ shape: z.enum(['circular', 'square', 'rectangular']), size: z.number().positive(), second: z.number().positive().optional() })
    .optional()
    .describe('Flatness or an orientation of planar faces: the zone applies to every area of this shape and size on the face (a circle of diameter size, a square, a rectangle size x second; mm)'),
});

const schema = z.strictObject({
  actualBodyId: bodyIdSchema.describe('The scan (mesh or point cloud), aligned to the nominal (align_bodies)'),
  nominalBodyId: bodyIdSchema.describe('The nominal BREP body; its STEP PMI (read_pmi) gives the characteristics and datums unless they are given here'),
  characteristics: z
    .array(z.union([z.string().min(1), characteristicSchema]))
    .optional()
    .describe("Ids from read_pmi (tolerance[N], dimension[N]) to evaluate, and/or characteristics written out. Default: every PMI tolerance and dimension"),
  datums: z
    .array(
      z
        .strictObject({
          label: z.string().min(1),
          faces: faceList.optional().describe('The datum feature: nominal faces (face[N])'),
          targets: z.array(targetSchema).min(1).optional().describe('Or the datum targets that define it (ASME Y14.5 ch. 7): contacts simulated on the scan'),
        })
        .refine((d) => (d.faces === undefined) !== (d.targets === undefined), { message: 'give a datum either faces or targets' }),
    )
    .optional()
    .describe("Datum features (label and nominal faces, or datum targets); they replace the PMI's datums of the same label"),
  maxSamples: z.int().min(100).max(500000).default(50000).describe("Scan samples drawn over the whole part by area (a cloud: every n-th point beyond it); up to four times as many more are drawn near faces that got fewer than 300 (a small hole's). Default 50000"),
  borderMargin: z.number().nonnegative().optional().describe("Samples whose nearest nominal point is within this of a face's edge are left out. Default 0.1% of the nominal's diagonal (set it to the scan's edge rounding)"),
  maxDistance: z.number().positive().optional().describe('Samples farther than this from the nominal are left out. Default 2% of its diagonal'),
  dropIsolated: z
    .boolean()
    .default(true)
    .describe("Leave out samples no neighbour agrees with (spikes, stray points): a sample whose deviation differs from its 8 nearest same-face neighbours' median by more than 6 times the scan's noise (and 0.01% of the diagonal), with none of them near its own. Counted in samples.isolated"),
  minSamples: z.int().min(4).default(12).describe('A characteristic (or datum) with fewer samples on its faces is not evaluated (pass: null). Default 12'),
  alignment: z
    .union([
      z.strictObject({
        method: z.literal('datums'),
        datums: z.array(z.string().min(1)).min(1).optional().describe("Datum labels in precedence order. Default: the longest datum reference of the characteristics (e.g. A|B|C)"),
        transform: matrix4Schema.optional().describe('4x4 rigid motion (rows) the datum fit starts from (e.g. a proposed alignment not applied yet). Default: the scan as placed'),
      }),
      z.strictObject({ method: z.literal('transform'), transform: matrix4Schema.describe('4x4 rigid motion (rows) applied to the scan') }),
    ])
    .optional()
    .describe("Moves the scan before evaluating: 'datums' fits its datum reference frame onto the nominal's, 'transform' applies a rigid motion. Default: the scan as placed"),
});

export const evaluateGdt = defineTool({
  name: 'evaluate_gdt',
  description:
    "GD&T verdicts on a scan: the scan's samples are split by the nominal's faces (exact nearest point, a margin at face borders), the datum features simulated (plane: tangent at the high points with minimum-zone orientation; axis: least squares) and the datum reference frame built in precedence order; each characteristic is evaluated (form by minimum zone, orientation and location in the datum frame, position with diametral zones and MMC/LMC bonus, surface profile as twice the largest deviation, sizes by least-squares fits) and gets {id, kind, nominal, actual, tolerance or upper/lower, pass, faces, samples, datums, method}, with a fitted size's uncertainty (k = 2) and withinUncertainty when the reading lies within it of a limit (the verdict not proven). Characteristics come from the nominal's STEP PMI or are written out. docs/gdt.md.",
  category: 'scene',
  schema,
  async run(args, ctx) {
    const nominalBody = referenceBody(ctx.scene.get(args.nominalBodyId), 'evaluate_gdt', 'nominalBodyId');
    if (nominalBody.kind !== 'brep') throw invalidArgument(`evaluate_gdt: the nominal '${args.nominalBodyId}' must be a BREP body (faces with exact geometry); it is a mesh`);
    const actual = ctx.scene.get(args.actualBodyId);
    const oc = await ctx.kernel();
    const diagonal = bodyDiagonal(oc, nominalBody);
    const warnings: ToolWarning[] = [];

    let pmi: PmiResult = { datums: [], dimensions: [], tolerances: [], warnings: [] };
    if (nominalBody.origin?.format === 'step') {
      const unit = nominalBody.lengthUnit ? (lengthUnitMm(nominalBody.lengthUnit.declared) ?? 1) : 1;
      pmi = readPmi(oc, nominalBody.origin.bytes ?? (await ctx.files.read(nominalBody.origin.path)), nominalBody.origin.path, nominalBody.sourceShape, unit);
      warnings.push(...pmi.warnings);
    }
    const ref = exactReference(oc, nominalBody, defaultDeflection(oc, nominalBody));
    const faceCount = ref.geometry.faces.length;
    const faceIndex = (id: string): number => {
      const e = parseEntityId(id);
      if (e.kind !== 'face' || e.index >= faceCount) throw invalidArgument(`evaluate_gdt: '${id}' is not a face of '${args.nominalBodyId}' (it has ${faceCount} faces)`);
      return e.index;
    };

    // A PMI face the body does not have (read_pmi warned FACE_NUMBERING_MISMATCH) is left out, not an error.
    const pmiFace = (id: string): number => {
      const e = parseEntityId(id);
      return e.kind === 'face' && e.index < faceCount ? e.index : -1;
    };
    const datums = new Map<string, DatumSpec>();
    for (const d of pmi.datums) datums.set(d.label, { label: d.label, faces: onlyFaces(d.faces).map(pmiFace).filter((f) => f >= 0), ...(d.targets ? { targets: targetList(d.targets), targetShapes: d.targets } : {}) });
    for (const d of args.datums ?? []) {
      const targets = d.targets?.map((t, i) => ({ ...t, id: t.id ?? `${d.label}${i + 1}` }));
      datums.set(d.label, { label: d.label, faces: (d.faces ?? []).map(faceIndex), ...(targets ? { targets: targetList(targets), targetShapes: targets } : {}) });
    }

    const fromPmi = pmiSpecs(pmi, pmiFace);
    let specs: CharacteristicSpec[];
    if (!args.characteristics) specs = fromPmi;
    else {
      specs = args.characteristics.map((c, i) => {
        if (typeof c === 'string') {
          const found = fromPmi.find((s) => s.id === c);
          if (!found) throw invalidArgument(`evaluate_gdt: no characteristic '${c}' in the nominal's PMI (read_pmi lists tolerance[N] and dimension[N])`);
          return found;
        }
        const edgeCount = ref.geometry.edges.length;
        const edges = (c.edges ?? []).map((id) => {
          const e = parseEntityId(id);
          if (e.kind !== 'edge' || e.index >= edgeCount) throw invalidArgument(`evaluate_gdt: '${id}' is not an edge of '${args.nominalBodyId}' (it has ${edgeCount} edges)`);
          return e.index;
        });
        if (c.faces.length === 0 && edges.length === 0) throw invalidArgument(`evaluate_gdt: characteristic ${c.id ?? `c[${i}]`} names no faces (and no edges)`);
        return {
          id: c.id ?? `c[${i}]`,
          kind: c.kind,
          ...(edges.length ? { edges } : {}),
          faces: c.faces.map(faceIndex),
          tolerance: c.tolerance ?? null,
          zone: c.zone,
          modifiers: c.modifiers,
          datums: c.datums,
          nominal: c.nominal ?? null,
          upper: c.upper ?? null,
          lower: c.lower ?? null,
          size: c.size ?? null,
          ...(c.composite ? { composite: c.composite } : {}),
          perLength: c.perLength ?? null,
          perArea: c.perArea ? { shape: c.perArea.shape, size: c.perArea.size, second: c.perArea.second ?? null } : null,
        };
      });
    }
    if (specs.length === 0) warnings.push(warning('NO_CHARACTERISTICS', 'the nominal has no PMI to evaluate and none were given'));

    const nominal = nominalAccess(oc, nominalBody, ref);
    // A BREP scan (a CAD model as the actual) is sampled over its exact surface like a mesh scan.
    let samples = actual.kind === 'brep' ? brepScanSamples(oc, actual, args.maxSamples) : bodyPoints(undefined, actual, args.maxSamples);
    const margin = args.borderMargin ?? BORDER_MARGIN * diagonal;
    const reach = args.maxDistance ?? MAX_DISTANCE * diagonal;
    const splitOf = faceSplitter(ref, diagonal, margin, reach, args.dropIsolated);
    let motion: Rigid = IDENTITY;
    const start = args.alignment?.transform;
    if (start) {
      const m = fromMatrix4(start);
      if (typeof m === 'string') throw invalidArgument(`evaluate_gdt: alignment.transform: ${m}`);
      motion = m;
      samples = movedSet(samples, m);
    }
    let split = splitOf(samples);
    const scan = scanSurface(oc, actual);
    let alignment: { method: 'datums' | 'transform'; datums?: string[]; rounds?: number; transform: number[][] } | undefined;
    if (args.alignment?.method === 'datums') {
      const labels = args.alignment.datums ?? longestReference(specs);
      if (labels.length === 0) throw invalidArgument("evaluate_gdt: alignment 'datums' needs datum labels: no characteristic refers to a datum (give alignment.datums)");
      const placed = motion;
      const densifyAt = (m: Rigid) => scanDensifier(scan, compose(m, placed), nominal, splitOf, reach, args.maxSamples);
      const aligned = alignToDatums(nominal, samples, splitOf, [...datums.values()], labels, { minSamples: args.minSamples, densifyAt }, 1e-9 * diagonal);
      if (!aligned.ok) throw new BrepscopeError(labels.some((l) => !datums.has(l) && l.split('-').some((p) => !datums.has(p))) ? 'INVALID_ARGUMENT' : 'NO_COVERAGE', `evaluate_gdt: cannot align the scan to the datums ${labels.join('|')}: ${aligned.reason}`);
      ({ samples, split } = aligned);
      motion = compose(aligned.motion, motion);
      alignment = { method: 'datums', datums: labels, rounds: aligned.rounds, transform: toMatrix4(motion) };
    } else if (args.alignment) alignment = { method: 'transform', transform: toMatrix4(motion) };
    if (split.assigned === 0) throw new BrepscopeError('NO_COVERAGE', `evaluate_gdt: no sample of '${args.actualBodyId}' lies on a face of '${args.nominalBodyId}' (align the scan first: align_bodies)`);
    if (!args.alignment) {
      const far = farFromNominal(split, specs);
      if (far) warnings.push(far);
    }
    if (split.isolated > 0)
      warnings.push(warning('ISOLATED_SAMPLES_LEFT_OUT', `${split.isolated} of the scan's samples were left out as isolated: each differs from its neighbours on its face far beyond the scan's noise, and none of them agrees with it (spikes, stray points); a real defect is seen by several samples and stays (dropIsolated: false keeps them all)`));
    // Sampled by area over the whole part, a small hole gets a dozen samples: each face set with few
    // gets more, drawn from the scan near its faces (up to DENSIFY_SHARE x maxSamples in all).
    const densify = scanDensifier(scan, motion, nominal, splitOf, reach, DENSIFY_SHARE * args.maxSamples);
    const { characteristics, datums: datumReports } = evaluateCharacteristics(nominal, samples, split, specs, [...datums.values()], { minSamples: args.minSamples, densify });
    const near = characteristics.filter((c) => c.withinUncertainty);
    if (near.length)
      warnings.push(warning('WITHIN_UNCERTAINTY', `${near.length} characteristic${near.length > 1 ? 's read' : ' reads'} within ${near.length > 1 ? 'their' : 'its'} reading's uncertainty of a limit (${near.map((c) => `${c.id} ${c.pass ? 'PASS' : 'FAIL'}${c.actual === null || c.uncertainty === undefined ? '' : ` ${Number(c.actual.toPrecision(6))} ±${Number(c.uncertainty.toPrecision(2))}`}`).join(', ')}): the verdict is the reading's, the scan does not prove it (more points on the feature, or all round it, narrow the uncertainty)`));
    return {
      characteristics,
      datums: datumReports,
      samples: { total: samples.count, assigned: split.assigned, border: split.border, far: split.far, isolated: split.isolated, added: densify.added(), borderMargin: margin },
      ...(alignment ? { alignment } : {}),
      warnings,
    };
  },
});

/**
 * A scan evaluated where it stands (no alignment asked) whose samples lie farther from the nominal,
 * RMS, than the tightest profile tolerance allows a made part to: likely not aligned. Each sample is
 * read on the face nearest it as placed, so a misplaced scan puts samples on the wrong faces, which
 * no datum frame or floating zone undoes (a CTC 4 scan turned 0.3 degrees about its centroid read a
 * position to A|B|C 0.22 and a 14 mm bore 14.07).
 */
function farFromNominal(split: FaceSplit, specs: CharacteristicSpec[]): ToolWarning | null {
  const profiles = specs.filter((s) => (s.kind === 'surfaceProfile' || s.kind === 'lineProfile') && s.tolerance !== null && s.tolerance > 0);
  if (profiles.length === 0) return null;
  const tightest = Math.min(...profiles.map((s) => s.tolerance!));
  let sum = 0, n = 0;
  for (let i = 0; i < split.deviation.length; i++) {
    const d = split.deviation[i]!;
    if (d === d) {
      sum += d * d;
      n++;
    }
  }
  if (n === 0) return null;
  const rms = Math.sqrt(sum / n);
  if (rms <= tightest) return null;
  const f = (x: number) => Number(x.toPrecision(3));
  const named = profiles.filter((s) => s.tolerance === tightest).map((s) => s.id);
  return warning(
    'SCAN_FAR_FROM_NOMINAL',
    `the scan's samples lie ${f(rms)} from the nominal's faces (RMS), more than the tightest profile tolerance (${f(tightest)}, ${named.join(', ')}): if it is not aligned, align it first (alignment: {method: 'datums'}, or align_bodies); each sample is read on the face nearest it where the scan stands`,
  );
}

/** Every PMI tolerance and size dimension as a characteristic; a tolerance takes the size dimension on the same faces for its material bonus. */
function pmiSpecs(pmi: PmiResult, faceIndex: (id: string) => number): CharacteristicSpec[] {
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));
  const out: CharacteristicSpec[] = [];
  for (const t of pmi.tolerances) {
    const size = pmi.dimensions.find((d) => d.kind === 'diameter' && d.nominal !== null && d.upper !== null && d.lower !== null && same(d.faces, t.faces));
    out.push({
      id: t.id,
      kind: t.kind,
      faces: onlyFaces(t.faces).map(faceIndex).filter((f) => f >= 0),
      tolerance: t.value,
      zone: t.zone === 'diameter' ? 'diameter' : 'width',
      modifiers: t.modifiers,
      datums: t.datums,
      nominal: null,
      upper: null,
      lower: null,
      size: size ? { nominal: size.nominal!, upper: size.upper!, lower: size.lower! } : null,
      ...(t.composite ? { composite: t.composite.segment } : {}),
      perLength: t.perLength ?? null,
      perArea: t.perArea ?? null,
      edges: t.faces.filter((id) => id.startsWith('edge[')).map((id) => parseEntityId(id).index),
    });
  }
  for (const d of pmi.dimensions) {
    if (d.kind === 'location') continue;
    const edges = d.faces.filter((id) => id.startsWith('edge[')).map((id) => parseEntityId(id).index);
    out.push({ id: d.id, kind: d.kind, faces: onlyFaces(d.faces).map(faceIndex).filter((f) => f >= 0), tolerance: null, zone: 'width', modifiers: d.modifiers, datums: [], nominal: d.nominal, upper: d.upper, lower: d.lower, size: null, ...(edges.length ? { edges } : {}) });
  }
  return out;
}

/** The datum reference with the most datums among the characteristics (first such in order). */
function longestReference(specs: CharacteristicSpec[]): string[] {
  return specs.reduce<string[]>((best, s) => (s.datums.length > best.length ? s.datums : best), []);
}

/** PMI may also name edges and vertices; characteristics are evaluated on faces. */
const onlyFaces = (ids: string[]) => ids.filter((id) => id.startsWith('face['));
