import type { TDocStd_Document, TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { BrepscopeError } from '../../errors';
import type { OC, Own } from '../../kernel';
import { withXcafDocument } from './xcafDocument';

/**
 * Reads an XCAF binary document (XBF, the BinXCAF storage format) into one shape: the document's
 * free shapes (top-level labels no assembly references), a compound when there are several. An
 * assembly root comes back as its compound with the component placements applied.
 *
 * Each call opens the document in its own TDocStd_Application at a unique path and closes it, so
 * no session state survives between reads (reopening a path yields PCDM_RS_AlreadyRetrieved).
 */
export function readXbfShape(oc: OC, bytes: Uint8Array, name: string): TopoDS_Shape {
  return withXcafDocument(oc, bytes, name, 'xbf', (doc, own) => freeShapes(oc, own, doc, name));
}

/** The document's free shapes as one shape the caller owns. */
function freeShapes(oc: OC, own: Own, doc: TDocStd_Document, name: string): TopoDS_Shape {
  const shapeTool = own(oc.XCAFDoc_DocumentTool.ShapeTool(own(doc.Main())));
  const labels = own(new oc.TDF_LabelSequence_1());
  shapeTool.get().GetFreeShapes(labels);
  const shapes: TopoDS_Shape[] = [];
  try {
    for (let i = 1; i <= labels.Length(); i++) {
      const shape = oc.XCAFDoc_ShapeTool.GetShape_2(own(labels.Value(i)));
      if (shape.IsNull()) shape.delete();
      else shapes.push(shape);
    }
    if (shapes.length === 0) {
      throw new BrepscopeError('PARSE_FAILED', `${name}: the XBF document holds no shape (${labels.Length()} free labels, none with a shape)`);
    }
    if (shapes.length === 1) return shapes.pop()!;
    const compound = new oc.TopoDS_Compound();
    try {
      const builder = own(new oc.BRep_Builder());
      builder.MakeCompound(compound);
      for (const s of shapes) builder.Add(compound, s);
    } catch (e) {
      compound.delete();
      throw e;
    }
    return compound;
  } finally {
    // The compound holds its own references to the parts; the single-shape case popped its shape.
    for (const s of shapes) s.delete();
  }
}
