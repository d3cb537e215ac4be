/**
 * Tool forms from the registry's JSON Schemas (zod's toJSONSchema, io 'input'): each property
 * becomes a field; what the user leaves empty is omitted from the arguments, so the engine applies
 * the spec's defaults. Values are passed on unconverted when they do not parse (a number field
 * holding "abc"): the engine's schema is the one validator and names the field in its error.
 */

type JsonSchema = Record<string, unknown>;

interface FieldBase {
  /** Dotted path in the arguments: `filter.minArea`. */
  path: string;
  label: string;
  description: string;
  required: boolean;
  /** The schema's default, shown as the placeholder. */
  defaultValue?: unknown;
}

export type FieldSpec =
  | (FieldBase & { kind: 'bodyId' })
  | (FieldBase & { kind: 'string' })
  | (FieldBase & { kind: 'number'; integer: boolean; min?: number; max?: number })
  | (FieldBase & { kind: 'boolean' })
  | (FieldBase & { kind: 'enum'; options: string[] })
  | (FieldBase & { kind: 'enumList'; options: string[] })
  | (FieldBase & { kind: 'stringList' })
  | (FieldBase & { kind: 'vec3' })
  | (FieldBase & { kind: 'object'; fields: FieldSpec[] })
  | (FieldBase & { kind: 'json' });

/**
 * What a field holds while the user edits: text for string, number, bodyId, enum and list fields;
 * a boolean for checkboxes; the chosen options for enum lists; three texts for a vec3.
 */
export type FieldValue = string | boolean | string[] | [string, string, string] | undefined;
export type FormValues = Record<string, FieldValue>;

const asObject = (v: unknown): JsonSchema | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonSchema) : undefined);
const asStrings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined);

/** A body reference: bodyId, fromBodyId, toBodyId, referenceBodyId ... */
export function isBodyIdKey(key: string): boolean {
  return /(^b|B)odyId$/.test(key);
}

/** The fields of a tool's input schema, in the schema's property order. */
export function fieldsOf(schema: JsonSchema, prefix = ''): FieldSpec[] {
  const properties = asObject(schema.properties) ?? {};
  const required = new Set(asStrings(schema.required) ?? []);
  return Object.entries(properties).map(([key, raw]) => fieldOf(key, asObject(raw) ?? {}, prefix, required.has(key)));
}

function isNumberSchema(s: JsonSchema | undefined): boolean {
  return s?.type === 'number' || s?.type === 'integer';
}

function fieldOf(key: string, s: JsonSchema, prefix: string, required: boolean): FieldSpec {
  const base: FieldBase = {
    path: prefix ? `${prefix}.${key}` : key,
    label: key,
    description: typeof s.description === 'string' ? s.description : '',
    required,
  };
  if (s.default !== undefined) base.defaultValue = s.default;
  const enumValues = asStrings(s.enum);
  if (s.type === 'string' && enumValues) return { ...base, kind: 'enum', options: enumValues };
  if (s.type === 'string') return isBodyIdKey(key) ? { ...base, kind: 'bodyId' } : { ...base, kind: 'string' };
  if (isNumberSchema(s)) {
    const field: FieldSpec = { ...base, kind: 'number', integer: s.type === 'integer' };
    const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : undefined;
    // zod writes Number.MAX_SAFE_INTEGER as the bound of an unbounded int: not worth showing.
    const max = typeof s.maximum === 'number' && s.maximum < Number.MAX_SAFE_INTEGER ? s.maximum : undefined;
    if (min !== undefined) field.min = min;
    if (max !== undefined) field.max = max;
    return field;
  }
  if (s.type === 'boolean') return { ...base, kind: 'boolean' };
  if (s.type === 'array') {
    const prefixItems = Array.isArray(s.prefixItems) ? (s.prefixItems as unknown[]).map(asObject) : undefined;
    if (prefixItems?.length === 3 && prefixItems.every(isNumberSchema)) return { ...base, kind: 'vec3' };
    const items = asObject(s.items);
    const options = asStrings(items?.enum);
    if (items?.type === 'string' && options) return { ...base, kind: 'enumList', options };
    if (items?.type === 'string') return { ...base, kind: 'stringList' };
  }
  if (s.type === 'object' && asObject(s.properties)) return { ...base, kind: 'object', fields: fieldsOf(s, base.path) };
  return { ...base, kind: 'json' };
}

/** Placeholder text: the schema default, else whether the field may stay empty. */
export function placeholderOf(field: FieldSpec): string {
  if (field.defaultValue !== undefined) return `default: ${typeof field.defaultValue === 'string' ? field.defaultValue : JSON.stringify(field.defaultValue)}`;
  if (/\bdefault\b/i.test(field.description)) return 'default (see description)';
  return field.required ? 'required' : 'optional';
}

/** The number a text holds, or the text itself when it is not one (the engine then says why). */
function numberOrText(text: string): number | string {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? n : text;
}

const isEmptyText = (v: FieldValue): boolean => v === undefined || (typeof v === 'string' && v.trim() === '');

/** One field's argument value; undefined = omitted. */
function argOf(field: FieldSpec, values: FormValues): unknown {
  const v = values[field.path];
  switch (field.kind) {
    case 'object': {
      const obj = argsOf(field.fields, values);
      return Object.keys(obj).length ? obj : undefined;
    }
    case 'boolean':
      // A checkbox at its default is left out, so a share link carries only what was chosen.
      if (typeof v !== 'boolean') return undefined;
      return v === (field.defaultValue ?? false) ? undefined : v;
    case 'enumList':
      return Array.isArray(v) && v.length ? v : undefined;
    case 'vec3': {
      if (!Array.isArray(v) || v.every((x) => x.trim() === '')) return undefined;
      return v.map((x) => (x.trim() === '' ? null : numberOrText(x)));
    }
    case 'stringList':
      if (typeof v !== 'string' || v.trim() === '') return undefined;
      return v
        .split(/[\s,]+/)
        .map((x) => x.trim())
        .filter(Boolean);
    case 'number':
      return typeof v === 'string' && !isEmptyText(v) ? numberOrText(v.trim()) : undefined;
    case 'json':
      if (typeof v !== 'string' || v.trim() === '') return undefined;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    default:
      return typeof v === 'string' && !isEmptyText(v) ? v : undefined;
  }
}

/** The tool arguments the form describes. */
export function argsOf(fields: readonly FieldSpec[], values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = argOf(field, values);
    if (value !== undefined) out[field.path.split('.').pop() ?? field.path] = value;
  }
  return out;
}

/** Form values that show the given arguments (a share link's args); unknown keys are ignored. */
export function valuesOf(fields: readonly FieldSpec[], args: Record<string, unknown>): FormValues {
  const out: FormValues = {};
  for (const field of fields) {
    const key = field.path.split('.').pop() ?? field.path;
    const v = args[key];
    if (v === undefined) continue;
    switch (field.kind) {
      case 'object': {
        const inner = asObject(v);
        if (inner) Object.assign(out, valuesOf(field.fields, inner));
        break;
      }
      case 'boolean':
        if (typeof v === 'boolean') out[field.path] = v;
        break;
      case 'enumList':
        if (asStrings(v)) out[field.path] = asStrings(v);
        break;
      case 'vec3':
        if (Array.isArray(v) && v.length === 3) out[field.path] = v.map((x) => String(x)) as [string, string, string];
        break;
      case 'stringList':
        if (asStrings(v)) out[field.path] = (v as string[]).join(', ');
        break;
      case 'json':
        out[field.path] = JSON.stringify(v);
        break;
      default:
        out[field.path] = typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v);
    }
  }
  return out;
}

/** Every field path in the form, nested ones included. */
export function allFields(fields: readonly FieldSpec[]): FieldSpec[] {
  return fields.flatMap((f) => (f.kind === 'object' ? [f, ...allFields(f.fields)] : [f]));
}

/**
 * The field paths an INVALID_ARGUMENT message names: parseArgs writes `tool: path: message; ...`
 * with array indices as `[i]` (sectionAxis[1]).
 */
export function fieldsNamedIn(message: string, fields: readonly FieldSpec[]): Set<string> {
  const paths = new Set(allFields(fields).map((f) => f.path));
  const named = new Set<string>();
  const body = message.replace(/^[a-z_]+:\s*/, '');
  for (const part of body.split('; ')) {
    const m = /^([A-Za-z0-9_.]+)(?:\[\d+\])*:/.exec(part);
    if (m?.[1] && paths.has(m[1])) named.add(m[1]);
  }
  return named;
}
