import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { drainList, topAbs, withKernel, type OC, type Own } from '../kernel';

/**
 * Contact between different solids of one body (an assembly's touching or press-fitted parts). It is
 * not a defect of either solid, so validate_geometry and graph-validate report it as `interference`
 * (a warning) instead of as self-intersection (see docs/graph.md, "Interference").
 */

export type ContactKind = 'touch' | 'overlap' | 'undetermined';

export interface SolidContact {
  /** The two solids, lower index first (solid[N] ids of the body). */
  solids: [string, string];
  /** touch: they meet without sharing volume (within tolerance); overlap: they share volume; undetermined: the boolean failed. */
  contact: ContactKind;
  /** Volume of their common part (0 for a touch); null when it could not be computed. */
  overlapVolume: number | null;
}

/** Relative error target of the overlap volume's integration (compute_metrics' INTEGRATION_EPS). */
const INTEGRATION_EPS = 1e-9;
/** No solid has a tolerance below this (Precision::Confusion). */
const MIN_TOLERANCE = 1e-7;

interface Candidate {
  index: number;
  solid: TopoDS_Shape;
  tolerance: number;
  min: [number, number, number];
  max: [number, number, number];
}

/**
 * Every pair of solids that meet. Boxes first: solids whose boxes (widened by their tolerances) are
 * apart are skipped (a sweep along x over the quick boxes, then the tight AddOptimal boxes of the
 * solids left, which a B-spline control hull would otherwise inflate); each pair left gets one
 * General Fuse (non-destructive): a split solid that belongs to both is shared volume (overlap), a
 * shared vertex, edge or face only is a touch, nothing shared means apart.
 */
export function solidContacts(oc: OC, solids: TopoDS_Shape[], budget?: { plan: (booleans: number) => void; next: () => boolean }): SolidContact[] {
  return withKernel(oc, (own) => {
    // A solid without geometry (no shell) bounds nothing and meets nothing: its box is void.
    const quick = solids.flatMap((solid, index) => boxed(oc, own, solid, index, false) ?? []);
    const tight = new Map<number, Candidate>();
    const tightOf = (c: Candidate) => {
      if (!tight.has(c.index)) tight.set(c.index, boxed(oc, own, c.solid, c.index, true) ?? c);
      return tight.get(c.index)!;
    };
    const placement = placementKeys(oc, own, solids);
    // An assembly repeats parts (six bolts, six nuts): a pair of the same two parts in the same relative
    // placement as one already classified gets its answer without another boolean.
    const seen = new Map<string, Pick<SolidContact, 'contact' | 'overlapVolume'> | null>();
    const contacts: SolidContact[] = [];
    const candidates = sweepPairs(quick);
    budget?.plan(candidates.length);
    for (const [a, b] of candidates) {
      // The budget may stop here: the pairs not classified are not reported (the caller says so).
      if (budget && !budget.next()) break;
      if (!boxesMeet(tightOf(a), tightOf(b))) continue;
      const [first, second] = a.index < b.index ? [a, b] : [b, a];
      const key = placement(first.index, second.index);
      if (!seen.has(key)) {
        const found = classify(oc, first, second);
        seen.set(key, found && { contact: found.contact, overlapVolume: found.overlapVolume });
      }
      const known = seen.get(key);
      if (known) contacts.push({ solids: [`solid[${first.index}]`, `solid[${second.index}]`], ...known });
    }
    return contacts.sort((p, q) => indexOf(p.solids[0]) - indexOf(q.solids[0]) || indexOf(p.solids[1]) - indexOf(q.solids[1]));
  });
}

/** Pairs whose boxes meet, by sorting on x and sweeping (no all-pairs loop over separate parts). */
function sweepPairs(boxes: Candidate[]): [Candidate, Candidate][] {
  const order = [...boxes].sort((a, b) => a.min[0] - b.min[0]);
  const pairs: [Candidate, Candidate][] = [];
  for (let i = 0; i < order.length; i++) {
    const a = order[i]!;
    for (let j = i + 1; j < order.length && order[j]!.min[0] <= a.max[0]; j++) if (boxesMeet(a, order[j]!)) pairs.push([a, order[j]!]);
  }
  return pairs;
}

/**
 * Per pair of solid indices, a key that is equal for two pairs of the same parts (IsPartner: one
 * TShape) in the same relative placement (the second's location seen from the first's, to 1e-9).
 */
function placementKeys(oc: OC, own: Own, solids: TopoDS_Shape[]): (i: number, j: number) => string {
  const part: number[] = [];
  solids.forEach((s, i) => {
    const same = part.findIndex((_, k) => part[k] === k && solids[k]!.IsPartner(s));
    part.push(same >= 0 ? same : i);
  });
  return (i, j) => {
    const relative = own(own(own(solids[i]!.Location_1()).Inverted()).Multiplied(own(solids[j]!.Location_1())));
    const trsf = own(relative.Transformation());
    const entries: string[] = [];
    for (let r = 1; r <= 3; r++) for (let c = 1; c <= 4; c++) entries.push((Math.round(trsf.Value(r, c) * 1e9) / 1e9 || 0).toString());
    const reversed = (s: TopoDS_Shape) => (s.Orientation_1() === oc.TopAbs_Orientation.TopAbs_REVERSED ? 'R' : 'F');
    const orientation = reversed(solids[i]!) + reversed(solids[j]!);
    return `${part[i]}:${part[j]}:${orientation}:${entries.join(',')}`;
  };
}

const indexOf = (id: string): number => Number(id.slice(id.indexOf('[') + 1, -1));

function boxed(oc: OC, own: Own, solid: TopoDS_Shape, index: number, optimal: boolean): Candidate | null {
  const box = own(new oc.Bnd_Box_1());
  if (optimal) oc.BRepBndLib.AddOptimal(solid, box, false, false);
  else oc.BRepBndLib.Add(solid, box, false);
  if (box.IsVoid()) return null;
  const tolerance = Math.max(MIN_TOLERANCE, oc.BRep_Tool.MaxTolerance(solid, topAbs(oc, 'VERTEX')));
  box.SetGap(0);
  const lo = own(box.CornerMin()), hi = own(box.CornerMax());
  return { index, solid, tolerance, min: [lo.X() - tolerance, lo.Y() - tolerance, lo.Z() - tolerance], max: [hi.X() + tolerance, hi.Y() + tolerance, hi.Z() + tolerance] };
}

function boxesMeet(a: Candidate, b: Candidate): boolean {
  for (let k = 0; k < 3; k++) if (a.min[k]! > b.max[k]! || b.min[k]! > a.max[k]!) return false;
  return true;
}

function classify(oc: OC, first: Candidate, second: Candidate): SolidContact | null {
  return withKernel(oc, (own) => {
    const solids: [string, string] = [`solid[${first.index}]`, `solid[${second.index}]`];
    try {
      const args = own(new oc.TopTools_ListOfShape_1());
      own(args.Append_1(first.solid));
      own(args.Append_1(second.solid));
      const fuse = own(new oc.BRepAlgoAPI_BuilderAlgo_1());
      fuse.SetArguments(args);
      fuse.SetNonDestructive(true);
      fuse.Build(own(new oc.Message_ProgressRange_1()));
      if (fuse.HasErrors()) return { solids, contact: 'undetermined', overlapVolume: null };
      const imagesOf = (solid: TopoDS_Shape) => {
        const modified = drainList(own(fuse.Modified(solid))).map(own);
        return modified.length ? modified : [solid];
      };
      const imagesA = imagesOf(first.solid), imagesB = imagesOf(second.solid);
      // Shared volume: split solids that are images of both arguments.
      let volume = 0;
      for (const s of imagesA) {
        if (!imagesB.some((t) => t.IsSame(s))) continue;
        const props = own(new oc.GProp_GProps_1());
        oc.BRepGProp.VolumeProperties_2(s, props, INTEGRATION_EPS, false, false);
        volume += Math.abs(props.Mass());
      }
      if (volume > 0) return { solids, contact: 'overlap', overlapVolume: volume };
      const verticesA = own(new oc.TopTools_IndexedMapOfShape_1());
      for (const s of imagesA) oc.TopExp.MapShapes_1(s, topAbs(oc, 'VERTEX'), verticesA);
      const verticesB = own(new oc.TopTools_IndexedMapOfShape_1());
      for (const s of imagesB) oc.TopExp.MapShapes_1(s, topAbs(oc, 'VERTEX'), verticesB);
      for (let i = 1; i <= verticesB.Extent(); i++) if (verticesA.Contains(own(verticesB.FindKey(i)))) return { solids, contact: 'touch', overlapVolume: 0 };
      return null;
    } catch {
      return { solids, contact: 'undetermined', overlapVolume: null };
    }
  });
}
