import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import type { ScanUnit } from './scanUnits';
import { meshTopology, type MeshTopology } from '../mesh/meshTopology';
import type { FaceTessellation, TriMesh } from '../mesh/TriMesh';
import type { Rigid } from '../math/rigid';
import type { PointCloud } from './import/PointCloud';

/** `xyz` is a text point file (.xyz .pts .txt .csv .asc); `ply`, `obj`, `3mf` are meshes like STL. */
export type SourceFormat = 'brep' | 'stl' | 'step' | 'iges' | 'xbf' | 'ply' | 'obj' | '3mf' | 'xyz';

/**
 * Structures derived from one body (tessellations, BVHs, samples, topology reports, deviations
 * against another body), built on first use and kept until the body goes or changes. Keys are
 * strings the builders choose; a key naming another body's `uid` is dropped when that body goes.
 */
export class BodyCache {
  private readonly entries = new Map<string, unknown>();

  /** The value under `key`, built by `build` the first time it is asked for. */
  get<T>(key: string, build: () => T): T {
    if (this.entries.has(key)) return this.entries.get(key) as T;
    const value = build();
    this.entries.set(key, value);
    return value;
  }

  /** The value under `key`, if it was built. */
  peek<T>(key: string): T | undefined {
    return this.entries.get(key) as T | undefined;
  }

  /** Stores a value built elsewhere (an asynchronous build that finished). */
  set<T>(key: string, value: T): T {
    this.entries.set(key, value);
    return value;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  /** Drops every entry whose key satisfies `test` (e.g. all that name a removed partner body). */
  drop(test: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (test(key)) this.remove(key);
  }

  clear(): void {
    for (const key of [...this.entries.keys()]) this.remove(key);
  }

  /** Entries holding kernel objects carry a `dispose` that frees them; it runs when they go. */
  private remove(key: string): void {
    const value = this.entries.get(key);
    this.entries.delete(key);
    if (typeof value === 'object' && value !== null && 'dispose' in value && typeof value.dispose === 'function') (value as { dispose(): void }).dispose();
  }
}

/** How the body entered the scene: what a host keeps (and an engine replays) to rebuild the scene. */
export interface BodyOrigin {
  /** The path or name the file was read by. */
  path: string;
  /**
   * The file's content, kept while the body lives where the host cannot read the file again (the
   * browser's dropped files, bytes handed over) and for kernel formats (read_pmi reads them again).
   * Absent for a mesh file a Node host read from disk: a mesh body does not keep its file (50 bytes
   * a triangle of a binary STL); what needs the bytes reads `path` again (fileBytes tells whether it
   * is still the same size).
   */
  bytes?: Uint8Array | undefined;
  /** The file's size when it was read. */
  fileBytes: number;
  format: SourceFormat;
  /** read_brep with allowInvalid false refuses invalid shapes; import_file loads them flagged. */
  refuseInvalid: boolean;
  /** The unit a unitless scan file was given at import (its coordinates scaled to mm). */
  unit?: ScanUnit | undefined;
  /** The file's fingerprint (contentHash.ts): the same file loaded twice has the same one. */
  contentHash?: string | undefined;
}

/**
 * A body's length unit, when its file declares one (STEP, IGES, 3MF). The importers convert every
 * declared unit to millimetres (the kernel does for STEP and IGES, as OCCT's readers do by default),
 * so the unit of the coordinates is always mm; `declared` is what the file itself said. A file
 * without a unit (BREP, STL, PLY, OBJ, XBF) has none: its lengths are in "model units".
 */
export interface LengthUnit {
  unit: 'mm';
  /** The file's own name for its unit, as written (INCH, millimetre, MM, inch ...). */
  declared: string;
}

interface BodyInit {
  bodyId: string;
  name: string;
  sourceFormat: SourceFormat;
  source: string | undefined;
  /** What the importer left out or changed, for the user (materials ignored, units converted). */
  notes?: string[] | undefined;
  origin?: BodyOrigin | undefined;
  lengthUnit?: LengthUnit | undefined;
}

/**
 * Where a body stands in the scene: a rigid motion from the file's coordinates to the scene's
 * (docs/alignment.md). The file's bytes never change; every tool sees the placed geometry.
 */
export interface Placement {
  motion: Rigid;
  /** What set it: an alignment that was applied (with its figures), or set_placement. */
  setBy: PlacementRecord;
}

export type PlacementRecord =
  | { tool: 'set_placement' }
  | {
      tool: 'align_bodies';
      fixedBodyId: string;
      mode: 'bestFit' | 'preAlign' | 'fine';
      /** bestFit, 3-2-1 (datums) or localBestFit; absent in placements recorded before methods existed. */
      method?: string;
      rmsBefore: number;
      rmsAfter: number;
      converged: boolean;
      /** Alignments composed into this placement, this one included. */
      alignments: number;
    };

let nextUid = 0;

abstract class BodyBase {
  /** Unique in the process, unlike bodyId (a removed id can be taken again by another file). */
  readonly uid = ++nextUid;
  readonly bodyId: string;
  /** Human name: the file name without extension, or the name an assembly gave the part. */
  readonly name: string;
  readonly sourceFormat: SourceFormat;
  /** Where the body came from (a path, a URL or an uploaded file name), for reports. */
  readonly source: string | undefined;
  /** What the importer left out or changed, for the user (materials ignored, units converted). */
  readonly notes: string[] | undefined;
  readonly origin: BodyOrigin | undefined;
  /** The file's declared length unit, if it has one (docs/units.md). */
  readonly lengthUnit: LengthUnit | undefined;
  readonly cache = new BodyCache();
  private placed: Placement | null = null;
  /** Counts placement changes, so a host can tell a moved body from the one it kept. */
  placementRevision = 0;

  constructor(init: BodyInit) {
    this.bodyId = init.bodyId;
    this.name = init.name;
    this.sourceFormat = init.sourceFormat;
    this.source = init.source;
    this.notes = init.notes;
    this.origin = init.origin;
    this.lengthUnit = init.lengthUnit;
  }

  /** The body's placement in the scene; null where it stands as read from its file. */
  get placement(): Placement | null {
    return this.placed;
  }

  /**
   * Moves the body: everything derived from its geometry goes (tessellations, BVHs, exact geometry,
   * samples, deviations). Called through scene/placement.ts, which builds the placed geometry and
   * drops what other bodies derived against this one.
   */
  protected movedTo(placement: Placement | null): void {
    this.placed = placement;
    this.placementRevision++;
    this.cache.clear();
  }

  /** Frees what the body holds in the kernel and drops every derived structure. */
  dispose(): void {
    this.cache.clear();
  }
}

/** A body backed by an OCCT shape; tessellations are made on demand and cached per deflection. */
export class BrepBody extends BodyBase {
  readonly kind = 'brep' as const;
  /** Checker verdict: BRepCheck_Analyzer. */
  readonly valid: boolean;
  /** BRepMesh results per absolute deflection (BRepMesh is slow: never re-mesh in a loop). */
  readonly tessellations = new Map<number, FaceTessellation>();

  /** The shape as read from the file. */
  readonly sourceShape: TopoDS_Shape;
  /** The source shape with the placement folded into its geometry (a copy), when placed. */
  private placedShape: TopoDS_Shape | undefined;

  constructor(init: BodyInit, shape: TopoDS_Shape, valid: boolean) {
    super(init);
    this.sourceShape = shape;
    this.valid = valid;
  }

  /** The shape in scene coordinates: what every tool measures. */
  get shape(): TopoDS_Shape {
    return this.placedShape ?? this.sourceShape;
  }

  /** Takes `placed` (the source shape transformed by the placement; undefined for none) and frees the previous one. */
  place(placement: Placement | null, placed: TopoDS_Shape | undefined): void {
    this.tessellations.clear();
    this.movedTo(placement);
    this.placedShape?.delete();
    this.placedShape = placed;
  }

  override dispose(): void {
    super.dispose();
    this.tessellations.clear();
    this.placedShape?.delete();
    this.placedShape = undefined;
    this.sourceShape.delete();
  }
}

/** A body backed by typed arrays (an STL): no OCCT shape unless a BREP-only tool asks for one. */
export class MeshBody extends BodyBase {
  readonly kind = 'mesh' as const;
  /** The facet shell as an OCCT compound of triangles, built only when a BREP-only tool asks for it. */
  facetShape: TopoDS_Shape | undefined;

  /** The triangles as read from the file. */
  readonly sourceMesh: TriMesh;
  private placedMesh: TriMesh | undefined;

  constructor(init: BodyInit, mesh: TriMesh) {
    super(init);
    this.sourceMesh = mesh;
  }

  /** The triangles in scene coordinates: what every tool measures. */
  get mesh(): TriMesh {
    return this.placedMesh ?? this.sourceMesh;
  }

  /** Takes `placed` (the source mesh moved by the placement; undefined for none); the facet shell goes with the old position. */
  place(placement: Placement | null, placed: TriMesh | undefined): void {
    this.movedTo(placement);
    this.placedMesh = placed;
    this.facetShape?.delete();
    this.facetShape = undefined;
  }

  /** The facet-shell topology report, computed once when first asked (a deviation never asks). */
  get topology(): MeshTopology {
    return this.cache.get('topology', () => meshTopology(this.mesh));
  }

  /** Facet-shell checks: no degenerate triangle, no edge used by more than two triangles, consistent winding. */
  get valid(): boolean {
    const t = this.topology;
    return t.nonManifoldEdges === 0 && t.degenerateTriangles === 0 && t.inconsistentEdges === 0;
  }

  override dispose(): void {
    super.dispose();
    this.facetShape?.delete();
    this.facetShape = undefined;
  }
}

/**
 * A point cloud (a scan or CMM points): positions and, when the file had them, normals; no surface
 * and no topology, so only the tools that need neither take it (docs/point-clouds.md).
 */
export class PointsBody extends BodyBase {
  readonly kind = 'points' as const;
  /** A cloud has no topology to be invalid: the importer refuses non-finite coordinates. */
  readonly valid = true;

  private placedCloud: PointCloud | undefined;

  constructor(
    init: BodyInit,
    /** The points as read from the file. */
    readonly sourceCloud: PointCloud,
  ) {
    super(init);
  }

  /** The points in scene coordinates: what every tool measures. */
  get cloud(): PointCloud {
    return this.placedCloud ?? this.sourceCloud;
  }

  /** Takes `placed` (the source cloud moved by the placement; undefined for none). */
  place(placement: Placement | null, placed: PointCloud | undefined): void {
    this.movedTo(placement);
    this.placedCloud = placed;
  }
}

export type Body = BrepBody | MeshBody | PointsBody;
/** A body with a surface: everything but a point cloud. */
export type SurfaceBody = BrepBody | MeshBody;
