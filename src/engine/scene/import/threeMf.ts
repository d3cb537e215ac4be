import { SaxesParser } from 'saxes';
import { BrepscopeError } from '../../errors';
import type { IndexedMesh } from './indexedMesh';
import { checkImportMemory } from './importLimits';
import { Float64Builder, quoteBytes, Uint32Builder } from './textScanner';
import { unzipWithin, ZIP_LIMITS } from './zipBudget';

/** A 3MF transform: 12 numbers, row-vector convention (x' = x m00 + y m10 + z m20 + m30). */
type Transform = Float64Array;

interface ObjectResource {
  mesh?: { positions: Float64Array; indices: Uint32Array } | undefined;
  components: { objectId: string; transform: Transform; path: string | undefined }[];
}

interface ModelPart {
  unit: string;
  objects: Map<string, ObjectResource>;
  build: { objectId: string; transform: Transform; path: string | undefined }[];
}

// A Map, not an object: a unit named '__proto__' or 'constructor' must not find the object prototype's members.
const UNIT_MM: ReadonlyMap<string, number> = new Map([
  ['micron', 0.001],
  ['millimeter', 1],
  ['centimeter', 10],
  ['inch', 25.4],
  ['foot', 304.8],
  ['meter', 1000],
]);
const IDENTITY: Transform = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);
const MAX_NESTING = 64;

/**
 * A 3MF package is a zip, and a zip starts with a local file header (`PK\3\4`; `PK\5\6`, its end
 * record, when it is empty). Judged from the first bytes, so a streamed file that is no zip (a
 * multi-GB file of zeros named .3mf) is refused before it is gathered in memory, as the whole file is.
 */
export function refuseNonZipHead(head: Uint8Array, name: string): void {
  if (head.length < 4) return;
  if (head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6))) return;
  throw new BrepscopeError('PARSE_FAILED', `${name}: not a readable 3MF package (a 3MF is a zip, which starts with 'PK'; this file starts with ${quoteBytes(head, 0, Math.min(head.length, 8))})`);
}

/**
 * Reads a 3MF package (a zip of XML parts: fflate to unzip, saxes to stream the XML without a DOM,
 * so it runs in Node and in a Web Worker): every mesh object reachable from the build, placed by its
 * build item and component transforms, in millimetres, as one indexed mesh. Mirroring transforms
 * flip the triangles so they stay wound outward.
 */
export function parse3mf(bytes: Uint8Array, name: string): { mesh: IndexedMesh; notes: string[]; unit: string } {
  refuseNonZipHead(bytes, name);
  const parts = unzipModelParts(bytes, name);
  const start = startPart(parts, name);
  const models = new Map<string, ModelPart>();
  const model = (path: string): ModelPart => {
    let m = models.get(path);
    if (!m) {
      const data = parts.get(path.replace(/^\//, ''));
      if (!data) throw new BrepscopeError('PARSE_FAILED', `${name}: the 3MF package has no part '${path}'`);
      m = parseModelXml(data, `${name}:${path}`);
      models.set(path, m);
    }
    return m;
  };
  const root = model(start);
  const scale = UNIT_MM.get(root.unit);
  if (scale === undefined) throw new BrepscopeError('PARSE_FAILED', `${name}: unknown 3MF unit '${root.unit.slice(0, 80)}' (3MF units: ${[...UNIT_MM.keys()].join(', ')})`);
  const notes: string[] = [];
  if (scale !== 1) notes.push(`3MF unit ${root.unit}: coordinates converted to millimetres`);
  if (root.build.length === 0) throw new BrepscopeError('EMPTY_MESH', `${name}: the 3MF build has no items`);

  const objectOf = (path: string, objectId: string, depth: number): ObjectResource => {
    if (depth > MAX_NESTING) throw new BrepscopeError('PARSE_FAILED', `${name}: 3MF components nest deeper than ${MAX_NESTING} levels (a component cycle?) at object ${objectId}`);
    const object = model(path).objects.get(objectId);
    if (!object) throw new BrepscopeError('PARSE_FAILED', `${name}: the 3MF build refers to object ${objectId}, which ${path} does not define`);
    return object;
  };
  // The placed size first, counted per object once (an object placing the one below twice, 40 deep,
  // expands to 2^40 copies from a few KB): refused before any of it is allocated.
  const expanded = new Map<string, { vertices: number; triangles: number }>();
  const sizeOf = (path: string, objectId: string, depth: number): { vertices: number; triangles: number } => {
    const key = `${path}\u0000${objectId}`;
    let size = expanded.get(key);
    if (size) return size;
    const object = objectOf(path, objectId, depth);
    size = { vertices: (object.mesh?.positions.length ?? 0) / 3, triangles: (object.mesh?.indices.length ?? 0) / 3 };
    for (const c of object.components) {
      const inner = sizeOf(c.path ?? path, c.objectId, depth + 1);
      size = { vertices: size.vertices + inner.vertices, triangles: size.triangles + inner.triangles };
    }
    expanded.set(key, size);
    return size;
  };
  let vertices = 0, triangles = 0;
  for (const item of root.build) {
    const size = sizeOf(item.path ?? start, item.objectId, 0);
    vertices += size.vertices;
    triangles += size.triangles;
  }
  // Float64 positions and Uint32 indices, each grown by doubling (up to twice their size) then copied once.
  checkImportMemory(3 * (vertices * 24 + triangles * 12), name, `its build places ${triangles} triangles and ${vertices} vertices`);

  const positions = new Float64Builder(Math.max(3, vertices * 3));
  const indices = new Uint32Builder(Math.max(3, triangles * 3));
  const place = (path: string, objectId: string, transform: Transform, depth: number): void => {
    const object = objectOf(path, objectId, depth);
    if (!transform.every(Number.isFinite)) {
      throw new BrepscopeError('PARSE_FAILED', `${name}: the placement of object ${objectId} overflows (its composed transform is not finite)`);
    }
    if (object.mesh) appendPlaced(object.mesh, transform, scale, positions, indices, `${name}: object ${objectId}`);
    for (const c of object.components) place(c.path ?? path, c.objectId, compose(c.transform, transform), depth + 1);
  };
  for (const item of root.build) place(item.path ?? start, item.objectId, item.transform, 0);
  if (indices.length === 0) throw new BrepscopeError('EMPTY_MESH', `${name}: the 3MF build places no triangles`);
  return { mesh: { positions: positions.toArray(), indices: indices.toArray() }, notes, unit: root.unit };
}

function unzipModelParts(bytes: Uint8Array, name: string): Map<string, Uint8Array> {
  // Sizes and ratios are judged before inflating, and again while inflating (zipBudget.ts); every part
  // inflated is held at once, so their declared total is checked against the memory budget first.
  const wanted = (entry: string): boolean => entry.endsWith('.rels') || entry.toLowerCase().endsWith('.model');
  return unzipWithin(bytes, name, wanted, '3MF package', ZIP_LIMITS, (declared) => checkImportMemory(declared, name, `its model parts declare ${declared} bytes uncompressed together`));
}

/** The model part the package relationships name as the 3D model, else the only .model part. */
function startPart(parts: Map<string, Uint8Array>, name: string): string {
  const rels = parts.get('_rels/.rels');
  if (rels) {
    let target: string | undefined;
    streamXml(rels, `${name}:_rels/.rels`, (tag, attributes) => {
      if (tag.endsWith('Relationship') && /3dmodel$/.test(attributes.Type ?? '') && !target) target = attributes.Target;
    });
    if (target) return target.startsWith('/') ? target : `/${target}`;
  }
  const models = [...parts.keys()].filter((p) => p.toLowerCase().endsWith('.model'));
  if (models.length === 0) throw new BrepscopeError('PARSE_FAILED', `${name}: not a 3MF package (no 3D model part)`);
  return `/${models[0]!}`;
}

function parseModelXml(data: Uint8Array, where: string): ModelPart {
  const part: ModelPart = { unit: 'millimeter', objects: new Map(), build: [] };
  let current: ObjectResource | undefined;
  let currentId = '';
  let positions: Float64Builder | undefined;
  let indices: Uint32Builder | undefined;
  const bad = (what: string): BrepscopeError => new BrepscopeError('PARSE_FAILED', `${where}: ${what}`);
  const num = (attributes: Record<string, string>, key: string, what: string): number => {
    const v = Number(attributes[key]);
    if (attributes[key] === undefined || attributes[key] === '' || !Number.isFinite(v)) throw bad(`${what}: ${key}="${attributes[key] ?? ''}" is not a finite number`);
    return v;
  };
  streamXml(
    data,
    where,
    (tag, a) => {
      switch (local(tag)) {
        case 'model':
          if (a.unit) part.unit = a.unit;
          break;
        case 'object':
          if (!a.id) throw bad('an object without an id');
          current = { components: [] };
          currentId = a.id;
          part.objects.set(a.id, current);
          break;
        case 'mesh':
          positions = new Float64Builder();
          indices = new Uint32Builder();
          break;
        case 'vertex':
        {
          if (!positions) throw bad('a vertex outside a mesh');
          const what = `object ${currentId} vertex ${positions.length / 3}`;
          positions.push(num(a, 'x', what));
          positions.push(num(a, 'y', what));
          positions.push(num(a, 'z', what));
          break;
        }
        case 'triangle': {
          if (!positions || !indices) throw bad('a triangle outside a mesh');
          const count = positions.length / 3;
          for (const key of ['v1', 'v2', 'v3']) {
            const v = num(a, key, `object ${currentId} triangle ${indices.length / 3}`);
            if (!Number.isInteger(v) || v < 0 || v >= count) throw bad(`object ${currentId} triangle ${Math.floor(indices.length / 3)}: ${key}=${v} is not one of the ${count} vertices`);
            indices.push(v);
          }
          break;
        }
        case 'component':
          if (!current) throw bad('a component outside an object');
          current.components.push({ objectId: a.objectid ?? '', transform: parseTransform(a.transform, where), path: a['p:path'] });
          break;
        case 'item':
          part.build.push({ objectId: a.objectid ?? '', transform: parseTransform(a.transform, where), path: a['p:path'] });
          break;
      }
    },
    (tag) => {
      if (local(tag) === 'mesh' && current && positions && indices) {
        current.mesh = { positions: positions.toArray(), indices: indices.toArray() };
        positions = indices = undefined;
      } else if (local(tag) === 'object') current = undefined;
    },
  );
  return part;
}

function local(tag: string): string {
  const colon = tag.indexOf(':');
  return colon < 0 ? tag : tag.slice(colon + 1);
}

function parseTransform(text: string | undefined, where: string): Transform {
  if (text === undefined) return IDENTITY;
  const values = text.trim().split(/\s+/).map(Number);
  if (values.length !== 12 || !values.every(Number.isFinite)) throw new BrepscopeError('PARSE_FAILED', `${where}: transform "${text}" is not 12 finite numbers`);
  return Float64Array.from(values);
}

/** `inner` then `outer`, both row-vector 4x3 matrices. */
function compose(inner: Transform, outer: Transform): Transform {
  const out = new Float64Array(12);
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 3; c++) {
      let v = r === 3 ? outer[9 + c]! : 0;
      for (let k = 0; k < 3; k++) v += inner[r * 3 + k]! * outer[k * 3 + c]!;
      out[r * 3 + c] = v;
    }
  }
  return out;
}

function appendPlaced(mesh: { positions: Float64Array; indices: Uint32Array }, m: Transform, scale: number, positions: Float64Builder, indices: Uint32Builder, where: string): void {
  const base = positions.length / 3;
  const p = mesh.positions;
  for (let i = 0; i < p.length; i += 3) {
    const x = p[i]!, y = p[i + 1]!, z = p[i + 2]!;
    const px = (x * m[0]! + y * m[3]! + z * m[6]! + m[9]!) * scale;
    const py = (x * m[1]! + y * m[4]! + z * m[7]! + m[10]!) * scale;
    const pz = (x * m[2]! + y * m[5]! + z * m[8]! + m[11]!) * scale;
    // Finite numbers whose product is not (1e308 times 10): a coded error, not a body of NaN metrics.
    if (!Number.isFinite(px + py + pz)) throw new BrepscopeError('PARSE_FAILED', `${where}: vertex ${i / 3} placed at a non-finite position (the transform overflows)`);
    positions.push(px);
    positions.push(py);
    positions.push(pz);
  }
  const det = m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) - m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) + m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!);
  const t = mesh.indices;
  for (let i = 0; i < t.length; i += 3) {
    indices.push(base + t[i]!);
    // A mirroring placement turns the surface inside out unless the triangles turn with it.
    indices.push(base + t[det < 0 ? i + 2 : i + 1]!);
    indices.push(base + t[det < 0 ? i + 1 : i + 2]!);
  }
}

/** Streams an XML part through saxes in chunks, so a part of hundreds of MB never becomes one string. */
function streamXml(data: Uint8Array, where: string, open: (tag: string, attributes: Record<string, string>) => void, close?: (tag: string) => void): void {
  const parser = new SaxesParser({ position: true });
  let failure: unknown;
  parser.on('error', (e) => {
    failure ??= new BrepscopeError('PARSE_FAILED', `${where}: not well-formed XML (${e.message})`);
  });
  parser.on('opentag', (tag) => {
    if (failure) return;
    try {
      open(tag.name, tag.attributes as Record<string, string>);
    } catch (e) {
      failure = e;
    }
  });
  if (close) parser.on('closetag', (tag) => failure || close(tag.name));
  const decoder = new TextDecoder('utf-8');
  const CHUNK = 1 << 22;
  for (let at = 0; at < data.length && !failure; at += CHUNK) {
    parser.write(decoder.decode(data.subarray(at, Math.min(data.length, at + CHUNK)), { stream: true }));
  }
  if (!failure) parser.close();
  if (failure) throw failure;
}
