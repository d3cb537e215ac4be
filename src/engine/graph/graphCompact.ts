import type { BRep_Builder, TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { isShapeKind, withKernel, type OC, type Own } from '../kernel';
import { buildTopologyGraph, type TopologyGraph } from './topologyGraph';

/**
 * Unreferenced, for graph-compact: a vertex, edge or wire that sits directly in a compound,
 * compsolid or solid (loose geometry: construction lines, stray points) rather than in a face; and a
 * container left with no face below it (an empty shell, solid or compound). Such members go; what a
 * face uses (its wires, edges, vertices) always stays, so a loose member that duplicates a face's
 * edge leaves the counts unchanged. Faces are never removed: removed.faces is reported for the
 * spec's shape and is 0 by this definition. A root that is itself a loose wire, edge or vertex
 * becomes an empty compound.
 */
export interface CompactResult {
  /** Graph nodes: solids + shells + faces + wires + edges + vertices + coedges. */
  nodesBefore: number;
  nodesAfter: number;
  removed: { vertices: number; edges: number; faces: number };
}

function countNodes(g: TopologyGraph): number {
  return g.solids.length + g.shells.length + g.faces.length + g.wires.length + g.edges.length + g.vertices.length + g.coedges.length;
}

/** A new shape without the unreferenced members (the caller owns it) and the counts. */
export function compactShape(oc: OC, shape: TopoDS_Shape): { shape: TopoDS_Shape; result: CompactResult } {
  const before = buildTopologyGraph(oc, shape, { convexity: false });
  const compacted = withKernel(oc, (own) => {
    const builder = own(new oc.BRep_Builder());
    const rebuilt = rebuild(oc, own, builder, shape);
    if (rebuilt) return rebuilt;
    const empty = new oc.TopoDS_Compound();
    builder.MakeCompound(empty);
    return empty;
  });
  const after = buildTopologyGraph(oc, compacted, { convexity: false });
  return {
    shape: compacted,
    result: {
      nodesBefore: countNodes(before),
      nodesAfter: countNodes(after),
      removed: {
        vertices: before.vertices.length - after.vertices.length,
        edges: before.edges.length - after.edges.length,
        faces: before.faces.length - after.faces.length,
      },
    },
  };
}

/** The shape without unreferenced members, or undefined when nothing of it stays; not owned by `own`. */
function rebuild(oc: OC, own: Own, builder: BRep_Builder, shape: TopoDS_Shape): TopoDS_Shape | undefined {
  const kind = shape.ShapeType();
  // Oriented() with the shape's own orientation is the bindings' way to copy a TopoDS_Shape handle.
  if (isShapeKind(oc, kind, 'FACE')) return shape.Oriented(shape.Orientation_1());
  if (isShapeKind(oc, kind, 'SHELL')) {
    const it = own(new oc.TopoDS_Iterator_2(shape, false, false));
    return it.More() ? shape.Oriented(shape.Orientation_1()) : undefined;
  }
  if (!isShapeKind(oc, kind, 'COMPOUND') && !isShapeKind(oc, kind, 'COMPSOLID') && !isShapeKind(oc, kind, 'SOLID')) return undefined;
  // Same kind, no children yet. BRep_Builder::Add makes a child relative to its parent's placement,
  // so the copy stays unplaced and forward while the children (already relative) go in, and takes
  // the original's location and orientation afterwards.
  const copy = shape.EmptyCopied();
  copy.Location_2(own(new oc.TopLoc_Location_1()), false);
  copy.Orientation_2(oc.TopAbs_Orientation.TopAbs_FORWARD as never);
  let kept = 0;
  try {
    for (const it = own(new oc.TopoDS_Iterator_2(shape, false, false)); it.More(); it.Next()) {
      const child = rebuild(oc, own, builder, own(it.Value()));
      if (!child) continue;
      builder.Add(copy, own(child));
      kept++;
    }
    copy.Location_2(own(shape.Location_1()), false);
    copy.Orientation_2(shape.Orientation_1());
  } catch (e) {
    copy.delete();
    throw e;
  }
  if (kept > 0) return copy;
  copy.delete();
  return undefined;
}
