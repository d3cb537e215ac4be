import type { STEPCAFControl_Reader, TDF_Label, TDF_LabelSequence, TDocStd_Document, TopoDS_Shape, TopTools_IndexedMapOfShape } from 'opencascade.js/dist/opencascade.full';
import { warning, type ToolWarning } from '../warnings';
import type { OC, Own } from '../kernel';
import { withXcafDocument } from '../scene/import/xcafDocument';
import { mapEntities, type EntityKind } from '../scene/topology';
import { keptInFileUnit, StepText, type FileTolerance, type TargetPlace } from './stepText';

/**
 * The semantic PMI of a STEP file (AP242, AP214/AP203 with PMI) as read by OCCT's XCAF reader in GDT
 * mode: datums, dimensions and geometric tolerances with the faces they apply to, in the body's own
 * face[N] numbering. Lengths in mm (the engine's unit), angles in degrees.
 */
export interface PmiDatum {
  label: string;
  faces: string[];
  /** What the datum feature is, from its faces: plane, axis (a cylinder or cone), point (a sphere), surface, or unknown (no face attached). */
  kind: 'plane' | 'axis' | 'point' | 'surface' | 'unknown';
  /**
   * A datum without faces defined by datum targets (read from the STEP text): each target's id (A1),
   * kind (point, line, rectangle, circle, circular curve ...) and, when the file places it, its
   * location, placement z (`normal`) and x (`direction`), and sizes, in mm.
   */
  targets?: PmiDatumTarget[];
}

export interface PmiDatumTarget extends TargetPlace {
  /** The sizes' numbers read in the coordinates' unit, when the file names another unit for them (mm). */
  inCoordinateUnit?: { length?: number; width?: number; diameter?: number };
}

/** "3 datum targets (A1, A2, A3: points)". */
export function targetList(targets: { id: string; kind: string }[]): string {
  const kinds = [...new Set(targets.map((t) => t.kind))].map((k) => (targets.filter((t) => t.kind === k).length > 1 ? `${k}s` : k));
  return `${targets.length} datum target${targets.length > 1 ? 's' : ''} (${targets.map((t) => t.id).join(', ')}: ${kinds.join(', ')})`;
}

export interface PmiDimension {
  id: string;
  /** diameter, radius, distance, angle, thickness, ... in words. */
  kind: string;
  /** The semantic name the file gives (e.g. "diameter", "linear distance"). */
  name: string;
  nominal: number | null;
  /** Upper and lower deviations from nominal (upper >= lower; lower is negative for a minus tolerance). */
  upper: number | null;
  lower: number | null;
  faces: string[];
  modifiers: string[];
}

export interface PmiTolerance {
  id: string;
  /** flatness, perpendicularity, position, surfaceProfile, ... in words. */
  kind: string;
  name: string;
  /** Tolerance zone size (mm); null when the file gives none. */
  value: number | null;
  /** diameter (a cylindrical zone), sphericalDiameter, or width (two planes / two surfaces). */
  zone: 'width' | 'diameter' | 'sphericalDiameter';
  modifiers: string[];
  /** Datum labels in precedence order (primary first). */
  datums: string[];
  faces: string[];
  /**
   * A segment of a composite feature control frame (ASME Y14.5 10.5.1, 11.6), with the other
   * segment's id: the lower segment's datums orient its zone only (they do not locate it).
   */
  composite?: { segment: 'upper' | 'lower'; with: string };
  /**
   * A callout on the whole part (the drawing's general profile note: the STEP shape aspect is the
   * part's own shape). Its `faces` are those no other profile or position names.
   */
  general?: true;
  /** A zone per unit length (STEP GEOMETRIC_TOLERANCE_WITH_DEFINED_UNIT, drawn "0.2/15"): the length (mm) every portion of which the zone applies to. */
  perLength?: number;
  /** A zone per unit area (GEOMETRIC_TOLERANCE_WITH_DEFINED_AREA_UNIT): the area's shape and sides (mm). */
  perArea?: { shape: string; size: number | null; second: number | null };
}

export interface PmiResult {
  datums: PmiDatum[];
  dimensions: PmiDimension[];
  tolerances: PmiTolerance[];
  /** Codes first (NO_PMI, VALUE_FROM_STEP_TEXT, ...), then the detail. */
  warnings: ToolWarning[];
}

const TOLERANCE_KIND: Record<string, string> = {
  Angularity: 'angularity',
  CircularRunout: 'circularRunout',
  CircularityOrRoundness: 'roundness',
  Coaxiality: 'coaxiality',
  Concentricity: 'concentricity',
  Cylindricity: 'cylindricity',
  Flatness: 'flatness',
  Parallelism: 'parallelism',
  Perpendicularity: 'perpendicularity',
  Position: 'position',
  ProfileOfLine: 'lineProfile',
  ProfileOfSurface: 'surfaceProfile',
  Straightness: 'straightness',
  Symmetry: 'symmetry',
  TotalRunout: 'totalRunout',
};

const DIMENSION_KIND: Record<string, string> = {
  Location_None: 'location',
  Location_CurvedDistance: 'curvedDistance',
  Location_LinearDistance: 'distance',
  Location_Angular: 'angle',
  Location_Oriented: 'orientedDistance',
  Location_WithPath: 'distanceAlongPath',
  Size_CurveLength: 'curveLength',
  Size_Diameter: 'diameter',
  Size_SphericalDiameter: 'sphericalDiameter',
  Size_Radius: 'radius',
  Size_SphericalRadius: 'sphericalRadius',
  Size_Thickness: 'thickness',
  Size_Angular: 'angle',
  Size_WithPath: 'lengthAlongPath',
};

const MATERIAL: Record<string, string> = { M: 'maximumMaterial', L: 'leastMaterial' };

/** Lower camel case of an OCCT enum suffix: Free_State -> freeState, Each_Radial_Element -> eachRadialElement. */
function words(suffix: string): string {
  const parts = suffix.split('_').filter(Boolean);
  return parts.map((p, i) => (i === 0 ? p.charAt(0).toLowerCase() + p.slice(1) : p.charAt(0).toUpperCase() + p.slice(1))).join('');
}

function enumSuffix(table: object, value: unknown, prefix: string): string {
  const key = Object.keys(table).find((k) => (table as Record<string, unknown>)[k] === value);
  return key ? key.slice(prefix.length) : 'unknown';
}

/**
 * Reads the PMI of a STEP file. `bodyShape` is the body's own shape (as read from the same file):
 * its face count and surface types are checked against the document's, so that face[N] means the
 * same face. `fileUnitMm` is the file's length unit in mm (1 when it declares none).
 */
export function readPmi(oc: OC, bytes: Uint8Array, name: string, bodyShape: TopoDS_Shape, fileUnitMm: number): PmiResult {
  return withXcafDocument(oc, bytes, name, 'step', (doc, own, reader) => walk(oc, own, doc, reader, bytes, bodyShape, fileUnitMm), { gdt: true });
}

function walk(oc: OC, own: Own, doc: TDocStd_Document, reader: STEPCAFControl_Reader | undefined, bytes: Uint8Array, bodyShape: TopoDS_Shape, fileUnitMm: number): PmiResult {
  const warnings: ToolWarning[] = [];
  const main = own(doc.Main());
  const dimTol = own(oc.XCAFDoc_DocumentTool.DimTolTool(main)).get();
  const shapeTool = own(oc.XCAFDoc_DocumentTool.ShapeTool(main)).get();
  const labels = (fill: (seq: TDF_LabelSequence) => void): TDF_Label[] => {
    const seq = own(new oc.TDF_LabelSequence_1());
    fill(seq);
    const out: TDF_Label[] = [];
    for (let i = 1; i <= seq.Length(); i++) out.push(own(seq.Value(i)));
    return out;
  };
  const tolLabels = labels((s) => dimTol.GetGeomToleranceLabels(s));
  const dimLabels = labels((s) => dimTol.GetDimensionLabels(s));
  const datumLabels = labels((s) => dimTol.GetDatumLabels(s));
  if (tolLabels.length + dimLabels.length + datumLabels.length === 0) {
    return { datums: [], dimensions: [], tolerances: [], warnings: [warning('NO_PMI', 'the file carries no semantic PMI (datums, dimensions, geometric tolerances); graphical PMI, if any, is not read')] };
  }

  // The document's shape, enumerated like the body's: one free shape, or a compound of several.
  const roots = labels((s) => shapeTool.GetFreeShapes(s));
  let docShape: TopoDS_Shape;
  if (roots.length === 1) docShape = own(oc.XCAFDoc_ShapeTool.GetShape_2(roots[0]!));
  else {
    const compound = own(new oc.TopoDS_Compound());
    const builder = own(new oc.BRep_Builder());
    builder.MakeCompound(compound);
    for (const r of roots) builder.Add(compound, own(oc.XCAFDoc_ShapeTool.GetShape_2(r)));
    docShape = compound;
  }
  const maps: Record<EntityKind, TopTools_IndexedMapOfShape> = {
    face: mapEntities(oc, own, docShape, 'face'),
    edge: mapEntities(oc, own, docShape, 'edge'),
    vertex: mapEntities(oc, own, docShape, 'vertex'),
  };
  const bodyFaces = mapEntities(oc, own, bodyShape, 'face');
  let numberingChecked = bodyFaces.Extent() === maps.face.Extent();
  if (!numberingChecked) warnings.push(warning('FACE_NUMBERING_MISMATCH', `the body has ${bodyFaces.Extent()} faces, the file's PMI document ${maps.face.Extent()}; face ids may not name the faces the PMI means`));
  const surfaceType = (shape: TopoDS_Shape): number => {
    const adaptor = own(new oc.BRepAdaptor_Surface_2(oc.TopoDS.Face_1(shape), false));
    return adaptor.GetType() as unknown as number;
  };

  const kindNames: EntityKind[] = ['face', 'edge', 'vertex'];
  const topAbs = [oc.TopAbs_ShapeEnum.TopAbs_FACE, oc.TopAbs_ShapeEnum.TopAbs_EDGE, oc.TopAbs_ShapeEnum.TopAbs_VERTEX];
  const unmapped = new Set<string>();
  const surfaceTypes = new Map<string, string>();
  /** face[N] (or edge[N], vertex[N]) of each shape a PMI label refers to; a solid or shell stands for its faces. */
  const idsOf = (seq: TDF_Label[]): string[] => {
    const out: string[] = [];
    for (const l of seq) {
      const shape = own(oc.XCAFDoc_ShapeTool.GetShape_2(l));
      if (shape.IsNull()) continue;
      const k = topAbs.findIndex((t) => t === shape.ShapeType());
      if (k < 0) {
        // A solid, shell or compound: its faces.
        const sub = mapEntities(oc, own, shape, 'face');
        for (let i = 1; i <= sub.Extent(); i++) {
          const idx = maps.face.FindIndex(own(sub.FindKey(i)));
          if (idx > 0) out.push(`face[${idx - 1}]`);
        }
        continue;
      }
      const kind = kindNames[k]!;
      const idx = maps[kind].FindIndex(shape);
      if (idx <= 0) {
        unmapped.add(entry(oc, own, l));
        continue;
      }
      const id = `${kind}[${idx - 1}]`;
      if (kind === 'face' && numberingChecked && idx <= bodyFaces.Extent()) {
        const a = surfaceType(shape), b = surfaceType(own(bodyFaces.FindKey(idx)));
        if (a !== b) {
          numberingChecked = false;
          warnings.push(warning('FACE_NUMBERING_MISMATCH', `${id} of the body is not the face the PMI document numbers so (different surface types)`));
        }
        surfaceTypes.set(id, enumSuffix(oc.GeomAbs_SurfaceType, b, 'GeomAbs_'));
      }
      out.push(id);
    }
    return [...new Set(out)];
  };
  const refShapes = (l: TDF_Label): { first: string[]; second: string[] } => {
    const first = own(new oc.TDF_LabelSequence_1()), second = own(new oc.TDF_LabelSequence_1());
    dimTol.GetRefShapeLabel(l, first, second);
    const list = (s: TDF_LabelSequence) => Array.from({ length: s.Length() }, (_, i) => own(s.Value(i + 1)));
    return { first: idsOf(list(first)), second: idsOf(list(second)) };
  };
  const attribute = <T>(l: TDF_Label, id: unknown): T | null => {
    const h = own(new oc.Handle_TDF_Attribute_1());
    if (!l.FindAttribute_1(id as never, h)) return null;
    return h.get() as unknown as T;
  };
  const text = (h: HString): string => (h.IsNull() ? '' : h.get().ToCString());

  // Datums: one entry per label letter, faces gathered over every datum label of that letter.
  const datums = new Map<string, Set<string>>();
  for (const l of datumLabels) {
    const attr = attribute<{ GetObject(): never }>(l, own(oc.XCAFDoc_Datum.GetID()));
    if (!attr) continue;
    const object = own(attr.GetObject() as unknown as { get(): { GetName(): HString }; delete(): void });
    const label = text(own(object.get().GetName()));
    const faces = datums.get(label) ?? new Set<string>();
    for (const f of refShapes(l).first) faces.add(f);
    datums.set(label, faces);
  }

  let step: StepText | null = null;
  // Datums the reader left out (NIST CTC 3's F: a DATUM no tolerance refers to): listed from the file,
  // their faces found below as for a datum the reader gave no faces.
  const datumsFromFile: string[] = [];
  if (reader) {
    step ??= new StepText(bytes);
    for (const label of step.datumLabels()) {
      if (datums.has(label) || [...datums.keys()].some((k) => k.split('-').includes(label))) continue;
      datums.set(label, new Set());
      datumsFromFile.push(label);
    }
    if (datumsFromFile.length) warnings.push(warning('DATUM_FROM_STEP_TEXT', `the kernel's reader gave no datum ${datumsFromFile.join(', ')}; listed from the file's DATUM entities`));
  }
  // Datums the reader gave no faces: their features' faces from the file (the usage form it skips),
  // each STEP face entity taken to its shape through the reader's transfer map.
  const faceless = [...datums.entries()].filter(([, f]) => f.size === 0);
  if (faceless.length && reader) {
    step ??= new StepText(bytes);
    const text = step;
    const shapeOf = entityShapes(oc, own, reader, text.ids);
    let recovered = 0;
    for (const [label, faces] of faceless) {
      for (const entity of text.datumFaceEntities(label)) {
        const shape = shapeOf(entity);
        const idx = shape ? maps.face.FindIndex(shape) : 0;
        if (idx > 0) {
          faces.add(`face[${idx - 1}]`);
          if (idx <= bodyFaces.Extent()) surfaceTypes.set(`face[${idx - 1}]`, enumSuffix(oc.GeomAbs_SurfaceType, surfaceType(own(bodyFaces.FindKey(idx))), 'GeomAbs_'));
        }
      }
      if (faces.size) recovered++;
    }
    if (recovered) warnings.push(warning('DATUM_FACES_FROM_STEP_TEXT', `the faces of ${recovered} datum(s) were read from the file's datum features (the kernel's reader attached none)`));
  }

  const tolerances: PmiTolerance[] = [];
  const fromText: string[] = [];
  tolLabels.forEach((l, i) => {
    const attr = attribute<{ GetObject(): never }>(l, own(oc.XCAFDoc_GeomTolerance.GetID()));
    if (!attr) return;
    const handle = own(attr.GetObject() as unknown as { get(): GeomTolObject; delete(): void });
    const o = handle.get();
    const name = text(own(o.GetSemanticName()));
    const kindKey = enumSuffix(oc.XCAFDimTolObjects_GeomToleranceType, o.GetType(), 'XCAFDimTolObjects_GeomToleranceType_');
    let value: number | null = o.GetValue();
    if (!(value > 0)) {
      step ??= new StepText(bytes);
      value = name ? step.toleranceMagnitude(name, fileUnitMm) : null;
      if (value !== null) fromText.push(name);
    }
    const typeOfValue = enumSuffix(oc.XCAFDimTolObjects_GeomToleranceTypeValue, o.GetTypeOfValue(), 'XCAFDimTolObjects_GeomToleranceTypeValue_');
    const modifiers: string[] = [];
    const material = enumSuffix(oc.XCAFDimTolObjects_GeomToleranceMatReqModif, o.GetMaterialRequirementModifier(), 'XCAFDimTolObjects_GeomToleranceMatReqModif_');
    if (MATERIAL[material]) modifiers.push(MATERIAL[material]!);
    const zoneModifier = enumSuffix(oc.XCAFDimTolObjects_GeomToleranceZoneModif, o.GetZoneModifier(), 'XCAFDimTolObjects_GeomToleranceZoneModif_');
    if (zoneModifier !== 'None' && zoneModifier !== 'unknown') modifiers.push(words(zoneModifier));
    const seq = own(o.GetModifiers());
    for (let k = 1; k <= seq.Length(); k++) modifiers.push(words(enumSuffix(oc.XCAFDimTolObjects_GeomToleranceModif, seq.Value(k), 'XCAFDimTolObjects_GeomToleranceModif_')));
    const datumSeq = labels((s) => dimTol.GetDatumWithObjectOfTolerLabels(l, s));
    const refs: { label: string; position: number }[] = [];
    for (const d of datumSeq) {
      const da = attribute<{ GetObject(): never }>(d, own(oc.XCAFDoc_Datum.GetID()));
      if (!da) continue;
      const dobj = own(da.GetObject() as unknown as { get(): { GetName(): HString; GetPosition(): number }; delete(): void }).get();
      refs.push({ label: text(own(dobj.GetName())), position: dobj.GetPosition() });
    }
    refs.sort((a, b) => a.position - b.position);
    tolerances.push({
      id: `tolerance[${i}]`,
      kind: TOLERANCE_KIND[kindKey] ?? words(kindKey),
      name,
      value,
      zone: typeOfValue === 'Diameter' ? 'diameter' : typeOfValue === 'SphericalDiameter' ? 'sphericalDiameter' : 'width',
      modifiers,
      datums: datumReference(refs),
      faces: refShapes(l).first,
    });
  });
  if (reader) {
    step ??= new StepText(bytes);
    const skipped = fileTolerances(step, fileUnitMm, tolerances);
    if (skipped.length) {
      const shapeOf = entityShapes(oc, own, reader, step.ids);
      const notes: string[] = [];
      for (const t of skipped) {
        let faces: string[] = [];
        let where = '';
        if (t.aspectType === 'PRODUCT_DEFINITION_SHAPE') {
          // The part's own shape: the callout applies to the whole part (a general profile note).
          faces = Array.from({ length: bodyFaces.Extent() }, (_, k) => `face[${k}]`);
          where = 'on the whole part (a general note: it governs the faces no other profile or position names)';
        } else if (t.aspect !== null) {
          for (const entity of step.aspectFaceEntities(t.aspect)) {
            const shape = shapeOf(entity);
            const idx = shape ? maps.face.FindIndex(shape) : 0;
            if (idx > 0) faces.push(`face[${idx - 1}]`);
          }
          faces = [...new Set(faces)].sort(byIndex);
          const pattern = t.aspectType === 'COMPOSITE_GROUP_SHAPE_ASPECT' ? 'on a pattern of features, ' : '';
          // NIST CTC 4's and FTC 10's threaded-hole patterns name supplemental geometry (a curve set), no face.
          const others = faces.length ? [] : step.aspectOtherItems(t.aspect);
          where = `${pattern}${faces.length} face${faces.length === 1 ? '' : 's'}${others.length ? ` (the file names no face of the part, only ${others.join(', ')})` : ''}`;
        }
        const basis = t.perLength !== null ? `, per unit length ${round6(t.perLength)}` : t.perArea ? `, per unit area (${t.perArea.shape} ${[t.perArea.size, t.perArea.second].filter((x) => x !== null).map((x) => round6(x!)).join(' x ')})` : '';
        notes.push(`${t.name || `#${t.entity}`} (#${t.entity}: ${t.kind} ${t.magnitude === null ? 'without a value' : round6(t.magnitude)}${basis}, ${where || 'no faces'})`);
        tolerances.push({
          id: `tolerance[${tolLabels.length + notes.length - 1}]`,
          kind: t.kind,
          name: t.name,
          value: t.magnitude,
          zone: t.zone,
          modifiers: t.modifiers,
          datums: t.datums,
          faces,
          ...(t.aspectType === 'PRODUCT_DEFINITION_SHAPE' ? { general: true } : {}),
          ...(t.perLength !== null ? { perLength: t.perLength } : {}),
          ...(t.perArea ? { perArea: t.perArea } : {}),
        });
      }
      warnings.push(warning('TOLERANCE_FROM_STEP_TEXT', `the kernel's reader skipped ${skipped.length} geometric tolerance(s) of the file: ${notes.join('; ')}; listed from the file's own entities`));
    }
  }
  if (fromText.length) warnings.push(warning('VALUE_FROM_STEP_TEXT', `the kernel's reader gave no magnitude for ${fromText.length} tolerance(s) (${fromText.join(', ')}); read from the file's own measure entities`));
  restrictGeneralNotes(tolerances);
  if (tolerances.length > 1) markComposites(tolerances, (step ??= new StepText(bytes)).compositeSegments(fileUnitMm));
  const noValue = tolerances.filter((t) => t.value === null).map((t) => t.name || t.id);
  if (noValue.length) warnings.push(warning('TOLERANCE_VALUE_MISSING', `${noValue.join(', ')}`));

  const dimensions: PmiDimension[] = [];
  let presentations = 0;
  // Observed with this kernel build: a dimension's nominal (and range bounds) come as the file's
  // number times the file's (model) length unit in mm, whatever unit the dimension's own measure
  // names, while its +/- deviations come converted to mm.
  let dimensionUnit = fileUnitMm;
  if (dimLabels.length) {
    step ??= new StepText(bytes);
    const u = step.dimensionUnitMm();
    if (u !== null) dimensionUnit = u;
    else warnings.push(warning('DIMENSION_UNIT_ASSUMED', `the file's dimension measures name no single length unit; nominal values are taken in the file's unit (${fileUnitMm} mm)`));
  }
  let fileValues: { value: number; qualified: boolean }[] | undefined;
  dimLabels.forEach((l, i) => {
    const attr = attribute<{ GetObject(): never }>(l, own(oc.XCAFDoc_Dimension.GetID()));
    if (!attr) return;
    const o = own(attr.GetObject() as unknown as { get(): DimObject; delete(): void }).get();
    const kindKey = enumSuffix(oc.XCAFDimTolObjects_DimensionType, o.GetType(), 'XCAFDimTolObjects_DimensionType_');
    if (kindKey === 'DimensionPresentation' || kindKey === 'CommonLabel') {
      presentations++;
      return;
    }
    const kind = DIMENSION_KIND[kindKey] ?? words(kindKey);
    const angular = kind === 'angle';
    // The reader has already multiplied the value by the file's own length unit (FTC 8, all in
    // inches: 0.213 in came as 5.41), so only the ratio of the two units is left to apply; a value
    // with its decimal places given (a qualified item) it leaves as written (CTC 5's 10 in bore: 10).
    const raw = o.GetValue();
    const asWritten = !angular && fileUnitMm !== 1 && keptInFileUnit(raw, (fileValues ??= (step ??= new StepText(bytes)).dimensionValues()), fileUnitMm);
    const scale = angular ? 1 : asWritten ? dimensionUnit : dimensionUnit / fileUnitMm;
    let nominal: number | null = raw * scale;
    let upper: number | null = null, lower: number | null = null;
    if (o.IsDimWithPlusMinusTolerance()) {
      upper = o.GetUpperTolValue();
      lower = -o.GetLowerTolValue() + 0; // + 0: no -0 for a zero deviation
    } else if (o.IsDimWithRange()) {
      ({ nominal, upper, lower } = rangeLimits(o.GetLowerBound(), o.GetUpperBound(), (step ??= new StepText(bytes)).limitDimensions(), (fileValues ??= step.dimensionValues()), angular ? 1 : dimensionUnit, angular ? 1 : fileUnitMm));
    }
    if (raw === 0 && upper === null) nominal = null;
    const modifiers: string[] = [];
    const seq = own(o.GetModifiers());
    for (let k = 1; k <= seq.Length(); k++) modifiers.push(words(enumSuffix(oc.XCAFDimTolObjects_DimensionModif, seq.Value(k), 'XCAFDimTolObjects_DimensionModif_')));
    if (o.HasQualifier()) modifiers.push(words(enumSuffix(oc.XCAFDimTolObjects_DimensionQualifier, o.GetQualifier(), 'XCAFDimTolObjects_DimensionQualifier_')));
    const refs = refShapes(l);
    dimensions.push({ id: `dimension[${i}]`, kind, name: text(own(o.GetSemanticName())), nominal, upper, lower, faces: [...new Set([...refs.first, ...refs.second])], modifiers });
  });
  if (dimLabels.length || tolLabels.length) {
    // The file's own dimension entities against what the reader gave, name by name (the reader
    // names each as the file does: 'diameter', 'linear distance'): NIST FTC 10 has 19 diameters, the
    // reader gives 16 (it leaves out some on patterns of features).
    step ??= new StepText(bytes);
    const inFile = new Map<string, number>(), read = new Map<string, number>();
    for (const d of step.dimensionEntities()) inFile.set(d.name, (inFile.get(d.name) ?? 0) + 1);
    for (const d of dimensions) read.set(d.name, (read.get(d.name) ?? 0) + 1);
    const short = [...inFile].filter(([name, n]) => n > (read.get(name) ?? 0)).map(([name, n]) => `${name || '(unnamed)'}: ${n} in the file, ${read.get(name) ?? 0} read`);
    const lost = [...inFile].reduce((sum, [name, n]) => sum + Math.max(0, n - (read.get(name) ?? 0)), 0);
    if (lost) warnings.push(warning('DIMENSIONS_NOT_READ', `the kernel's reader gave ${lost} of the file's dimensions no semantic dimension (${short.join('; ')}); they are not listed`));
  }
  if (presentations) warnings.push(warning('GRAPHICAL_DIMENSIONS_SKIPPED', `${presentations} dimension presentation(s) without semantic content`));
  const noNominal = dimensions.filter((d) => d.nominal === null).length;
  if (noNominal) warnings.push(warning('DIMENSION_VALUE_MISSING', `${noNominal} dimension(s) without a nominal value in the kernel's reading`));
  if (unmapped.size) warnings.push(warning('SHAPE_NOT_MAPPED', `PMI labels ${[...unmapped].join(', ')} name shapes outside the body's topology`));

  const datumList: PmiDatum[] = [...datums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([label, faces]) => ({ label, faces: [...faces].sort(byIndex), kind: datumKind([...faces], surfaceTypes) }));
  // A datum defined by datum targets (points, lines, areas: NIST CTC 2's A, B, C) has no feature
  // faces; the reader attaches each target point's vertex instead (CTC 2: A on vertex[1179..1181]).
  const stillFaceless = datumList.filter((d) => !d.faces.some((f) => f.startsWith('face[')));
  for (const d of stillFaceless) {
    step ??= new StepText(bytes);
    // Coordinates in their context's unit (else the file's); sizes in mm unless their unit could not be told.
    const targets = step.datumTargets(d.label).map(({ inFileUnit, origin, length, width, diameter, sizeUnitMm, contextUnitMm, ...t }): PmiDatumTarget => {
      const unit = contextUnitMm ?? fileUnitMm;
      const mm = (v: number) => (inFileUnit ? v * unit : v);
      const sizes = { length, width, diameter };
      const out: PmiDatumTarget = { ...t, ...(origin ? { origin: origin.map((c) => c * unit) as [number, number, number] } : {}) };
      for (const [k, v] of Object.entries(sizes) as ['length' | 'width' | 'diameter', number | undefined][]) if (v !== undefined) out[k] = mm(v);
      // NIST FTC 6 names its target sizes in inches while their numbers are the model's millimetres
      // (a 25.4 'inch' circle round a 12.7 mm cone): the same numbers in the coordinates' unit, for
      // the simulation to take when the sizes as named put the target off the part.
      if (sizeUnitMm !== undefined && Math.abs(sizeUnitMm - unit) > 1e-9 * unit) {
        const alt: NonNullable<PmiDatumTarget['inCoordinateUnit']> = {};
        for (const k of ['length', 'width', 'diameter'] as const) if (out[k] !== undefined) alt[k] = (out[k] * unit) / sizeUnitMm;
        out.inCoordinateUnit = alt;
      }
      return out;
    });
    if (targets.length) d.targets = targets;
  }
  const byTargets = stillFaceless.filter((d) => d.targets);
  if (stillFaceless.length) {
    const targetNote = byTargets.length ? `; ${byTargets.map((d) => `${d.label} by ${targetList(d.targets!)}`).join(', ')}: datum targets, which evaluate_gdt simulates from their places in the file` : '';
    warnings.push(warning('DATUM_WITHOUT_FACES', `${stillFaceless.map((d) => d.label).join(', ')} (the file attaches no face to the datum feature${targetNote})`));
  }
  return { datums: datumList, dimensions, tolerances, warnings };
}

/**
 * The shape the reader made of the STEP entity #id (null when none). A STEP model numbers its
 * entities in file order, which `ids` holds; the number is checked against the entity's own label.
 */
function entityShapes(oc: OC, own: Own, reader: STEPCAFControl_Reader, ids: readonly number[]): (id: number) => TopoDS_Shape | null {
  const stepReader = own(reader.Reader());
  const model = own(stepReader.Model()).get() as unknown as { NbEntities(): number; Value(k: number): { IsNull(): boolean; delete(): void }; IdentLabel(e: unknown): number };
  const process = own(own(own(stepReader.WS()).get().TransferReader()).get().TransientProcess()).get();
  const number = new Map<number, number>();
  ids.forEach((id, k) => number.set(id, k + 1));
  return (id) => {
    const k = number.get(id);
    if (k === undefined || k > model.NbEntities()) return null;
    const entity = own(model.Value(k));
    if (entity.IsNull() || model.IdentLabel(entity) !== id) return null;
    const binder = own(process.Find(entity as never));
    if (binder.IsNull()) return null;
    const b = binder.get() as unknown as { Result?: () => TopoDS_Shape };
    if (typeof b.Result !== 'function') return null;
    const shape = own(b.Result());
    return shape.IsNull() ? null : shape;
  };
}

/**
 * The file's geometric tolerances the reader did not give (matched by name, in file order: the k-th
 * of a name in the file is the k-th the reader gave), and the per-unit basis of those it gave,
 * which XCAF does not carry, copied onto them.
 */
function fileTolerances(step: StepText, fileUnitMm: number, read: PmiTolerance[]): FileTolerance[] {
  const skipped: FileTolerance[] = [];
  const seen = new Map<string, number>();
  for (const t of step.geometricTolerances(fileUnitMm)) {
    const k = seen.get(t.name) ?? 0;
    seen.set(t.name, k + 1);
    const same = read.filter((r) => r.name === t.name)[k];
    if (!same) {
      skipped.push(t);
      continue;
    }
    if (t.perLength !== null) same.perLength = t.perLength;
    if (t.perArea) same.perArea = t.perArea;
  }
  return skipped;
}

const round6 = (x: number) => Number(x.toPrecision(6));

const byIndex = (a: string, b: string) => Number(/\d+/.exec(a)![0]) - Number(/\d+/.exec(b)![0]);

function datumKind(faces: string[], types: Map<string, string>): PmiDatum['kind'] {
  if (faces.length === 0) return 'unknown';
  const t = new Set(faces.map((f) => types.get(f) ?? 'unknown'));
  if (t.size === 1 && t.has('Plane')) return 'plane';
  if ([...t].every((x) => x === 'Cylinder' || x === 'Cone')) return 'axis';
  if (t.size === 1 && t.has('Sphere')) return 'point';
  return 'surface';
}

function entry(oc: OC, own: Own, label: TDF_Label): string {
  const s = own(new oc.TCollection_AsciiString_1());
  oc.TDF_Tool.Entry(label, s);
  return s.ToCString();
}

interface HString {
  IsNull(): boolean;
  get(): { ToCString(): string };
  delete(): void;
}

interface GeomTolObject {
  GetSemanticName(): HString;
  GetType(): unknown;
  GetValue(): number;
  GetTypeOfValue(): unknown;
  GetMaterialRequirementModifier(): unknown;
  GetZoneModifier(): unknown;
  GetModifiers(): { Length(): number; Value(i: number): unknown; delete(): void };
}

/**
 * A limit dimension's nominal and deviations from the kernel's bounds [lo, hi]. Where the file
 * holds the limits with a nominal value and the kernel's bounds are that nominal and the upper
 * limit (this build's reading, stepText.ts limitDimensions), the file's lower limit and nominal
 * are taken; otherwise the nominal is the middle of the range. Bounds the kernel left as written
 * (qualified values, like FTC 7's) get the file's unit here (`unitMm` mm to it); the others are
 * the kernel's, multiplied by it already, and only the ratio to `dimensionUnit` is left.
 */
export function rangeLimits(lo: number, hi: number, limits: { lower: number; upper: number; nominal: number | null }[], values: { value: number; qualified: boolean }[], dimensionUnit: number, unitMm: number): { nominal: number; upper: number; lower: number } {
  const written = keptInFileUnit(lo, values, unitMm) && keptInFileUnit(hi, values, unitMm);
  const scale = written ? dimensionUnit : dimensionUnit / unitMm;
  const same = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  const asRead = (v: number) => (written ? v : v * unitMm);
  const file = limits.find((d) => d.nominal !== null && same(asRead(d.nominal), lo) && same(asRead(d.upper), hi) && d.lower < d.nominal);
  const [low, high] = file ? [asRead(file.lower), hi] : [lo, hi];
  const nominal = (file ? lo : (low + high) / 2) * scale;
  return { nominal, upper: high * scale - nominal, lower: low * scale - nominal };
}

interface DimObject {
  GetSemanticName(): HString;
  GetType(): unknown;
  GetValue(): number;
  IsDimWithPlusMinusTolerance(): boolean;
  GetUpperTolValue(): number;
  GetLowerTolValue(): number;
  IsDimWithRange(): boolean;
  GetLowerBound(): number;
  GetUpperBound(): number;
  HasQualifier(): boolean;
  GetQualifier(): unknown;
  GetModifiers(): { Length(): number; Value(i: number): unknown; delete(): void };
}

/**
 * The datum reference in precedence order. Datums the reader gives the same position share one
 * compartment: a common datum (STEP COMMON_DATUM_LIST, drawn A-B), labelled with its datums joined by '-'.
 */
function datumReference(refs: { label: string; position: number }[]): string[] {
  const byPosition = new Map<number, string[]>();
  for (const r of refs) {
    const list = byPosition.get(r.position) ?? [];
    if (!list.includes(r.label)) list.push(r.label);
    byPosition.set(r.position, list);
  }
  return [...new Set([...byPosition.values()].map((labels) => labels.join('-')))];
}

/**
 * Marks the two segments of each composite frame the file declares: the tolerances of that name
 * whose magnitudes are the segments' (the kernel's reader keeps the two as separate tolerances and
 * drops the relationship).
 */
function markComposites(tolerances: PmiTolerance[], composites: { name: string; upper: number | null; lower: number | null }[]): void {
  const near = (a: number | null, b: number | null) => a !== null && b !== null && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  for (const c of composites) {
    const named = tolerances.filter((t) => t.name === c.name && !t.composite);
    const upper = named.find((t) => near(t.value, c.upper));
    const lower = named.find((t) => t !== upper && near(t.value, c.lower));
    if (!upper || !lower) continue;
    upper.composite = { segment: 'upper', with: lower.id };
    lower.composite = { segment: 'lower', with: upper.id };
  }
}

/** Kinds that locate a surface: a face they name is "otherwise specified" for a general profile note. */
const LOCATING = new Set(['surfaceProfile', 'lineProfile', 'position']);

/**
 * A general profile note (ASME Y14.5: "unless otherwise specified") governs the surfaces no other
 * callout locates. Listed on every face, it was read over faces with their own, looser profiles and
 * positions too (a face allowed 2.5 by its own callout failing the note's 1.5).
 */
function restrictGeneralNotes(tolerances: PmiTolerance[]): void {
  const named = new Set<string>();
  for (const t of tolerances) if (!t.general && LOCATING.has(t.kind)) for (const f of t.faces) named.add(f);
  for (const t of tolerances) if (t.general) t.faces = t.faces.filter((f) => !named.has(f));
}
