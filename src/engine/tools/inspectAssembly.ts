import { surfaceBody } from '../scene/pointsBody';
import type { TCollection_ExtendedString, TDF_Label, TDocStd_Document, TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { z } from 'zod';
import { BrepscopeError } from '../errors';
import { topAbs, type OC, type Own } from '../kernel';
import { toMatrix4, type Matrix4 } from '../math/rigid';
import { baseName, resolveFormat } from '../scene/import/detectFormat';
import { listNames, stepExternalFiles } from '../scene/import/stepExternalRefs';
import { withXcafDocument } from '../scene/import/xcafDocument';
import { shapeTypeName } from '../scene/typeNames';
import { defineTool } from './defineTool';
import { bodyIdSchema } from './schemas';
import { warning, type ToolWarning } from '../warnings';

export type { Matrix4 };

export interface AssemblyNode {
  name: string;
  /** The XCAF label entry (e.g. 0:1:1:3): the instance's own label for components. */
  label?: string;
  /** Leaf only: the shape's type (solid, shell, compound, ...). */
  shape?: string;
  /** Placement relative to the parent node, row-major, four rows of four. */
  transform: Matrix4;
  /** Placement in the file's world frame (the product of the transforms from the root). */
  worldTransform: Matrix4;
  children: AssemblyNode[];
  /** Present (true) when depth cut this node's children off. */
  truncated?: boolean;
  /** Root only, when there is a caveat: EXTERNAL_REFERENCES (parts in other files, not read). */
  warnings?: ToolWarning[];
}

const schema = z
  .strictObject({
    bodyId: bodyIdSchema.optional().describe('Scene body: gives a single-node tree'),
    inputPath: z.string().min(1).optional().describe('STEP, IGES or XBF file for the full multi-level tree (browser: the name of a loaded file)'),
    depth: z.int().min(0).optional().describe('Maximum traversal depth (0: the root alone). Default unlimited'),
  })
  .superRefine((a, ctx) => {
    if (a.bodyId === undefined && a.inputPath === undefined) ctx.addIssue({ code: 'custom', path: [], message: 'give bodyId (a scene body) or inputPath (an assembly file)' });
    if (a.bodyId !== undefined && a.inputPath !== undefined) ctx.addIssue({ code: 'custom', path: ['inputPath'], message: 'give bodyId or inputPath, not both' });
  });

const IDENTITY: Matrix4 = [
  [1, 0, 0, 0],
  [0, 1, 0, 0],
  [0, 0, 1, 0],
  [0, 0, 0, 1],
];

export const inspectAssembly = defineTool({
  name: 'inspect_assembly',
  description:
    'The assembly tree of a STEP, IGES or XBF file (inputPath): nodes with name, children, shape type on leaves, and placement as 4x4 row-major matrices (transform relative to the parent, worldTransform from the root). A scene body (bodyId) gives a single-node tree. depth limits the traversal.',
  category: 'scene',
  schema,
  async run(args, ctx) {
    const oc = await ctx.kernel();
    if (args.bodyId !== undefined) {
      const body = surfaceBody(ctx.scene.get(args.bodyId), 'inspect_assembly', 'a shape (a part or an assembly of parts)');
      const shape = body.kind === 'brep' ? shapeTypeOf(oc, body.shape) : 'shell';
      // A placed body (an applied alignment, set_placement) stands where its placement puts it.
      const placed = body.placement ? toMatrix4(body.placement.motion) : IDENTITY;
      return { name: body.name, shape, transform: placed, worldTransform: placed, children: [] } satisfies AssemblyNode;
    }
    const path = args.inputPath!;
    // Only the kernel reads it (STEP, IGES or XBF): the kernel's size limit, whatever the file's name.
    const bytes = await ctx.files.read(path, { format: 'step' });
    // As import_file says it: not "not a STEP file (no header)" for a .step of zero bytes.
    if (bytes.byteLength === 0) throw new BrepscopeError('EMPTY_FILE', `${path}: the file is empty`);
    const format = resolveFormat(path, bytes);
    if (format !== 'step' && format !== 'iges' && format !== 'xbf') {
      throw new BrepscopeError('UNSUPPORTED_FORMAT', `${path}: inspect_assembly reads STEP, IGES or XBF, not ${format.toUpperCase()}; import it and pass its bodyId for a single-node tree`);
    }
    const maxDepth = args.depth ?? Infinity;
    const hollow: string[] = [];
    const tree = withXcafDocument(oc, bytes, path, format, (doc, own) => assemblyTree(oc, own, doc, baseName(path), maxDepth, hollow));
    const external = format === 'step' ? stepExternalFiles(bytes) : [];
    if (external.length) {
      const empty = hollow.length ? `: ${hollow.length} node(s) stand for them without content (${listNames(hollow)})` : '';
      tree.warnings = [warning('EXTERNAL_REFERENCES', `the file names ${external.length} other STEP file(s) for its parts (${listNames(external)}); external references are not followed${empty}`)];
    }
    return tree;
  },
});

/** hollow collects the names of leaves whose shape has no vertex at all (an external reference's empty compound). */
function assemblyTree(oc: OC, own: Own, doc: TDocStd_Document, fileName: string, maxDepth: number, hollow: string[]): AssemblyNode {
  const visit = (label: TDF_Label, parentWorld: Matrix4, depth: number): AssemblyNode => visitNode(oc, own, label, parentWorld, depth, maxDepth, hollow);
  const tool = own(oc.XCAFDoc_DocumentTool.ShapeTool(own(doc.Main()))).get();
  const free = own(new oc.TDF_LabelSequence_1());
  tool.GetFreeShapes(free);
  const roots: TDF_Label[] = [];
  for (let i = 1; i <= free.Length(); i++) roots.push(own(free.Value(i)));
  if (roots.length === 0) throw new BrepscopeError('PARSE_FAILED', `${fileName}: the file holds no shape`);
  if (roots.length === 1) return visit(roots[0]!, IDENTITY, 0);
  // Several top-level shapes: a root named after the file gathers them.
  const root: AssemblyNode = { name: fileName, transform: IDENTITY, worldTransform: IDENTITY, children: [] };
  if (maxDepth === 0) return { ...root, truncated: true };
  root.children = roots.map((label) => visit(label, IDENTITY, 1));
  return root;
}

function visitNode(oc: OC, own: Own, label: TDF_Label, parentWorld: Matrix4, depth: number, maxDepth: number, hollow: string[]): AssemblyNode {
  const ST = oc.XCAFDoc_ShapeTool;
  const referred = own(new oc.TDF_Label());
  const target = ST.IsReference(label) && ST.GetReferredShape(label, referred) ? referred : label;
  const transform = locationMatrix(oc, own, label);
  const worldTransform = multiply(parentWorld, transform);
  const node: AssemblyNode = { name: nodeName(oc, own, label, target), label: entry(oc, own, label), transform, worldTransform, children: [] };
  if (!ST.IsAssembly(target)) {
    const shape = own(ST.GetShape_2(target));
    node.shape = shapeTypeOf(oc, shape);
    if (shape.IsNull() || !own(new oc.TopExp_Explorer_2(shape, topAbs(oc, 'VERTEX'), topAbs(oc, 'SHAPE'))).More()) hollow.push(node.name);
    return node;
  }
  const components = own(new oc.TDF_LabelSequence_1());
  ST.GetComponents(target, components, false);
  if (depth >= maxDepth) {
    if (components.Length() > 0) node.truncated = true;
    return node;
  }
  for (let i = 1; i <= components.Length(); i++) node.children.push(visitNode(oc, own, own(components.Value(i)), worldTransform, depth + 1, maxDepth, hollow));
  return node;
}

/** An instance's own name, unless it is OCCT's generated `=>[0:1:1:n]`; then the part's name. */
function nodeName(oc: OC, own: Own, label: TDF_Label, target: TDF_Label): string {
  const own_ = labelName(oc, own, label);
  if (own_ && !own_.startsWith('=>')) return own_;
  return labelName(oc, own, target) ?? own_ ?? entry(oc, own, target);
}

function labelName(oc: OC, own: Own, label: TDF_Label): string | undefined {
  const attribute = own(new oc.Handle_TDF_Attribute_1());
  if (!label.FindAttribute_1(own(oc.TDataStd_Name.GetID()), attribute)) return undefined;
  // embind hands back the most-derived type (TDataStd_Name); its char16 Value() is unbound, so go through ASCII.
  const nameAttribute = attribute.get() as unknown as { Get(): TCollection_ExtendedString };
  const ascii = own(new oc.TCollection_AsciiString_13(own(nameAttribute.Get()), 63 /* '?' for non-ASCII */));
  return ascii.ToCString();
}

function entry(oc: OC, own: Own, label: TDF_Label): string {
  const text = own(new oc.TCollection_AsciiString_1());
  oc.TDF_Tool.Entry(label, text);
  return text.ToCString();
}

function locationMatrix(oc: OC, own: Own, label: TDF_Label): Matrix4 {
  const trsf = own(own(oc.XCAFDoc_ShapeTool.GetLocation(label)).Transformation());
  const rows: number[][] = [];
  for (let r = 1; r <= 3; r++) rows.push([1, 2, 3, 4].map((c) => cleanZero(trsf.Value(r, c))));
  return [rows[0]!, rows[1]!, rows[2]!, [0, 0, 0, 1]];
}

const cleanZero = (v: number): number => (v === 0 ? 0 : v);

function multiply(a: Matrix4, b: Matrix4): Matrix4 {
  return a.map((row) => [0, 1, 2, 3].map((c) => cleanZero(row[0]! * b[0]![c]! + row[1]! * b[1]![c]! + row[2]! * b[2]![c]! + row[3]! * b[3]![c]!))) as Matrix4;
}

/** Lower-case shape type of a leaf (solid, shell, compound ...); `empty` for a null shape. */
function shapeTypeOf(oc: OC, shape: TopoDS_Shape): string {
  return shape.IsNull() ? 'empty' : shapeTypeName(oc, shape.ShapeType()).toLowerCase();
}
