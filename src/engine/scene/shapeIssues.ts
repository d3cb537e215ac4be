import type { TopoDS_Shape, TopTools_IndexedMapOfShape } from 'opencascade.js/dist/opencascade.full';
import { drainList, isShapeKind, topAbs, withKernel, type OC, type Own, type ShapeKind } from '../kernel';
import { solidContacts, type SolidContact } from './solidInterference';

/**
 * The BREP checks behind validate_geometry and graph-validate: BRepCheck statuses per sub-shape, free
 * edges and open shells, small edges and faces, and (optionally, it is slow) self-intersection of each
 * solid and interference between different solids.
 */

/** Edges shorter than this and faces smaller than this are reported (the origin service's thresholds). */
export const SMALL_EDGE_LENGTH = 1e-6;
export const SMALL_FACE_AREA = 1e-12;
/** At most this many ids are listed per issue; `count` always gives the full number. */
export const MAX_LISTED_IDS = 200;

export interface ValidationIssue {
  /** What is wrong, in lowerCamel: openShell, freeEdge, badOrientation, selfIntersection, smallEdge ... */
  kind: string;
  /** error: the geometry is unsound; warning: legal but worth knowing (an open surface model, tiny edges). */
  severity: 'error' | 'warning';
  /** Ids of the entities involved (face[N], edge[N], vertex[N]; shell[N], solid[N], wire[N] likewise). */
  entities: string[];
  /** How many entities are involved (entities lists at most MAX_LISTED_IDS). */
  count: number;
  /** The kernel status behind the issue, when there is one (BRepCheck_NotClosed ...). */
  source?: string;
  message: string;
  /** interference only: each pair of solids in contact and how (touch or overlap). */
  pairs?: SolidContact[];
}

export function issue(kind: string, severity: 'error' | 'warning', ids: string[], message: string, source?: string): ValidationIssue {
  const base = { kind, severity, entities: ids.slice(0, MAX_LISTED_IDS), count: ids.length, message };
  return source === undefined ? base : { ...base, source };
}

const KINDS: [string, ShapeKind][] = [
  ['solid', 'SOLID'],
  ['shell', 'SHELL'],
  ['wire', 'WIRE'],
  ['face', 'FACE'],
  ['edge', 'EDGE'],
  ['vertex', 'VERTEX'],
];

/** BRepCheck status names that read better as a familiar issue kind. */
const STATUS_KIND: Record<string, string> = {
  NotClosed: 'openShell',
  FreeEdge: 'freeEdge',
  BadOrientation: 'badOrientation',
  BadOrientationOfSubshape: 'badOrientation',
  InvalidDegeneratedFlag: 'degenerateEdge',
};

/**
 * The self-intersection and interference checks, the slow part: a budget, checked between kernel
 * calls (one call can run past it: a pair of B-spline faces took 28 s on CAx-IF dm1-id-214.stp; the
 * Node hosts and the browser app run the check in a thread they stop instead, selfCheckJob.ts), progress, and the results
 * of a completed check kept per shape.
 */
export interface SelfCheckOptions {
  budgetMs: number;
  progress?: ((fraction: number, message?: string) => void) | undefined;
  /** A completed check's issues by shape (the shape object of a body): asked again, they are not recomputed. */
  cache?: WeakMap<object, ValidationIssue[]> | undefined;
}

/** What the self-intersection and interference checks did. */
export interface SelfCheckReport {
  /** false: the budget ran out; what was not checked is unknown (never reported as sound or unsound). */
  completed: boolean;
  /** Kernel checks (a solid, or a pair of faces whose boxes meet, or a pair of solids) planned and done. */
  checks: number;
  checksDone: number;
  seconds: number;
  /** The issues came from an earlier completed check of the same shape. */
  cached: boolean;
}

/**
 * Parts with more faces than this are checked a group of faces at a time (boxes first), so the budget
 * can stop between groups. One call for a whole part cannot be stopped: the 71-face bottle took 14 s
 * whole on a quiet machine and 134 s on a loaded one, a 21-face solid of CAx-IF dm1-id-214.stp 240 s.
 */
export const SELF_CHECK_WHOLE_FACES = 6;

/** graph-validate's form: the self-intersection check on or off, without a budget. */
export function brepIssues(oc: OC, shape: TopoDS_Shape, checkSelfIntersection: boolean): ValidationIssue[] {
  return brepValidation(oc, shape, checkSelfIntersection ? { budgetMs: Infinity } : false).issues;
}

export function brepValidation(oc: OC, shape: TopoDS_Shape, self: SelfCheckOptions | false): { issues: ValidationIssue[]; selfCheck: SelfCheckReport | null } {
  const { issues, brepCheckValid } = brepBaseValidation(oc, shape);
  if (!self) return { issues, selfCheck: null };
  const cached = self.cache?.get(shape);
  if (cached) return { issues: [...issues, ...cached], selfCheck: cachedReport() };
  const { found, report } = selfCheck(oc, shape, brepCheckValid, { endAt: Date.now() + self.budgetMs, progress: self.progress && progressFor(self.progress) });
  if (report.completed) self.cache?.set(shape, found);
  else found.push(notCompletedIssue(report, self.budgetMs));
  return { issues: [...issues, ...found], selfCheck: report };
}

/** The report of a check answered from the per-shape cache. */
export function cachedReport(): SelfCheckReport {
  return { completed: true, checks: 0, checksDone: 0, seconds: 0, cached: true };
}

/** The warning that says how far an unfinished check got: what was not checked is unknown. */
export function notCompletedIssue(report: SelfCheckReport, budgetMs: number): ValidationIssue {
  return issue(
    'selfIntersectionNotCompleted',
    'warning',
    [],
    `self-intersection and interference were checked ${report.checksDone} of ${report.checks} times before the ${budgetMs / 1000} s budget ran out: what was not checked is unknown (raise selfIntersectionBudgetSeconds to finish)`,
  );
}

/** Progress of the self-check as counts (the form a thread posts), turned into the host's fraction and message. */
export function progressFor(progress: (fraction: number, message?: string) => void): (done: number, planned: number) => void {
  return (done, planned) => progress(planned ? done / planned : 0, `self-intersection and interference: check ${done + 1} of ${planned}`);
}

/** Every check but the slow ones (self-intersection, interference); brepCheckValid: BRepCheck_Analyzer found nothing. */
export function brepBaseValidation(oc: OC, shape: TopoDS_Shape): { issues: ValidationIssue[]; brepCheckValid: boolean } {
  return withKernel(oc, (own) => {
    const { maps, idOf } = shapeMaps(oc, own, shape);
    const issues = checkerIssues(oc, own, shape, maps, idOf);
    const brepCheckValid = issues.length === 0;
    // BRepCheck already names the open shells of a solid (NotClosed): report each shell once.
    const reported = new Set(issues.filter((i) => i.kind === 'openShell').flatMap((i) => i.entities));
    for (const found of opennessIssues(oc, own, shape, maps)) {
      if (found.kind !== 'openShell') {
        issues.push(found);
        continue;
      }
      const rest = found.entities.filter((id) => !reported.has(id));
      if (rest.length) issues.push({ ...found, entities: rest, count: rest.length });
    }
    issues.push(...smallEntityIssues(oc, own, maps));
    issues.push(...emptySolidIssues(oc, own, maps));
    return { issues, brepCheckValid };
  });
}

/** Where a self-check must stop: endAt in Date.now() milliseconds (one clock for every thread of the process). */
export interface SelfCheckLimits {
  endAt: number;
  /** Told before each kernel check how many are done of how many planned, and how to get what they found. */
  progress?: ((done: number, planned: number, found: () => ValidationIssue[]) => void) | undefined;
}

/**
 * The self-intersection and interference checks alone, stopping between kernel calls once
 * `limits.endAt` has passed. Ids are the shape's own (face[N] as MapShapes numbers them), so a
 * shape written to BREP and read back in another thread gives the same ids.
 */
export function selfCheck(oc: OC, shape: TopoDS_Shape, brepCheckValid: boolean, limits: SelfCheckLimits): { found: ValidationIssue[]; report: SelfCheckReport } {
  return withKernel(oc, (own) => {
    const { maps, idOf } = shapeMaps(oc, own, shape);
    const started = Date.now();
    const budget = new Budget(limits.endAt, limits.progress);
    const self = selfIntersectionIssues(oc, own, shape, maps, idOf, brepCheckValid, budget);
    budget.foundSoFar = () => self;
    const found = [...self, ...interferenceIssues(oc, own, maps, budget)];
    const report: SelfCheckReport = { completed: !budget.stopped, checks: budget.planned, checksDone: budget.done, seconds: Number(((Date.now() - started) / 1000).toFixed(3)), cached: false };
    return { found, report };
  });
}

function shapeMaps(oc: OC, own: Own, shape: TopoDS_Shape): { maps: ShapeMaps; idOf: (s: TopoDS_Shape) => string } {
  const maps = KINDS.map(([name, kind]) => {
    const map = own(new oc.TopTools_IndexedMapOfShape_1());
    oc.TopExp.MapShapes_1(shape, topAbs(oc, kind), map);
    return { name, kind, map };
  });
  const idOf = (s: TopoDS_Shape): string => {
    for (const { name, kind, map } of maps) if (isShapeKind(oc, s.ShapeType(), kind)) return `${name}[${map.FindIndex(s) - 1}]`;
    return 'shape';
  };
  return { maps, idOf };
}

/** Counts the kernel checks planned and done, and says when the budget is spent (asked before each check). */
class Budget {
  planned = 0;
  done = 0;
  stopped = false;
  /** What the checks have found so far (told with progress, for a host that may abandon the rest). */
  foundSoFar: () => ValidationIssue[] = () => [];
  constructor(
    private readonly endAt: number,
    private readonly progress: SelfCheckLimits['progress'],
  ) {}

  /** True when one more check may start; false (for good) once the budget is spent. */
  next(): boolean {
    if (!this.stopped && Date.now() > this.endAt) this.stopped = true;
    if (this.stopped) return false;
    this.progress?.(this.done, this.planned, this.foundSoFar);
    this.done++;
    return true;
  }
}

type ShapeMaps = { name: string; kind: ShapeKind; map: TopTools_IndexedMapOfShape }[];

/** Every status BRepCheck_Analyzer records, on each sub-shape and in each context it was checked in. */
function checkerIssues(oc: OC, own: Own, shape: TopoDS_Shape, maps: ShapeMaps, idOf: (s: TopoDS_Shape) => string): ValidationIssue[] {
  const analyzer = own(new oc.BRepCheck_Analyzer(shape, true, false));
  if (analyzer.IsValid_2()) return [];
  const statusNames = Object.keys(oc.BRepCheck_Status).filter((k) => k.startsWith('BRepCheck_')) as (keyof typeof oc.BRepCheck_Status)[];
  const nameOf = (st: unknown): string => (statusNames.find((n) => oc.BRepCheck_Status[n] === st) ?? 'BRepCheck_Unknown').replace('BRepCheck_', '');
  const found = new Map<string, Set<string>>();
  const record = (statuses: unknown[], id: string): void => {
    for (const st of statuses) {
      const name = nameOf(st);
      if (name === 'NoError') continue;
      if (!found.has(name)) found.set(name, new Set());
      found.get(name)!.add(id);
    }
  };
  for (const { map } of maps) {
    for (let i = 1; i <= map.Extent(); i++) {
      const sub = own(map.FindKey(i));
      const handle = own(analyzer.Result(sub));
      if (handle.IsNull()) continue;
      const result = handle.get();
      record(drainList(own(result.Status())), idOf(sub));
      for (result.InitContextIterator(); result.MoreShapeInContext(); result.NextShapeInContext()) {
        record(drainList(own(result.StatusOnShape_1())), idOf(sub));
      }
    }
  }
  if (found.size === 0) return [issue('invalidShape', 'error', [], 'BRepCheck_Analyzer rejects the shape as a whole', 'BRepCheck_Analyzer')];
  return [...found].map(([name, ids]) => {
    const kind = STATUS_KIND[name] ?? name.charAt(0).toLowerCase() + name.slice(1);
    return issue(kind, 'error', [...ids], `BRepCheck reports ${name} on ${[...ids].slice(0, 5).join(', ')}${ids.size > 5 ? ' ...' : ''}`, `BRepCheck_${name}`);
  });
}

/**
 * Free edges (on one face only, not seams or degenerate) and the shells they leave open. In a solid
 * that is an error; in a shell or face body (a surface model) it is how the model is, so a warning.
 * A body may hold both (NIST's AP242 test parts: a closed solid beside open construction surfaces):
 * each edge and shell is judged by whether it lies in a solid, not by whether the body has one.
 */
function opennessIssues(oc: OC, own: Own, shape: TopoDS_Shape, maps: ShapeMaps): ValidationIssue[] {
  const faceMap = maps.find((m) => m.kind === 'FACE')!.map;
  const edgeMap = maps.find((m) => m.kind === 'EDGE')!.map;
  const shellMap = maps.find((m) => m.kind === 'SHELL')!.map;
  const solidMap = maps.find((m) => m.kind === 'SOLID')!.map;
  if (faceMap.Extent() === 0) return [];
  const ancestors = own(new oc.TopTools_IndexedDataMapOfShapeListOfShape_1());
  oc.TopExp.MapShapesAndAncestors(shape, topAbs(oc, 'EDGE'), topAbs(oc, 'FACE'), ancestors);
  const free: number[] = [];
  for (let i = 1; i <= edgeMap.Extent(); i++) {
    const edge = own(oc.TopoDS.Edge_1(own(edgeMap.FindKey(i))));
    if (oc.BRep_Tool.Degenerated(edge)) continue;
    const idx = ancestors.FindIndex(edge);
    const faces = idx > 0 ? drainList(own(ancestors.FindFromIndex(idx))).map(own) : [];
    const distinct = new Set(faces.map((f) => faceMap.FindIndex(f)));
    // A seam edge appears twice in one face (MapShapesAndAncestors lists the face once per use): closed there, not free.
    const seam = distinct.size === 1 && oc.BRep_Tool.IsClosed_2(edge, own(oc.TopoDS.Face_1(faces[0]!)));
    if (distinct.size === 1 && !seam) free.push(i);
  }
  if (free.length === 0) return [];
  const openShells: number[] = [];
  for (let i = 1; i <= shellMap.Extent(); i++) if (!oc.BRep_Tool.IsClosed_1(own(shellMap.FindKey(i)))) openShells.push(i);
  // MapShapes adds to the map it is given: one map of the edges (and one of the shells) of every solid.
  const solidEdges = own(new oc.TopTools_IndexedMapOfShape_1());
  const solidShells = own(new oc.TopTools_IndexedMapOfShape_1());
  for (let i = 1; i <= solidMap.Extent(); i++) {
    const solid = own(solidMap.FindKey(i));
    oc.TopExp.MapShapes_1(solid, topAbs(oc, 'EDGE'), solidEdges);
    oc.TopExp.MapShapes_1(solid, topAbs(oc, 'SHELL'), solidShells);
  }
  const inSolid = (map: TopTools_IndexedMapOfShape, all: TopTools_IndexedMapOfShape, i: number): boolean => map.Contains(own(all.FindKey(i)));
  const out: ValidationIssue[] = [];
  const report = (severity: 'error' | 'warning', edges: number[], shells: number[], what: string): void => {
    if (shells.length) out.push(issue('openShell', severity, shells.map((i) => `shell[${i - 1}]`), `${shells.length} shell(s) are not closed: ${what}`));
    if (edges.length) out.push(issue('freeEdge', severity, edges.map((i) => `edge[${i - 1}]`), `${edges.length} edge(s) bound only one face: ${what}`));
  };
  report(
    'error',
    free.filter((i) => inSolid(solidEdges, edgeMap, i)),
    openShells.filter((i) => inSolid(solidShells, shellMap, i)),
    'a solid must be closed',
  );
  report(
    'warning',
    free.filter((i) => !inSolid(solidEdges, edgeMap, i)),
    openShells.filter((i) => !inSolid(solidShells, shellMap, i)),
    solidMap.Extent() > 0 ? 'outside any solid, an open surface model beside the solid(s)' : 'an open surface model',
  );
  return out;
}

function smallEntityIssues(oc: OC, own: Own, maps: ShapeMaps): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const edgeMap = maps.find((m) => m.kind === 'EDGE')!.map;
  const faceMap = maps.find((m) => m.kind === 'FACE')!.map;
  const small: string[] = [];
  for (let i = 1; i <= edgeMap.Extent(); i++) {
    const edge = own(oc.TopoDS.Edge_1(own(edgeMap.FindKey(i))));
    if (oc.BRep_Tool.Degenerated(edge)) continue;
    const props = own(new oc.GProp_GProps_1());
    oc.BRepGProp.LinearProperties(edge, props, false, false);
    if (props.Mass() < SMALL_EDGE_LENGTH) small.push(`edge[${i - 1}]`);
  }
  if (small.length) out.push(issue('smallEdge', 'warning', small, `${small.length} edge(s) shorter than ${SMALL_EDGE_LENGTH}`));
  const tiny: string[] = [];
  for (let i = 1; i <= faceMap.Extent(); i++) {
    const props = own(new oc.GProp_GProps_1());
    oc.BRepGProp.SurfaceProperties_1(own(faceMap.FindKey(i)), props, false, false);
    if (Math.abs(props.Mass()) < SMALL_FACE_AREA) tiny.push(`face[${i - 1}]`);
  }
  if (tiny.length) out.push(issue('smallFace', 'warning', tiny, `${tiny.length} face(s) with area below ${SMALL_FACE_AREA}`));
  return out;
}

/** Solids without a face (no shell): BRepCheck accepts them, they bound nothing; named so a count of solids is not misread. */
function emptySolidIssues(oc: OC, own: Own, maps: ShapeMaps): ValidationIssue[] {
  const solidMap = maps.find((m) => m.kind === 'SOLID')!.map;
  const empty: string[] = [];
  for (let i = 1; i <= solidMap.Extent(); i++) if (isEmptySolid(oc, own, own(solidMap.FindKey(i)))) empty.push(`solid[${i - 1}]`);
  if (empty.length === 0) return [];
  return [issue('emptySolid', 'warning', empty, `${empty.length} solid(s) have no shell (no faces): they enclose nothing and are left out of the box, self-intersection and interference checks`)];
}

function isEmptySolid(oc: OC, own: Own, solid: TopoDS_Shape): boolean {
  return !own(new oc.TopExp_Explorer_2(solid, topAbs(oc, 'FACE'), topAbs(oc, 'SHAPE'))).More();
}

/**
 * BRepAlgoAPI_Check with self-interference on (the argument analyzer's modes cannot be set here), run
 * on each solid alone and on the faces outside any solid together: contact between different solids
 * is interference, not self-intersection. Instances of one part (IsPartner) are checked once, and
 * what is found is reported on every instance. A part of more than SELF_CHECK_WHOLE_FACES faces is
 * checked a group at a time: a face with (some of) the later faces whose boxes (widened by tolerance)
 * meet its own. Every crossing lies in a pair of faces whose boxes meet, every such pair is in one group, and
 * the budget can stop between groups.
 *
 * The argument analyzer works at tolerances it widens itself, looser than BRepCheck's: it finds a
 * lone face crossing itself (no second shape) on valid solids, a B-spline sphere for one. A face's
 * own crossings are BRepCheck's to judge (its wire checks): on a shape BRepCheck accepts, such a
 * finding is a warning (selfIntersectionUnconfirmed), never an error.
 */
function selfIntersectionIssues(oc: OC, own: Own, shape: TopoDS_Shape, maps: ShapeMaps, idOf: (s: TopoDS_Shape) => string, brepCheckValid: boolean, budget: Budget): ValidationIssue[] {
  const crossing = new Set<string>();
  const lone = new Set<string>();
  const contact = new Set<string>();
  const units: { checked: TopoDS_Shape; instances: TopoDS_Shape[]; part: TopoDS_Shape; borders: FaceSets | null }[] = [];
  for (const instances of selfIntersectionParts(oc, own, shape, maps)) {
    const part = instances[0]!;
    const faces = own(new oc.TopTools_IndexedMapOfShape_1());
    oc.TopExp.MapShapes_1(part, topAbs(oc, 'FACE'), faces);
    const borders = isShapeKind(oc, part.ShapeType(), 'SOLID') ? null : faceSets(oc, own, part, faces);
    if (faces.Extent() <= SELF_CHECK_WHOLE_FACES) units.push({ checked: part, instances, part, borders });
    else for (const group of faceGroups(oc, own, faces)) units.push({ checked: group, instances, part, borders });
  }
  budget.planned += units.length;
  budget.foundSoFar = () => selfIssues(crossing, lone, contact);
  for (const { checked, instances, part, borders } of units) {
    if (!budget.next()) break;
    const check = own(new oc.BRepAlgoAPI_Check_2(checked, false, true, own(new oc.Message_ProgressRange_1())));
    if (check.IsValid()) continue;
    const back = own(own(part.Location_1()).Inverted());
    for (const result of drainList(own(check.Result())).map(own)) {
      if (result.GetCheckStatus() !== oc.BOPAlgo_CheckStatus.BOPAlgo_SelfIntersect) continue;
      const faulty = [...drainList(own(result.GetFaultyShapes1())), ...drainList(own(result.GetFaultyShapes2()))].map(own);
      const into = borders && meetOnBorders(borders, faulty) ? contact : faulty.length === 1 && brepCheckValid ? lone : crossing;
      for (const s of faulty) {
        for (const instance of instances) into.add(idOf(instance === part ? s : own(s.Moved(own(own(instance.Location_1()).Multiplied(back)), false))));
      }
    }
  }
  return selfIssues(crossing, lone, contact);
}

/** The self-intersection issues from the faces found so far: crossings (errors) and faces crossing only themselves (warnings). */
/**
 * Faces outside solids (a surface model): for each edge and vertex, the faces it bounds. Two
 * patches of an unsewn model (OCCT's wing.brep, IGES trimmed surfaces) meet along edges of their
 * own; the argument analyzer reports those coincident edges as self-interference, as it reported
 * touching solids (issue 18). Sewing joins them; they are contact, not a crossing.
 */
type FaceSets = (s: TopoDS_Shape) => Set<number> | null;

function faceSets(oc: OC, own: Own, part: TopoDS_Shape, faces: TopTools_IndexedMapOfShape): FaceSets {
  const maps = (['EDGE', 'VERTEX'] as const).map((kind) => {
    const map = own(new oc.TopTools_IndexedDataMapOfShapeListOfShape_1());
    oc.TopExp.MapShapesAndAncestors(part, topAbs(oc, kind), topAbs(oc, 'FACE'), map);
    return { kind, map };
  });
  return (s) => {
    const found = maps.find(({ kind }) => isShapeKind(oc, s.ShapeType(), kind));
    if (!found) return null;
    const idx = found.map.FindIndex(s);
    return idx > 0 ? new Set(drainList(own(found.map.FindFromIndex(idx))).map((f) => faces.FindIndex(own(f)))) : null;
  };
}

/** The faulty shapes are edges and vertices of faces no two of them share: different patches meeting at their borders. */
function meetOnBorders(borders: FaceSets, faulty: TopoDS_Shape[]): boolean {
  if (faulty.length < 2) return false;
  const seen = new Set<number>();
  for (const s of faulty) {
    const faces = borders(s);
    if (!faces || faces.size === 0) return false;
    for (const f of faces) if (seen.has(f)) return false;
    for (const f of faces) seen.add(f);
  }
  return true;
}

function selfIssues(crossing: Set<string>, found: Set<string>, contact: Set<string>): ValidationIssue[] {
  const lone = [...found].filter((id) => !crossing.has(id));
  const touching = [...contact].filter((id) => !crossing.has(id) && !found.has(id));
  const out: ValidationIssue[] = [];
  if (crossing.size) out.push(issue('selfIntersection', 'error', [...crossing], `the shape intersects itself at ${[...crossing].slice(0, 5).join(', ')}`, 'BOPAlgo_SelfIntersect'));
  if (touching.length) {
    out.push(
      issue(
        'faceContact',
        'warning',
        touching,
        `${touching.length} edge(s) and vertices where different faces outside any solid meet without sharing them (an unsewn surface model; sewing joins them): contact, not self-intersection`,
        'BOPAlgo_SelfIntersect',
      ),
    );
  }
  if (lone.length) {
    out.push(
      issue(
        'selfIntersectionUnconfirmed',
        'warning',
        lone,
        `the argument analyzer finds ${lone.slice(0, 5).join(', ')} crossing itself at its own (looser) tolerance; BRepCheck, which checks each face's wires at the shape's tolerances, accepts the shape`,
        'BOPAlgo_SelfIntersect',
      ),
    );
  }
  return out;
}

/**
 * Faces per group at most: where boxes overlap densely (shell1.brep: 1,814 of 4,851 pairs) a face's
 * group would grow towards the whole part, one call the budget cannot stop.
 */
const GROUP_FACES = 6;

/**
 * For each face (in x order of the boxes), compounds of it and the later faces whose boxes meet its
 * own, GROUP_FACES faces at most each; faces meeting none are left out.
 */
function faceGroups(oc: OC, own: Own, faces: TopTools_IndexedMapOfShape): TopoDS_Shape[] {
  const boxes: { face: TopoDS_Shape; min: number[]; max: number[] }[] = [];
  for (let i = 1; i <= faces.Extent(); i++) {
    const face = own(faces.FindKey(i));
    const box = own(new oc.Bnd_Box_1());
    oc.BRepBndLib.Add(face, box, false);
    if (box.IsVoid()) continue;
    const lo = own(box.CornerMin()), hi = own(box.CornerMax());
    boxes.push({ face, min: [lo.X(), lo.Y(), lo.Z()], max: [hi.X(), hi.Y(), hi.Z()] });
  }
  boxes.sort((a, b) => a.min[0]! - b.min[0]!);
  const builder = own(new oc.BRep_Builder());
  const groups: TopoDS_Shape[] = [];
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i]!;
    let group: TopoDS_Shape | undefined;
    let size = 0;
    for (let j = i + 1; j < boxes.length && boxes[j]!.min[0]! <= a.max[0]!; j++) {
      const b = boxes[j]!;
      if (a.min[1]! > b.max[1]! || b.min[1]! > a.max[1]! || a.min[2]! > b.max[2]! || b.min[2]! > a.max[2]!) continue;
      if (!group || size === GROUP_FACES) {
        if (group) groups.push(group);
        group = own(new oc.TopoDS_Compound());
        builder.MakeCompound(group);
        builder.Add(group, a.face);
        size = 1;
      }
      builder.Add(group, b.face);
      size++;
    }
    if (group) groups.push(group);
  }
  return groups;
}

/**
 * What is checked for self-intersection, as groups of instances of one part: each solid (grouped by
 * IsPartner), then one compound of the faces in no solid (a surface model's shells and loose faces),
 * or the shape itself when it has no solid.
 */
function selfIntersectionParts(oc: OC, own: Own, shape: TopoDS_Shape, maps: ShapeMaps): TopoDS_Shape[][] {
  const solidMap = maps.find((m) => m.kind === 'SOLID')!.map;
  if (solidMap.Extent() === 0) return [[shape]];
  const groups: TopoDS_Shape[][] = [];
  const inSolid = own(new oc.TopTools_IndexedMapOfShape_1());
  for (let i = 1; i <= solidMap.Extent(); i++) {
    const solid = own(solidMap.FindKey(i));
    if (isEmptySolid(oc, own, solid)) continue;
    oc.TopExp.MapShapes_1(solid, topAbs(oc, 'FACE'), inSolid);
    const group = groups.find((g) => g[0]!.IsPartner(solid) && g[0]!.Orientation_1() === solid.Orientation_1());
    if (group) group.push(solid);
    else groups.push([solid]);
  }
  const faceMap = maps.find((m) => m.kind === 'FACE')!.map;
  if (inSolid.Extent() === faceMap.Extent()) return groups;
  const builder = own(new oc.BRep_Builder());
  const rest = own(new oc.TopoDS_Compound());
  builder.MakeCompound(rest);
  for (let i = 1; i <= faceMap.Extent(); i++) {
    const face = own(faceMap.FindKey(i));
    if (!inSolid.Contains(face)) builder.Add(rest, face);
  }
  return [...groups, [rest]];
}

/** Pairs of different solids that touch or overlap: legal in an assembly, so a warning. */
function interferenceIssues(oc: OC, own: Own, maps: ShapeMaps, budget: Budget): ValidationIssue[] {
  const solidMap = maps.find((m) => m.kind === 'SOLID')!.map;
  if (solidMap.Extent() < 2) return [];
  const solids: TopoDS_Shape[] = [];
  for (let i = 1; i <= solidMap.Extent(); i++) solids.push(own(solidMap.FindKey(i)));
  const pairs = solidContacts(oc, solids, { plan: (n) => (budget.planned += n), next: () => budget.next() });
  if (pairs.length === 0) return [];
  const involved = [...new Set(pairs.flatMap((p) => p.solids))];
  const tally = (kind: string) => pairs.filter((p) => p.contact === kind).length;
  const parts = [`${tally('overlap')} overlap`, `${tally('touch')} touch`, ...(tally('undetermined') ? [`${tally('undetermined')} undetermined`] : [])];
  const listed = pairs.slice(0, 5).map((p) => `${p.solids[0]}-${p.solids[1]} ${p.contact}`).join(', ');
  return [
    {
      ...issue('interference', 'warning', involved, `${pairs.length} pair(s) of solids are in contact (${parts.join(', ')}): ${listed}${pairs.length > 5 ? ' ...' : ''}`),
      pairs,
    },
  ];
}
