import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { BrepscopeError } from '../../errors';
import { SCAN_UNITS, type ScanUnit } from '../scanUnits';
import type { OC } from '../../kernel';
import { BrepBody, MeshBody, PointsBody, type Body, type BodyOrigin, type LengthUnit, type SourceFormat } from '../Body';
import { checkShape } from '../checkShape';
import { refuseOutOfRange } from './coordinateRange';
import type { Scene } from '../Scene';
import { readBrepShape } from './brep';
import { baseName, resolveFormat } from './detectFormat';
import { asBadInput } from './kernelFailure';
import { finishScan, isMeshFileFormat, parseScanFile, type MeshFileFormat, type ParsedScan } from './scanFile';
import type { MeshOrCloud } from './ply';
import type { TriMesh } from '../../mesh/TriMesh';
import { readExchangeShape } from './stepIges';
import { validateBeforeKernel } from './validate';
import { contentHash } from './contentHash';
import { readXbfShape } from './xbf';

import { MAX_IMPORT_BYTES, MAX_MESH_FILE_BYTES, tooLargeMessage } from './importLimits';

export { MAX_IMPORT_BYTES };

export interface ImportRequest {
  /** The file's content; absent when `stlMesh` was parsed from the file as it streamed by (then `fileBytes` is its size). */
  bytes?: Uint8Array | undefined;
  /** The file's size, when `bytes` is absent. */
  fileBytes?: number | undefined;
  /**
   * Whether the body keeps the bytes (BodyOrigin.bytes). Default true; a host that can read the
   * file again by its name (Node) passes false, and a mesh body then keeps none (kernel formats
   * always keep theirs).
   */
  keepBytes?: boolean | undefined;
  /** File name or path (for format detection, naming and messages). */
  fileName: string;
  format?: SourceFormat | undefined;
  bodyId?: string | undefined;
  /** read_brep semantics: an invalid shape is refused with the checker's findings unless allowed. */
  refuseInvalid?: boolean | undefined;
  /**
   * The STL already parsed by parseStl or parseStlPieces (the CLI parses an STL on its own thread
   * while the engine thread starts; a Node host streams it): used as is when the file is an STL,
   * so it is not parsed twice.
   */
  stlMesh?: TriMesh | undefined;
  /**
   * A PLY, an OBJ or a text point cloud read as it streamed by (readForImport): used as is, with
   * `fileBytes` its size, when `bytes` is absent.
   */
  scanContent?: StreamedScan | undefined;
  /**
   * The length unit of a unitless scan file (STL, PLY, OBJ, text points), as the user says it: its
   * coordinates are scaled to millimetres. A file that declares its unit (3MF) or a kernel format
   * refuses it (INVALID_ARGUMENT).
   */
  unit?: ScanUnit | undefined;
}

/** A scan file other than an STL read piece by piece, and the format it was read as. */
export interface StreamedScan {
  format: 'ply' | 'obj' | 'xyz';
  content: MeshOrCloud;
}

export interface ImportEnvironment {
  scene: Scene;
  kernel: () => Promise<OC>;
}

/**
 * Reads a file into a new body and adds it to the scene. Everything is parsed and checked before
 * the scene is touched, so a failed import leaves the scene exactly as it was.
 */
export async function importBody(env: ImportEnvironment, req: ImportRequest): Promise<Body> {
  const { scene } = env;
  const name = baseName(req.fileName);
  if (req.bodyId !== undefined && scene.has(req.bodyId)) {
    throw new BrepscopeError('BODY_EXISTS', `body '${req.bodyId}' is already in the scene; remove it first or choose another bodyId`);
  }
  const { bytes } = req;
  const size = bytes?.byteLength ?? req.fileBytes ?? 0;
  if (!bytes && !req.stlMesh && !req.scanContent) throw new BrepscopeError('INVALID_ARGUMENT', `${req.fileName}: neither the file's bytes nor its parsed mesh were given`);
  if (size === 0) throw new BrepscopeError('EMPTY_FILE', `${req.fileName}: the file is empty`);
  if (size > MAX_MESH_FILE_BYTES) {
    throw new BrepscopeError('FILE_TOO_LARGE', tooLargeMessage(req.fileName, size, MAX_MESH_FILE_BYTES, 'stl'));
  }
  const format = bytes ? resolveFormat(req.fileName, bytes, req.format) : (req.scanContent?.format ?? 'stl');
  // Mesh files never enter the kernel: the host's memory budget capped them when it read them.
  if (!isMeshFileFormat(format) && size > MAX_IMPORT_BYTES) {
    throw new BrepscopeError('FILE_TOO_LARGE', tooLargeMessage(req.fileName, size, MAX_IMPORT_BYTES, format));
  }
  const bodyId = req.bodyId ?? scene.uniqueId(name);
  const kept = bytes && (req.keepBytes !== false || !isMeshFileFormat(format)) ? bytes : undefined;
  if (req.unit !== undefined && !isMeshFileFormat(format)) {
    throw new BrepscopeError('INVALID_ARGUMENT', `${req.fileName}: unit applies to scan files without a unit (STL, PLY, OBJ, text points); a ${format.toUpperCase()} file is read in its own unit`);
  }
  const origin: BodyOrigin = { path: req.fileName, bytes: kept, fileBytes: size, format, refuseInvalid: !!req.refuseInvalid, ...(req.unit !== undefined ? { unit: req.unit } : {}) };
  // A mesh file's fingerprint is its geometry as read (below): a Node host streams it, bytes are gone.
  if (bytes && !isMeshFileFormat(format)) origin.contentHash = await contentHash([bytes]);
  const common = { bodyId, name, sourceFormat: format, source: req.fileName, origin };

  if (isMeshFileFormat(format)) {
    // The topology report (and with it `valid`) is computed when first asked, not here: a deviation never needs it.
    const parsed: ParsedScan =
      format === 'stl' && req.stlMesh
        ? { kind: 'mesh', mesh: req.stlMesh, notes: [], declaredUnit: null }
        : !bytes && req.scanContent
          ? finishScan(req.scanContent.content, req.fileName)
          : parseScanFile(format, bytes!, req.fileName);
    // Before any unit scaling: the same file given another unit is still the same file.
    origin.contentHash = await contentHash(geometryOf(parsed), 'geometry-');
    if (req.unit !== undefined) {
      if (parsed.declaredUnit !== null) throw new BrepscopeError('INVALID_ARGUMENT', `${req.fileName}: the file declares its unit (${parsed.declaredUnit}); unit is for files without one`);
      inUnit(parsed, req.unit);
    }
    refuseOutOfRange(parsed, req.fileName, req.unit !== undefined && SCAN_UNITS[req.unit] !== 1);
    const init = { ...common, ...(parsed.notes.length ? { notes: parsed.notes } : {}), lengthUnit: millimetres(parsed.declaredUnit) };
    const body = parsed.kind === 'mesh' ? new MeshBody(init, parsed.mesh) : new PointsBody(init, parsed.cloud);
    scene.add(body);
    return body;
  }

  // Structural checks in milliseconds, so most corrupt files never reach (or hang) the kernel.
  validateBeforeKernel(format, bytes!, req.fileName);
  const oc = await env.kernel();
  const { shape, declaredUnit } = readShape(oc, bytes!, req.fileName, format);
  const lengthUnit = millimetres(declaredUnit);
  try {
    const check = asBadInput(oc, req.fileName, () => checkShape(oc, shape));
    if (req.refuseInvalid && !check.valid) {
      throw new BrepscopeError(
        'INVALID_GEOMETRY',
        `${req.fileName}: the shape is invalid (BRepCheck_Analyzer rejects ${check.invalidEntities.length ? check.invalidEntities.join(', ') : 'the shape as a whole'}); pass allowInvalid: true to load it anyway`,
        { invalidEntities: check.invalidEntities },
      );
    }
    const notes = lengthUnit && !isMillimetre(lengthUnit.declared) ? [`${format.toUpperCase()} length unit ${lengthUnit.declared}: the kernel converted coordinates to millimetres`] : [];
    const body = new BrepBody({ ...common, lengthUnit, ...(notes.length ? { notes } : {}) }, shape, check.valid);
    scene.add(body);
    return body;
  } catch (e) {
    shape.delete();
    throw e;
  }
}

function readShape(oc: OC, bytes: Uint8Array, fileName: string, format: Exclude<SourceFormat, MeshFileFormat>): { shape: TopoDS_Shape; declaredUnit: string | null } {
  switch (format) {
    case 'brep':
      return { shape: readBrepShape(oc, bytes, fileName), declaredUnit: null };
    case 'step':
    case 'iges':
      return readExchangeShape(oc, bytes, fileName, format);
    case 'xbf':
      return { shape: readXbfShape(oc, bytes, fileName), declaredUnit: null };
  }
}

/** A scan read in `unit` (the user's word for a unitless file): its coordinates scaled to millimetres, in place. */
function inUnit(parsed: ParsedScan, unit: ScanUnit): void {
  const factor = SCAN_UNITS[unit];
  const positions = parsed.kind === 'mesh' ? parsed.mesh.positions : parsed.cloud.positions;
  if (factor !== 1) for (let i = 0; i < positions.length; i++) positions[i] = positions[i]! * factor;
  parsed.declaredUnit = `${unit} (given at import)`;
  if (factor !== 1) parsed.notes.push(`coordinates in ${unit} (given at import): scaled by ${factor} to millimetres`);
}

function geometryOf(parsed: ParsedScan): ArrayBufferView[] {
  return parsed.kind === 'mesh' ? [parsed.mesh.positions, parsed.mesh.indices] : [parsed.cloud.positions];
}

/** A declared unit, converted to mm by the reader (STEP, IGES, 3MF); none when the file declares none. */
function millimetres(declared: string | null): LengthUnit | undefined {
  return declared ? { unit: 'mm', declared } : undefined;
}

function isMillimetre(unit: string): boolean {
  return /^(mm|millimet(er|re)s?)$/i.test(unit.trim());
}
