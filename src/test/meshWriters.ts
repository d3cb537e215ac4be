import { strToU8, zipSync } from 'fflate';
import type { TriMesh } from '../engine/mesh/TriMesh';

/**
 * Writers of the scan formats for tests, fixtures and benchmarks (files are made at test time, never
 * committed). Coordinates are written as float32 in binary and as the shortest text of the float32
 * value in text formats, so every format carries exactly the triangles a binary STL of the mesh does.
 */

export type PlyEncoding = 'ascii' | 'binary_little_endian' | 'binary_big_endian';

export interface PlyOptions {
  encoding: PlyEncoding;
  /** Write faces (default true); without them the file is a point cloud. */
  faces?: boolean;
  normals?: Float32Array;
  colors?: Uint8Array;
  /** Faces as these polygons (lists of vertex indices) instead of the mesh's triangles. */
  polygons?: number[][];
  /** Index list type, default `int`. */
  indexType?: 'int' | 'uint' | 'ushort' | 'uchar';
}

const f32 = (v: number): number => Math.fround(v);
/** The shortest decimal text that reads back as this float32 value. */
export const float32Text = (v: number): string => {
  const x = f32(v);
  for (let digits = 1; digits <= 9; digits++) {
    const t = x.toPrecision(digits);
    if (f32(Number(t)) === x && Number(t) === x) return String(Number(t));
  }
  return String(x);
};

export function writePly(mesh: TriMesh, options: PlyOptions): Uint8Array {
  const V = mesh.positions.length / 3;
  const polygons = options.faces === false ? [] : (options.polygons ?? triangles(mesh));
  const indexType = options.indexType ?? 'int';
  const head = [
    'ply',
    `format ${options.encoding} 1.0`,
    'comment written by brepscope tests',
    `element vertex ${V}`,
    'property float x',
    'property float y',
    'property float z',
    ...(options.normals ? ['property float nx', 'property float ny', 'property float nz'] : []),
    ...(options.colors ? ['property uchar red', 'property uchar green', 'property uchar blue'] : []),
    ...(options.faces === false ? [] : [`element face ${polygons.length}`, `property list uchar ${indexType} vertex_indices`]),
    'end_header',
    '',
  ].join('\n');
  if (options.encoding === 'ascii') {
    const lines: string[] = [head];
    for (let v = 0; v < V; v++) {
      const fields = [0, 1, 2].map((k) => float32Text(mesh.positions[v * 3 + k]!));
      if (options.normals) for (let k = 0; k < 3; k++) fields.push(float32Text(options.normals[v * 3 + k]!));
      if (options.colors) for (let k = 0; k < 3; k++) fields.push(String(options.colors[v * 3 + k]!));
      lines.push(fields.join(' ') + '\n');
    }
    for (const p of polygons) lines.push(`${p.length} ${p.join(' ')}\n`);
    return new TextEncoder().encode(lines.join(''));
  }
  const le = options.encoding === 'binary_little_endian';
  const indexSize = { int: 4, uint: 4, ushort: 2, uchar: 1 }[indexType];
  const vertexSize = 12 + (options.normals ? 12 : 0) + (options.colors ? 3 : 0);
  const faceBytes = polygons.reduce((s, p) => s + 1 + p.length * indexSize, 0);
  const headBytes = new TextEncoder().encode(head);
  const out = new Uint8Array(headBytes.length + V * vertexSize + faceBytes);
  out.set(headBytes);
  const view = new DataView(out.buffer);
  let at = headBytes.length;
  for (let v = 0; v < V; v++) {
    for (let k = 0; k < 3; k++, at += 4) view.setFloat32(at, mesh.positions[v * 3 + k]!, le);
    if (options.normals) for (let k = 0; k < 3; k++, at += 4) view.setFloat32(at, options.normals[v * 3 + k]!, le);
    if (options.colors) for (let k = 0; k < 3; k++) view.setUint8(at++, options.colors[v * 3 + k]!);
  }
  for (const p of polygons) {
    view.setUint8(at++, p.length);
    for (const i of p) {
      if (indexSize === 4) view.setUint32(at, i, le);
      else if (indexSize === 2) view.setUint16(at, i, le);
      else view.setUint8(at, i);
      at += indexSize;
    }
  }
  return out;
}

function triangles(mesh: TriMesh): number[][] {
  const out: number[][] = [];
  for (let t = 0; t < mesh.indices.length; t += 3) out.push([mesh.indices[t]!, mesh.indices[t + 1]!, mesh.indices[t + 2]!]);
  return out;
}

export type ObjIndexForm = 'v' | 'v/vt' | 'v//vn' | 'v/vt/vn';

export interface ObjOptions {
  form?: ObjIndexForm;
  /** Negative (relative) indices instead of absolute ones. */
  negative?: boolean;
  /** Split the faces into this many `o`/`g` groups. */
  groups?: number;
  /** Write an `mtllib` and `usemtl`. */
  materials?: boolean;
}

export function writeObj(mesh: TriMesh, options: ObjOptions = {}): Uint8Array {
  const form = options.form ?? 'v';
  const V = mesh.positions.length / 3;
  const lines: string[] = ['# written by brepscope tests'];
  if (options.materials) lines.push('mtllib part.mtl');
  for (let v = 0; v < V; v++) lines.push(`v ${[0, 1, 2].map((k) => float32Text(mesh.positions[v * 3 + k]!)).join(' ')}`);
  if (form.includes('vt')) lines.push('vt 0 0');
  if (form.includes('vn')) lines.push('vn 0 0 1');
  const T = mesh.indices.length / 3;
  const groups = options.groups ?? 1;
  for (let t = 0; t < T; t++) {
    if (groups > 1 && t % Math.ceil(T / groups) === 0) lines.push(`${t % 2 ? 'g' : 'o'} part${t}`);
    if (options.materials && t === 0) lines.push('usemtl steel');
    const corner = (i: number): string => {
      const v = options.negative ? i - V : i + 1;
      const tex = options.negative ? -1 : 1;
      return form === 'v' ? `${v}` : form === 'v/vt' ? `${v}/${tex}` : form === 'v//vn' ? `${v}//${tex}` : `${v}/${tex}/${tex}`;
    };
    lines.push(`f ${corner(mesh.indices[t * 3]!)} ${corner(mesh.indices[t * 3 + 1]!)} ${corner(mesh.indices[t * 3 + 2]!)}`);
  }
  return new TextEncoder().encode(lines.join('\n') + '\n');
}

export interface ThreeMfObject {
  mesh: TriMesh;
  /** 12 numbers of the build item's transform (3MF row-vector convention); none: identity. */
  transform?: number[];
}

/** A 3MF package with one mesh object per entry, each placed by its own build item. */
export function write3mf(objects: ThreeMfObject[], unit = 'millimeter'): Uint8Array {
  const resources = objects
    .map((o, i) => {
      const V = o.mesh.positions.length / 3;
      const vertices: string[] = [];
      for (let v = 0; v < V; v++) {
        vertices.push(`<vertex x="${float32Text(o.mesh.positions[v * 3]!)}" y="${float32Text(o.mesh.positions[v * 3 + 1]!)}" z="${float32Text(o.mesh.positions[v * 3 + 2]!)}"/>`);
      }
      const tris: string[] = [];
      for (let t = 0; t < o.mesh.indices.length; t += 3) tris.push(`<triangle v1="${o.mesh.indices[t]}" v2="${o.mesh.indices[t + 1]}" v3="${o.mesh.indices[t + 2]}"/>`);
      return `<object id="${i + 1}" type="model"><mesh><vertices>${vertices.join('')}</vertices><triangles>${tris.join('')}</triangles></mesh></object>`;
    })
    .join('\n');
  const items = objects.map((o, i) => `<item objectid="${i + 1}"${o.transform ? ` transform="${o.transform.join(' ')}"` : ''}/>`).join('');
  const model = `<?xml version="1.0" encoding="UTF-8"?>
<model unit="${unit}" xml:lang="en-US" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">
<resources>${resources}</resources>
<build>${items}</build>
</model>`;
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>',
    ),
    '3D/3dmodel.model': strToU8(model),
  });
}

/** A text point file: one `x y z [nx ny nz]` line per point. */
export function writePointText(positions: Float64Array | Float32Array, options: { normals?: Float32Array; separator?: string; header?: string } = {}): Uint8Array {
  const sep = options.separator ?? ' ';
  const lines: string[] = options.header ? [options.header] : [];
  for (let i = 0; i < positions.length / 3; i++) {
    const fields = [0, 1, 2].map((k) => float32Text(positions[i * 3 + k]!));
    if (options.normals) for (let k = 0; k < 3; k++) fields.push(float32Text(options.normals[i * 3 + k]!));
    lines.push(fields.join(sep));
  }
  return new TextEncoder().encode(lines.join('\n') + '\n');
}
