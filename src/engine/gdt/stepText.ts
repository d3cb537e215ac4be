/**
 * A minimal index of a STEP (ISO 10303-21) file's DATA section: entity id -> its text. Used where
 * the kernel's PMI reader leaves a value out: this build of OCCT reads a geometric tolerance's
 * magnitude as 0 when it is the complex LENGTH_MEASURE_WITH_UNIT + MEASURE_REPRESENTATION_ITEM
 * instance AP242 writers use, so the magnitude is read from the text by the tolerance's name.
 */
export class StepText {
  private readonly entities = new Map<number, string>();
  private readonly order: number[] = [];
  private readonly used = new Set<number>();

  constructor(bytes: Uint8Array) {
    const text = new TextDecoder('latin1').decode(bytes);
    const start = text.indexOf('DATA;');
    if (start < 0) return;
    let i = start + 5;
    let statement = '';
    let quoted = false;
    for (; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === "'") quoted = !quoted; // '' inside a string toggles twice: harmless here
      if (ch === ';' && !quoted) {
        this.add(statement);
        statement = '';
        continue;
      }
      if (ch !== '\n' && ch !== '\r') statement += ch;
    }
  }

  private add(statement: string): void {
    const m = /^\s*#(\d+)\s*=\s*([\s\S]*)$/.exec(statement);
    if (!m) return;
    const id = Number(m[1]);
    this.entities.set(id, m[2]!.trim());
    this.order.push(id);
  }

  get(id: number): string | undefined {
    return this.entities.get(id);
  }

  /**
   * The magnitude of the next not yet claimed geometric tolerance named `name` (in file order), in
   * mm: its third attribute is a measure with a unit. `fileUnitMm` is the file's length unit in mm,
   * used when the measure's own unit cannot be told. Null when no such tolerance is found.
   */
  toleranceMagnitude(name: string, fileUnitMm: number): number | null {
    const quotedName = `'${name.replace(/'/g, "''")}'`;
    for (const id of this.order) {
      if (this.used.has(id)) continue;
      const text = this.entities.get(id)!;
      const at = text.indexOf(`TOLERANCE(${quotedName}`);
      if (at < 0) continue;
      const value = this.magnitude(text.slice(at), fileUnitMm);
      if (value === null) continue;
      this.used.add(id);
      return value;
    }
    return null;
  }

  /**
   * The composite feature control frames (ASME Y14.5 10.5.1, 11.6): each
   * GEOMETRIC_TOLERANCE_RELATIONSHIP('composite', ..., upper, lower) as the tolerances' name and
   * the two segments' magnitudes in mm (null where the text gives none).
   */
  compositeSegments(fileUnitMm: number): { name: string; upper: number | null; lower: number | null }[] {
    const out: { name: string; upper: number | null; lower: number | null }[] = [];
    for (const id of this.order) {
      const m = /^GEOMETRIC_TOLERANCE_RELATIONSHIP\(\s*'composite'\s*,[^#]*#(\d+)\s*,\s*#(\d+)\s*\)$/i.exec(this.entities.get(id)!);
      if (!m) continue;
      const upper = this.get(Number(m[1])), lower = this.get(Number(m[2]));
      const name = upper && /TOLERANCE\('((?:[^']|'')*)'/.exec(upper);
      if (!name || !lower) continue;
      out.push({ name: name[1]!.replace(/''/g, "'"), upper: this.magnitude(upper, fileUnitMm), lower: this.magnitude(lower, fileUnitMm) });
    }
    return out;
  }

  /** A geometric tolerance entity's magnitude (its third attribute, a measure with a unit) in mm. */
  private magnitude(text: string, fileUnitMm: number): number | null {
    const args = /TOLERANCE\('(?:[^']|'')*'\s*,\s*(?:'(?:[^']|'')*'|\$)\s*,\s*(#\d+)/.exec(text);
    return args ? this.lengthMm(args[1]!, fileUnitMm) : null;
  }

  /**
   * The length unit (mm) of the file's dimension values: the unit every length
   * MEASURE_REPRESENTATION_ITEM refers to (the items a SHAPE_DIMENSION_REPRESENTATION holds), by
   * majority. Null when there are none. The model's own unit may differ (NIST CTC 3: the
   * geometry in millimetres, the PMI in inches).
   */
  dimensionUnitMm(): number | null {
    // Only the items a SHAPE_DIMENSION_REPRESENTATION holds: the file's other length measures (the
    // validation properties' areas and centroids, FTC 6: 89 of them in mm) are in the model's unit
    // and outvote the dimensions' (FTC 6: 0.562 in read as 0.562 mm).
    const held = this.dimensionItems();
    const votes = new Map<number, number>();
    for (const id of this.order) {
      const text = this.entities.get(id)!;
      if (!text.includes('MEASURE_REPRESENTATION_ITEM') || (held.size > 0 && !held.has(id))) continue;
      const m = /LENGTH_MEASURE\(\s*[-+0-9.Ee]+\s*\)\s*,\s*#(\d+)/.exec(text);
      if (!m) continue;
      const mm = this.unitMm(Number(m[1]));
      if (mm !== null) votes.set(mm, (votes.get(mm) ?? 0) + 1);
    }
    // The unit most of them use (CTC 3: 24 in inches, one stray item in millimetres).
    let best: number | null = null, most = 0;
    for (const [mm, n] of votes) if (n > most) [best, most] = [mm, n];
    return best;
  }

  /** The ids of the items the file's SHAPE_DIMENSION_REPRESENTATIONs hold. */
  private dimensionItems(): Set<number> {
    const held = new Set<number>();
    for (const id of this.order) {
      const m = /^SHAPE_DIMENSION_REPRESENTATION\(\s*'(?:[^']|'')*'\s*,\s*\(([^)]*)\)/.exec(this.entities.get(id)!);
      if (m) for (const ref of m[1]!.matchAll(/#(\d+)/g)) held.add(Number(ref[1]));
    }
    return held;
  }

  /**
   * The numbers of the file's dimension values (the length measure items a
   * SHAPE_DIMENSION_REPRESENTATION holds), each with whether it is also a
   * QUALIFIED_REPRESENTATION_ITEM (a value with its decimal places given): this kernel build
   * leaves such a value in the file's unit, where it gives the others multiplied by the file's
   * unit (NIST CTC 5's 10 in diameter came as 10, FTC 8's 0.213 in as 5.41).
   */
  dimensionValues(): { value: number; qualified: boolean }[] {
    const held = this.dimensionItems();
    const out: { value: number; qualified: boolean }[] = [];
    for (const id of held) {
      const text = this.entities.get(id);
      const m = text && /LENGTH_MEASURE\(\s*([-+0-9.Ee]+)\s*\)/.exec(text);
      if (m) out.push({ value: Number(m[1]), qualified: text.includes('QUALIFIED_REPRESENTATION_ITEM') });
    }
    return out;
  }

  /**
   * The file's limit dimensions: each SHAPE_DIMENSION_REPRESENTATION holding a 'lower limit' and an
   * 'upper limit' length item (and perhaps a 'nominal value'), their numbers as written. This
   * kernel build reads one with a nominal value as the range [nominal, upper] (NIST FTC 7's radius
   * .012 to .022 in, nominal .017, came as .017 to .022).
   */
  limitDimensions(): { lower: number; upper: number; nominal: number | null }[] {
    const out: { lower: number; upper: number; nominal: number | null }[] = [];
    for (const id of this.order) {
      const m = /^SHAPE_DIMENSION_REPRESENTATION\(\s*'(?:[^']|'')*'\s*,\s*\(([^)]*)\)/.exec(this.entities.get(id)!);
      if (!m) continue;
      const named = new Map<string, number>();
      for (const ref of m[1]!.matchAll(/#(\d+)/g)) {
        const text = this.entities.get(Number(ref[1])) ?? '';
        const value = /LENGTH_MEASURE\(\s*([-+0-9.Ee]+)\s*\)/.exec(text), name = /REPRESENTATION_ITEM\(\s*'([^']*)'\s*\)/.exec(text);
        if (value && name) named.set(name[1]!.toLowerCase(), Number(value[1]));
      }
      const lower = named.get('lower limit'), upper = named.get('upper limit');
      if (lower !== undefined && upper !== undefined) out.push({ lower, upper, nominal: named.get('nominal value') ?? null });
    }
    return out;
  }

  /**
   * The ADVANCED_FACE entity ids of datum `label`: the DATUM('...', 'label') itself and its
   * feature(s) (<- SHAPE_ASPECT_RELATIONSHIP <- DATUM_FEATURE), whose faces a GEOMETRIC_ITEM_SPECIFIC_USAGE or an
   * ITEM_IDENTIFIED_REPRESENTATION_USAGE (a SET_REPRESENTATION_ITEM of faces: the form OCCT's reader
   * does not follow) names; composite features are followed one level down.
   */
  datumFaceEntities(label: string): number[] {
    const quoted = `'${label.replace(/'/g, "''")}'`;
    const datums = this.order.filter((id) => {
      const t = this.entities.get(id)!;
      return t.startsWith('DATUM(') && t.replace(/\s+/g, '').endsWith(`,${quoted})`);
    });
    const relating = (target: number): number[] =>
      this.order.filter((id) => {
        const t = this.entities.get(id)!;
        const m = /^SHAPE_ASPECT_RELATIONSHIP\([^#]*#(\d+)\s*,\s*#(\d+)\s*\)$/.exec(t.replace(/\s+/g, ''));
        return m !== null && Number(m[2]) === target;
      }).map((id) => Number(/#(\d+)\s*,\s*#\d+\s*\)$/.exec(this.entities.get(id)!.replace(/\s+/g, ''))![1]));
    // Some writers name the faces on the datum itself (CTC 3's D and E), most on its feature.
    const features = new Set<number>(datums);
    for (const d of datums) for (const f of relating(d)) {
      features.add(f);
      for (const g of relating(f)) features.add(g);
    }
    return this.usageFaceItems(features);
  }

  /**
   * The datum targets that define the datum of this label (ASME Y14.5 7.24, ISO 5459: points, lines
   * or areas on the part, e.g. NIST CTC 2's A1, A2, A3): each `PLACED_DATUM_TARGET_FEATURE` or
   * `DATUM_TARGET` related to the `DATUM` by a `SHAPE_ASPECT_RELATIONSHIP`, as its label and number
   * (`A1`) and its kind (`point`, `line`, `circle`, `area` ... as written).
   */
  datumTargets(label: string): TargetRecord[] {
    const quoted = `'${label.replace(/'/g, "''")}'`;
    const datums = new Set(this.order.filter((id) => {
      const t = this.entities.get(id)!;
      return t.startsWith('DATUM(') && t.replace(/\s+/g, '').endsWith(`,${quoted})`);
    }));
    const out: { id: string; kind: string }[] = [];
    for (const id of this.order) {
      const m = /^SHAPE_ASPECT_RELATIONSHIP\([^#]*#(\d+)\s*,\s*#(\d+)\s*\)$/.exec(this.entities.get(id)!.replace(/\s+/g, ''));
      if (!m || !datums.has(Number(m[2]))) continue;
      // (name, description: the target's shape, of_shape, product_definitional, target_id)
      const t = /^(?:PLACED_DATUM_TARGET_FEATURE|DATUM_TARGET)\('(?:[^']|'')*'\s*,\s*'((?:[^']|'')*)'[^]*,\s*'((?:[^']|'')*)'\s*\)$/.exec(this.entities.get(Number(m[1]))?.trim() ?? '');
      if (t) out.push({ id: `${label}${t[2]}`, kind: t[1]! || 'target', ...this.targetShape(Number(m[1])) });
    }
    return out;
  }

  /**
   * Every geometric tolerance the file holds, read from its own entities (simple, as AP214 and
   * AP242 ed. 1 write them, or complex instances): the form the kernel's reader skips when it does
   * not know the combination (NIST FTC 10's straightness GEOMETRIC_TOLERANCE_WITH_DEFINED_UNIT,
   * CTC 3's flatness per unit area) or when the toleranced shape aspect is a pattern
   * (COMPOSITE_GROUP_SHAPE_ASPECT: CTC 4's Position.3) or the whole part (a PRODUCT_DEFINITION_SHAPE).
   * Lengths in mm; `fileUnitMm` is used where a measure's own unit cannot be told.
   */
  geometricTolerances(fileUnitMm: number): FileTolerance[] {
    const out: FileTolerance[] = [];
    for (const id of this.order) {
      const text = this.entities.get(id)!;
      if (!text.includes('TOLERANCE(')) continue;
      const types = [...text.matchAll(/(?:^|[\s()])([A-Z_]+)_TOLERANCE\(/g)].map((m) => m[1]!);
      const kinds = types.filter((t) => !t.includes('GEOMETRIC') && t !== 'PLUS_MINUS');
      if (kinds.length !== 1) continue;
      // (name, description, magnitude, toleranced_shape_aspect[, datum references]): on the kind's own
      // entity when it is a simple one, on GEOMETRIC_TOLERANCE in a complex instance.
      const own = entityArgs(text, `${kinds[0]}_TOLERANCE`);
      const base = own && own.length >= 4 ? own : entityArgs(text, 'GEOMETRIC_TOLERANCE');
      if (!base || base.length < 4) continue;
      const magnitude = this.lengthMm(base[2]!, fileUnitMm);
      const aspect = ref(base[3]!);
      const definedUnit = entityArgs(text, 'GEOMETRIC_TOLERANCE_WITH_DEFINED_UNIT');
      const area = entityArgs(text, 'GEOMETRIC_TOLERANCE_WITH_DEFINED_AREA_UNIT');
      const unitSize = definedUnit ? this.lengthMm(definedUnit[0]!, fileUnitMm) : null;
      const datumRefs = [...(entityArgs(text, 'GEOMETRIC_TOLERANCE_WITH_DATUM_REFERENCE')?.[0] ?? base[4] ?? '').matchAll(/#(\d+)/g)].map((m) => Number(m[1]));
      const modifierText = [entityArgs(text, 'GEOMETRIC_TOLERANCE_WITH_MODIFIERS')?.[0] ?? '', entityArgs(text, 'MODIFIED_GEOMETRIC_TOLERANCE')?.[0] ?? ''].join(',');
      out.push({
        entity: id,
        name: unquote(base[0]!),
        kind: lowerCamel(kinds[0]!),
        magnitude,
        aspect,
        aspectType: aspect === null ? null : (/^\(?\s*([A-Z_]+)/.exec(this.entities.get(aspect) ?? '')?.[1] ?? null),
        perLength: unitSize !== null && !area ? unitSize : null,
        perArea: area && unitSize !== null ? { shape: lowerCamel(area[0]!.replace(/\./g, '')), size: unitSize, second: area[1] ? this.lengthMm(area[1], fileUnitMm) : null } : null,
        datums: this.datumReference(datumRefs),
        modifiers: [...modifierText.matchAll(/\.([A-Z_]+)\./g)].map((m) => MODIFIER[m[1]!] ?? lowerCamel(m[1]!)),
        zone: this.zoneOf(id),
      });
    }
    return out;
  }

  /** A measure reference (#id) in mm: LENGTH_MEASURE(v) with its unit, simple or complex. */
  private lengthMm(attribute: string, fileUnitMm: number): number | null {
    const id = ref(attribute);
    const text = id === null ? undefined : this.entities.get(id);
    const m = text && /LENGTH_MEASURE\(\s*([-+0-9.Ee]+)\s*\)\s*,\s*#(\d+)/.exec(text);
    return m ? Number(m[1]) * (this.unitMm(Number(m[2])) ?? fileUnitMm) : null;
  }

  /** Datum labels in precedence order from DATUM_SYSTEMs (AP242) or DATUM_REFERENCEs (AP214: precedence, datum). */
  private datumReference(refs: number[]): string[] {
    const labelOf = (id: number): string | null => {
      const t = this.entities.get(id) ?? '';
      if (t.startsWith('DATUM(')) return unquote(entityArgs(t, 'DATUM')?.[4] ?? '') || null;
      // A compartment, element or AP214 reference names its datum, or a common datum's list.
      const inner = [...t.matchAll(/#(\d+)/g)].map((m) => Number(m[1])).filter((r) => r !== id);
      const labels = inner.map((r) => (this.entities.get(r)?.startsWith('DATUM(') ? labelOf(r) : /^(COMMON_DATUM_LIST|DATUM_REFERENCE_ELEMENT)/.test(this.entities.get(r) ?? '') ? labelOf(r) : null)).filter((l): l is string => !!l);
      return labels.length ? labels.join('-') : null;
    };
    const out: { label: string; order: number }[] = [];
    for (const r of refs) {
      const t = this.entities.get(r) ?? '';
      if (t.startsWith('DATUM_SYSTEM(')) {
        const parts = [...(entityArgs(t, 'DATUM_SYSTEM')?.[4] ?? '').matchAll(/#(\d+)/g)].map((m) => Number(m[1]));
        parts.forEach((c, k) => {
          const label = labelOf(c);
          if (label) out.push({ label, order: k });
        });
      } else if (t.startsWith('DATUM_REFERENCE(')) {
        const a = entityArgs(t, 'DATUM_REFERENCE')!;
        const label = labelOf(ref(a[1] ?? '') ?? -1);
        if (label) out.push({ label, order: Number(a[0]) });
      }
    }
    return out.sort((a, b) => a.order - b.order).map((d) => d.label);
  }

  /** The tolerance zone form a TOLERANCE_ZONE gives the tolerance #id: cylindrical -> diameter, spherical -> sphericalDiameter. */
  private zoneOf(id: number): FileTolerance['zone'] {
    for (const z of this.order) {
      const t = this.entities.get(z)!;
      if (!t.startsWith('TOLERANCE_ZONE(')) continue;
      const a = entityArgs(t, 'TOLERANCE_ZONE');
      if (!a || !new RegExp(`#${id}(?!\\d)`).test(a[4] ?? '')) continue;
      const form = unquote(entityArgs(this.entities.get(ref(a[5] ?? '') ?? -1) ?? '', 'TOLERANCE_ZONE_FORM')?.[0] ?? '');
      return /spher/i.test(form) ? 'sphericalDiameter' : /cylind|circular/i.test(form) ? 'diameter' : 'width';
    }
    return 'width';
  }

  /**
   * The ADVANCED_FACE entity ids of a shape aspect: the faces a GEOMETRIC_ITEM_SPECIFIC_USAGE or an
   * ITEM_IDENTIFIED_REPRESENTATION_USAGE names for it or for its members (a pattern's
   * COMPOSITE_GROUP_SHAPE_ASPECT relates to each member by a SHAPE_ASPECT_RELATIONSHIP, two levels).
   */
  aspectFaceEntities(aspect: number): number[] {
    return this.usageFaceItems(this.aspectFamily(aspect, 2));
  }

  /** What else than faces the usages of a shape aspect (and its members) name: "GEOMETRIC_CURVE_SET 'Thread Cylinder.1'". */
  aspectOtherItems(aspect: number): string[] {
    const out = new Set<string>();
    for (const item of this.usageItems(this.aspectFamily(aspect, 1))) {
      const m = /^([A-Z_]+)\(\s*'((?:[^']|'')*)'/.exec(this.entities.get(item) ?? '');
      if (m && m[1] !== 'ADVANCED_FACE') out.add(m[2] ? `${m[1]} '${m[2]}'` : m[1]!);
    }
    return [...out];
  }

  /** A shape aspect and the aspects related to it by SHAPE_ASPECT_RELATIONSHIPs, `levels` deep. */
  private aspectFamily(aspect: number, levels: number): Set<number> {
    const aspects = new Set<number>([aspect]);
    for (let level = 0; level < levels; level++) {
      for (const id of this.order) {
        const m = /^SHAPE_ASPECT_RELATIONSHIP\([^#]*#(\d+)\s*,\s*#(\d+)\s*\)$/.exec(this.entities.get(id)!.replace(/\s+/g, ''));
        if (m && aspects.has(Number(m[1]))) aspects.add(Number(m[2]));
      }
    }
    return aspects;
  }

  private usageFaceItems(aspects: Set<number>): number[] {
    return this.usageItems(aspects).filter((item) => this.entities.get(item)?.startsWith('ADVANCED_FACE('));
  }

  /** The items (entity ids, each once) the usages of these shape aspects identify. */
  private usageItems(aspects: Set<number>): number[] {
    const items = new Set<number>();
    for (const id of this.order) {
      const t = this.entities.get(id)!;
      if (!t.startsWith('GEOMETRIC_ITEM_SPECIFIC_USAGE(') && !t.startsWith('ITEM_IDENTIFIED_REPRESENTATION_USAGE(')) continue;
      const refs = [...t.matchAll(/#(\d+)/g)].map((m) => Number(m[1]));
      // (name, description, definition, used_representation, identified_item(s))
      if (!aspects.has(refs[0]!)) continue;
      for (const item of refs.slice(2)) items.add(item);
    }
    return [...items];
  }

  /** The labels of the file's DATUM entities, in file order (each once). */
  datumLabels(): string[] {
    const out = new Set<string>();
    for (const id of this.order) {
      const t = this.entities.get(id)!;
      if (t.startsWith('DATUM(')) out.add(unquote(entityArgs(t, 'DATUM')?.[4] ?? ''));
    }
    return [...out].filter(Boolean);
  }

  /**
   * The file's semantic dimensions (DIMENSIONAL_SIZE, DIMENSIONAL_LOCATION, ANGULAR_SIZE,
   * ANGULAR_LOCATION and their _WITH_PATH forms, simple or complex): entity, type and name.
   */
  dimensionEntities(): { entity: number; type: string; name: string }[] {
    const out: { entity: number; type: string; name: string }[] = [];
    for (const id of this.order) {
      const t = this.entities.get(id)!;
      const m = /(?:^|[\s()])(DIMENSIONAL_SIZE|DIMENSIONAL_LOCATION|ANGULAR_SIZE|ANGULAR_LOCATION)(?:_WITH_PATH)?\(/.exec(t);
      if (!m) continue;
      const a = entityArgs(t, m[1]!) ?? [];
      // DIMENSIONAL_SIZE(applies_to, name); DIMENSIONAL_LOCATION(name, description, relating, related).
      const name = unquote((m[1]!.endsWith('SIZE') ? a[1] : a[0]) ?? '');
      out.push({ entity: id, type: m[1]!, name });
    }
    return out;
  }

  /**
   * Where a datum target is and how large (AP242, CAx-IF PMI practices): its PROPERTY_DEFINITION's
   * SHAPE_DEFINITION_REPRESENTATION holds a SHAPE_REPRESENTATION_WITH_PARAMETERS of an
   * AXIS2_PLACEMENT_3D 'orientation' (location, z, x: a line runs along x from the location, a
   * rectangle's length along x) and the measures 'target length', 'target width', 'target
   * diameter'. Coordinates in the representation context's unit (`contextUnitMm`); measures in mm
   * when their unit is known, else flagged `inFileUnit`. Empty when the file gives no placement.
   */
  private targetShape(target: number): Partial<TargetRecord> {
    const refsTo = (prefix: string, id: number) =>
      this.order.filter((k) => {
        const t = this.entities.get(k)!;
        return t.startsWith(prefix) && new RegExp(`#${id}(?!\\d)`).test(t);
      });
    for (const pd of refsTo('PROPERTY_DEFINITION(', target)) {
      for (const sdr of refsTo('SHAPE_DEFINITION_REPRESENTATION(', pd)) {
        const rep = this.get(Number(/#\d+\s*,\s*#(\d+)/.exec(this.get(sdr)!)?.[1]));
        if (!rep?.startsWith('SHAPE_REPRESENTATION_WITH_PARAMETERS(')) continue;
        const items = /^SHAPE_REPRESENTATION_WITH_PARAMETERS\(\s*'(?:[^']|'')*'\s*,\s*\(([^)]*)\)/.exec(rep);
        if (!items) continue;
        const out: Partial<TargetRecord> = {};
        const context = /\)\s*,\s*#(\d+)\s*\)$/.exec(rep);
        const units = context && /GLOBAL_UNIT_ASSIGNED_CONTEXT\(\s*\(([^)]*)\)/.exec(this.get(Number(context[1])) ?? '');
        for (const u of units?.[1]!.matchAll(/#(\d+)/g) ?? []) {
          const mm = this.unitMm(Number(u[1]));
          if (mm !== null) {
            out.contextUnitMm = mm;
            break;
          }
        }
        for (const ref of items[1]!.matchAll(/#(\d+)/g)) {
          const item = this.get(Number(ref[1])) ?? '';
          const placement = /^AXIS2_PLACEMENT_3D\(\s*'[^']*'\s*,\s*#(\d+)\s*,\s*#(\d+)\s*,\s*#(\d+)\s*\)$/.exec(item);
          if (placement) {
            const [o, z, x] = [1, 2, 3].map((k) => this.numbers(Number(placement[k])));
            if (o?.length === 3) out.origin = o as [number, number, number];
            if (z?.length === 3) out.normal = z as [number, number, number];
            if (x?.length === 3) out.direction = x as [number, number, number];
            continue;
          }
          const measure = /LENGTH_MEASURE\(\s*([-+0-9.Ee]+)\s*\)\s*,\s*#(\d+)\s*\)\s*REPRESENTATION_ITEM\(\s*'target (length|width|diameter)'/.exec(item);
          if (!measure) continue;
          const unit = this.unitMm(Number(measure[2]));
          out[measure[3] as 'length' | 'width' | 'diameter'] = Number(measure[1]) * (unit ?? 1);
          if (unit === null) out.inFileUnit = true;
          else out.sizeUnitMm = unit;
        }
        if (out.origin) return out;
      }
    }
    return {};
  }

  /** The coordinates of a CARTESIAN_POINT or DIRECTION entity. */
  private numbers(id: number): number[] | null {
    const m = /^(?:CARTESIAN_POINT|DIRECTION)\(\s*'(?:[^']|'')*'\s*,\s*\(([^)]*)\)\s*\)$/.exec(this.get(id) ?? '');
    return m ? m[1]!.split(',').map(Number) : null;
  }

  /** Entity ids in file order (a STEP model numbers its entities so: the k-th is number k). */
  get ids(): readonly number[] {
    return this.order;
  }

  /** A length unit entity in mm: SI metre with or without a prefix, or a conversion-based inch or millimetre. */
  unitMm(id: number): number | null {
    const text = this.get(id);
    if (!text) return null;
    const si = /SI_UNIT\(\s*(\.[A-Z]+\.|\$)\s*,\s*\.METRE\.\s*\)/.exec(text);
    if (si) return ({ '$': 1000, '.MILLI.': 1, '.CENTI.': 10, '.DECI.': 100, '.KILO.': 1e6, '.MICRO.': 1e-3 } as Record<string, number>)[si[1]!] ?? null;
    const named = /CONVERSION_BASED_UNIT\(\s*'([^']*)'/.exec(text);
    if (named) return lengthUnitMm(named[1]!);
    return null;
  }
}

/** A geometric tolerance as the file writes it (StepText.geometricTolerances). */
export interface FileTolerance {
  entity: number;
  name: string;
  /** flatness, straightness, surfaceProfile, ... (the entity type in lower camel case). */
  kind: string;
  /** Zone size in mm; null when the measure cannot be read. */
  magnitude: number | null;
  /** The toleranced shape aspect's entity id and type (SHAPE_ASPECT, COMPOSITE_GROUP_SHAPE_ASPECT, PRODUCT_DEFINITION_SHAPE for the whole part ...). */
  aspect: number | null;
  aspectType: string | null;
  /** GEOMETRIC_TOLERANCE_WITH_DEFINED_UNIT: the zone applies to every length of this size (mm) along the feature. */
  perLength: number | null;
  /** GEOMETRIC_TOLERANCE_WITH_DEFINED_AREA_UNIT: the zone applies to every area of this shape and size (mm). */
  perArea: { shape: string; size: number | null; second: number | null } | null;
  datums: string[];
  modifiers: string[];
  zone: 'width' | 'diameter' | 'sphericalDiameter';
}

const MODIFIER: Record<string, string> = {
  MAXIMUM_MATERIAL_REQUIREMENT: 'maximumMaterial',
  LEAST_MATERIAL_REQUIREMENT: 'leastMaterial',
  MAXIMUM_MATERIAL_CONDITION: 'maximumMaterial',
  LEAST_MATERIAL_CONDITION: 'leastMaterial',
};

/** DEFINED_UNIT -> definedUnit. */
function lowerCamel(type: string): string {
  return type.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

const unquote = (a: string): string => {
  const m = /^\s*'((?:[^']|'')*)'\s*$/.exec(a);
  return m ? m[1]!.replace(/''/g, "'") : '';
};

const ref = (a: string): number | null => {
  const m = /^\s*#(\d+)\s*$/.exec(a);
  return m ? Number(m[1]) : null;
};

/**
 * The top-level attributes of `type(...)` in an entity's text (a simple entity or one part of a
 * complex instance), as written; null when the text has no such part.
 */
export function entityArgs(text: string, type: string): string[] | null {
  const re = new RegExp(`(?:^|[\\s()])${type}\\s*\\(`, 'g');
  const m = re.exec(text);
  if (!m) return null;
  const out: string[] = [];
  let depth = 0, quoted = false, cur = '';
  for (let i = m.index + m[0].length; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "'") quoted = !quoted;
    if (!quoted) {
      if (ch === '(') depth++;
      else if (ch === ')') {
        if (depth === 0) {
          out.push(cur.trim());
          return out;
        }
        depth--;
      } else if (ch === ',' && depth === 0) {
        out.push(cur.trim());
        cur = '';
        continue;
      }
    }
    cur += ch;
  }
  return null;
}

/** A datum target: `A1`, its kind, and where it is and its sizes when the file gives them. */
export interface TargetPlace {
  id: string;
  kind: string;
  origin?: [number, number, number];
  /** The placement's z direction (the target's normal as written) and x direction (a line's or rectangle's length). */
  normal?: [number, number, number];
  direction?: [number, number, number];
  length?: number;
  width?: number;
  diameter?: number;
}

/** A datum target as the file writes it: coordinates in the file's, sizes in mm when given. */
export interface TargetRecord extends TargetPlace {
  /** A measure whose unit could not be told: its number is in the file's unit. */
  inFileUnit?: boolean;
  /** The unit (mm) the sizes' measures name, and the length unit of the target's representation context (its coordinates'). */
  sizeUnitMm?: number;
  contextUnitMm?: number;
}

/** A STEP length unit name in mm (the names conversion-based units and FileUnits use); null when unknown. */
export function lengthUnitMm(name: string): number | null {
  const n = name.trim().toLowerCase();
  if (n === 'inch' || n === 'in') return 25.4;
  if (n === 'foot' || n === 'ft') return 304.8;
  if (n === 'mm' || n === 'millimetre' || n === 'millimeter') return 1;
  if (n === 'cm' || n === 'centimetre' || n === 'centimeter') return 10;
  if (n === 'm' || n === 'metre' || n === 'meter') return 1000;
  if (n === 'micron' || n === 'micrometre' || n === 'micrometer') return 1e-3;
  return null;
}

/**
 * Whether the kernel gave a dimension's `raw` value unscaled (in the file's unit, `unitMm` mm to
 * it): it equals a qualified value of the file's and no value times the unit. Ambiguous cases keep
 * the scaled reading the kernel gives unqualified values.
 */
export function keptInFileUnit(raw: number, values: { value: number; qualified: boolean }[], unitMm: number): boolean {
  if (unitMm === 1) return false;
  const same = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  return values.some((v) => v.qualified && same(v.value, raw)) && !values.some((v) => same(v.value * unitMm, raw));
}
