import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import type { FaceTessellation, TriMesh } from '../mesh/TriMesh';
import type { MeshTopology } from '../mesh/meshTopology';

/** `xyz` is a text point file (.xyz .pts .txt .csv); `ply`, `obj`, `3mf` are meshes like STL. */
export type SourceFormat = 'brep' | 'stl' | 'step' | 'iges' | 'xbf' | 'ply' | 'obj' | '3mf' | 'xyz';

interface BodyCommon {
  bodyId: string;
  /** Human name: the file name without extension, or the name an assembly gave the part. */
  name: string;
  sourceFormat: SourceFormat;
  /** Checker verdict: BRepCheck_Analyzer for BREP bodies, facet-shell checks for mesh bodies. */
  valid: boolean;
  /** Where the body came from (a path, a URL or an uploaded file name), for reports. */
  source: string | undefined;
  /** What the importer left out or changed, for the user (materials ignored, units converted). */
  notes?: string[] | undefined;
}

/** A body backed by an OCCT shape; tessellations are made on demand and cached per deflection. */
export interface BrepBody extends BodyCommon {
  kind: 'brep';
  shape: TopoDS_Shape;
  tessellations: Map<number, FaceTessellation>;
}

/** A body backed by typed arrays (an STL): no OCCT shape unless a BREP-only tool asks for one. */
export interface MeshBody extends BodyCommon {
  kind: 'mesh';
  mesh: TriMesh;
  topology: MeshTopology;
  /** The facet shell as an OCCT compound of triangles, built only when a BREP-only tool asks for it. */
  facetShape?: TopoDS_Shape | undefined;
}

export type Body = BrepBody | MeshBody;
