import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { topAbs, withKernel, type OC, type Own } from '../kernel';
import type { BrepBody } from './Body';

/**
 * A body of closed solids with open surfaces beside them: NIST's AP242 test parts keep construction
 * surfaces next to the part (CTC 02, CTC 04, FTC 08, FTC 10), some lying on the part's own faces with
 * the opposite orientation. The part is the solids: its volume is theirs, and a deviation measures
 * against (and samples) their faces only, or a surface lying on a face with the other orientation
 * would decide the sign of every sample there by a tie.
 */
export interface SolidsBeside {
  /** Per face (0-based TopExp.MapShapes index of the body): 1 when it bounds one of the closed solids. */
  solidFace: Uint8Array;
  solids: number;
  /** Faces outside every solid. */
  outside: number;
}

/** The body's closed solids and the faces outside them, or null when it is not such a body (cached). */
export function solidsBesideOf(oc: OC, body: BrepBody): SolidsBeside | null {
  return body.cache.get('solidsBeside', () => withKernel(oc, (own) => closedSolidsBesideSurfaces(oc, own, body.shape)?.beside ?? null));
}

/** `use` on the shape a body is measured by: its closed solids when open surfaces stand beside them, else its whole shape. */
export function onMeasuredShape<T>(oc: OC, body: BrepBody, use: (shape: TopoDS_Shape) => T): T {
  if (!solidsBesideOf(oc, body)) return use(body.shape);
  return withKernel(oc, (own) => use(closedSolidsBesideSurfaces(oc, own, body.shape)!.solids));
}

/**
 * Closed solids (and at least one face outside them) in `shape`: the solids as one compound for the
 * kernel's mass properties, and which faces are theirs. Null when the shape has no solid, an open
 * solid, or no face outside its solids.
 */
export function closedSolidsBesideSurfaces(oc: OC, own: Own, shape: TopoDS_Shape): { solids: TopoDS_Shape; beside: SolidsBeside } | null {
  const solids = own(new oc.TopTools_IndexedMapOfShape_1());
  oc.TopExp.MapShapes_1(shape, topAbs(oc, 'SOLID'), solids);
  if (solids.Extent() === 0) return null;
  const faces = own(new oc.TopTools_IndexedMapOfShape_1());
  oc.TopExp.MapShapes_1(shape, topAbs(oc, 'FACE'), faces);
  const builder = own(new oc.BRep_Builder());
  const compound = own(new oc.TopoDS_Compound());
  builder.MakeCompound(compound);
  const solidFace = new Uint8Array(faces.Extent());
  for (let i = 1; i <= solids.Extent(); i++) {
    const solid = own(solids.FindKey(i));
    if (!isClosedShape(oc, own, solid)) return null;
    const solidFaces = own(new oc.TopTools_IndexedMapOfShape_1());
    oc.TopExp.MapShapes_1(solid, topAbs(oc, 'FACE'), solidFaces);
    for (let k = 1; k <= solidFaces.Extent(); k++) {
      const at = faces.FindIndex(own(solidFaces.FindKey(k)));
      if (at > 0) solidFace[at - 1] = 1;
    }
    builder.Add(compound, solid);
  }
  let inside = 0;
  for (const f of solidFace) inside += f;
  const outside = solidFace.length - inside;
  if (outside === 0) return null;
  return { solids: compound, beside: { solidFace, solids: solids.Extent(), outside } };
}

/** Closed: it has shells, every shell has no free edge, and no face stands outside a shell. */
export function isClosedShape(oc: OC, own: Own, shape: TopoDS_Shape): boolean {
  const shells = own(new oc.TopTools_IndexedMapOfShape_1());
  oc.TopExp.MapShapes_1(shape, topAbs(oc, 'SHELL'), shells);
  if (shells.Extent() === 0) return false;
  for (let i = 1; i <= shells.Extent(); i++) if (!oc.BRep_Tool.IsClosed_1(own(shells.FindKey(i)))) return false;
  const looseFaces = own(new oc.TopExp_Explorer_2(shape, topAbs(oc, 'FACE'), topAbs(oc, 'SHELL')));
  return !looseFaces.More();
}
