import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { meshTopology, type MeshTopology } from '../mesh/meshTopology';
import type { FaceTessellation, TriMesh } from '../mesh/TriMesh';
import type { PointCloud } from './import/PointCloud';

/** `xyz` is a text point file (.xyz .pts .txt .csv); `ply`, `obj`, `3mf` are meshes like STL. */
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
  bytes: Uint8Array;
  format: SourceFormat;
  /** read_brep with allowInvalid false refuses invalid shapes; import_file loads them flagged. */
  refuseInvalid: boolean;
}

interface BodyInit {
  bodyId: string;
  name: string;
  sourceFormat: SourceFormat;
  source: string | undefined;
  /** What the importer left out or changed, for the user (materials ignored, units converted). */
  notes?: string[] | undefined;
  origin?: BodyOrigin | undefined;
}

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
  readonly cache = new BodyCache();

  constructor(init: BodyInit) {
    this.bodyId = init.bodyId;
    this.name = init.name;
    this.sourceFormat = init.sourceFormat;
    this.source = init.source;
    this.notes = init.notes;
    this.origin = init.origin;
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

  constructor(
    init: BodyInit,
    readonly shape: TopoDS_Shape,
    valid: boolean,
  ) {
    super(init);
    this.valid = valid;
  }

  override dispose(): void {
    super.dispose();
    this.tessellations.clear();
    this.shape.delete();
  }
}

/** A body backed by typed arrays (an STL): no OCCT shape unless a BREP-only tool asks for one. */
export class MeshBody extends BodyBase {
  readonly kind = 'mesh' as const;
  /** The facet shell as an OCCT compound of triangles, built only when a BREP-only tool asks for it. */
  facetShape: TopoDS_Shape | undefined;

  constructor(
    init: BodyInit,
    readonly mesh: TriMesh,
  ) {
    super(init);
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

  constructor(
    init: BodyInit,
    readonly cloud: PointCloud,
  ) {
    super(init);
  }
}

export type Body = BrepBody | MeshBody | PointsBody;
/** A body with a surface: everything but a point cloud. */
export type SurfaceBody = BrepBody | MeshBody;
