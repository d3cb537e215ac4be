import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { nodeSqlJs } from '../../node/nodeSqlJs';
import { dataPath } from '../../test/data';
import { FEATURE_BLOCK, makeFeatureBlock } from '../../test/featureBlock';
import { compoundOf, makeBox, makeSphere, shellWithout } from '../../test/kernelShapes';
import { BrepscopeError } from '../errors';
import { withKernel, type OC } from '../kernel';
import { checkShape } from '../scene/checkShape';
import { readBrepShape } from '../scene/import/brep';
import { writeBrepBytes } from './brepFile';
import type { ToolArgs } from '../tools/registry';
import { graphMl, type GraphMlResult } from './graphMl';
import { MAX_EDGE_SAMPLES, MAX_UV_SAMPLES } from './graphOptions';
import { graphSelect, type EdgeFacesResult, type EdgesClassResult, type FaceNeighborsResult, type GraphSelectArgs } from './graphSelect';
import { exportGraphSqlite, queryGraphSqlite } from './graphSqlite';
import { graphValidate, type SelfIntersectionMode } from './graphValidate';
import { jsonChunks } from './jsonChunks';
import { buildTopologyGraph, kindMaps, type TopologyGraph } from './topologyGraph';

let oc: OC;
let dir: string;
/** The graph commands as every host runs them: registry tools on an engine. */
const engine = testEngine();
const runGraphValidate = (path: string, o: { selfIntersection?: SelfIntersectionMode } = {}) => engine.run('graph_validate', { path, ...o }).then((r) => r.result);
const runGraphCompact = (path: string, outputPath: string) => engine.run('graph_compact', { path, outputPath }).then((r) => r.result);
const runGraphDedup = (path: string, outputPath: string) => engine.run('graph_dedup', { path, outputPath }).then((r) => r.result);
const runGraphExport = (path: string, outputPath: string) => engine.run('graph_export', { path, outputPath }).then((r) => r.result);
const runGraphQuery = (path: string) => engine.run('graph_query', { path }).then((r) => r.result);
const runGraphMl = (path: string, o: { uvSamples?: number; edgeSamples?: number } = {}) => engine.run('graph_ml', { path, ...o }).then((r) => r.result);
// Bad selectors are part of what is tested: the arguments go in as a caller would send them.
const runGraphSelect = (path: string, args: GraphSelectArgs) => engine.run('graph_select', { path, ...args } as ToolArgs<'graph_select'>).then((r) => r.result);
const REAL_FILES = ['occt/bottle.brep', 'occt/CrankArm.brep', 'cax-if/as1_pe_203.brep'];

beforeAll(async () => {
  oc = await nodeKernel();
  dir = mkdtempSync(join(tmpdir(), 'brepscope-graph-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a kernel-made shape as a BREP file in the temp folder and frees it. */
function brepFile(name: string, shape: TopoDS_Shape): string {
  const path = join(dir, name);
  writeFileSync(path, writeBrepBytes(oc, shape));
  shape.delete();
  return path;
}

function massProps(shape: TopoDS_Shape): { volume: number; area: number } {
  return withKernel(oc, (own) => {
    const v = own(new oc.GProp_GProps_1());
    // OCCT's default integration: outputs are compared with inputs by the same rule, and the boxes are exact.
    oc.BRepGProp.VolumeProperties_1(shape, v, false, false, false);
    const a = own(new oc.GProp_GProps_1());
    oc.BRepGProp.SurfaceProperties_1(shape, a, false, false);
    return { volume: v.Mass(), area: a.Mass() };
  });
}

function readShape(path: string): TopoDS_Shape {
  return readBrepShape(oc, readFileSync(path), path);
}

function kernelCounts(shape: TopoDS_Shape): Record<string, number> {
  return withKernel(oc, (own) => {
    const m = kindMaps(oc, own, shape);
    return { solids: m.solid.Extent(), shells: m.shell.Extent(), faces: m.face.Extent(), wires: m.wire.Extent(), edges: m.edge.Extent(), vertices: m.vertex.Extent() };
  });
}

async function expectCode(p: Promise<unknown> | (() => unknown), code: string): Promise<BrepscopeError> {
  let error: unknown;
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(BrepscopeError);
  expect((error as BrepscopeError).code).toBe(code);
  return error as BrepscopeError;
}

describe('box 10 x 20 x 30', () => {
  let box: TopoDS_Shape;
  let graph: TopologyGraph;
  beforeAll(() => {
    box = makeBox(oc, 10, 20, 30);
    graph = buildTopologyGraph(oc, box);
  });
  afterAll(() => box.delete());

  it('6 faces, 12 edges, 8 vertices, 24 coedges; every edge used once forward and once reversed', () => {
    expect([graph.shapeType, graph.solids.length, graph.shells.length, graph.faces.length, graph.wires.length]).toEqual(['SOLID', 1, 1, 6, 6]);
    expect([graph.edges.length, graph.vertices.length, graph.coedges.length]).toEqual([12, 8, 24]);
    for (const e of graph.edges) {
      expect(e.coedges.map((c) => graph.coedges[c]!.reversed).sort()).toEqual([false, true]);
      expect([e.faces.length, e.manifold, e.boundary, e.seam]).toEqual([2, true, false, false]);
    }
    for (const v of graph.vertices) expect(v.edges).toHaveLength(3);
    expect(graph.shells[0]!.closed).toBe(true);
  });

  it('every face has 4 convex neighbours (face-neighbors), none of them itself or its opposite face', () => {
    for (let f = 0; f < 6; f++) {
      const r = graphSelect(oc, box, { query: 'face-neighbors', face: f }, graph) as FaceNeighborsResult;
      expect(r.neighbors).toHaveLength(4);
      expect(r.neighbors.every((n) => n.convexity === 'convex' && n.sharedEdgeCount === 1 && n.face !== f)).toBe(true);
      expect(r.isPlanar).toBe(true);
      // A box face is axis-aligned: exactly one of horizontal / vertical, and the normal points away from the centre.
      expect(r.isHorizontal !== r.isVertical).toBe(true);
      const centre = [5, 10, 15];
      const p = graph.vertices[graph.edges[graph.coedges[graph.wires[graph.faces[f]!.wires[0]!]!.coedges[0]!]!.edge]!.start]!.position;
      expect(r.normal.reduce((s, n, i) => s + n * (p[i]! - centre[i]!), 0)).toBeGreaterThan(0);
    }
  });

  it('export then query: counts equal graph-validate and the kernel; valence face 4 and vertex 3', async () => {
    const SQL = await nodeSqlJs();
    const q = queryGraphSqlite(SQL, exportGraphSqlite(SQL, graph));
    expect(q.summary).toEqual({ ...kernelCounts(box), coedges: 24, boundaryEdges: 0, nonManifoldEdges: 0, degenerateEdges: 0, openShells: 0 });
    expect(q.counts).toEqual({ freeEdges: 0, openWires: 0, facesWithHoles: 0 });
    expect(q.valence).toEqual({ face: { max: 4, mean: 4, count: 6 }, vertex: { max: 3, mean: 3, count: 8 } });
    const v = graphValidate(oc, box);
    expect(v).toMatchObject({ isValid: true, errorCount: 0, selfIntersectionChecked: true, healthRecord: { shapeType: 'SOLID', freeEdgeCount: 0, nakedVertexCount: 0, selfIntersecting: false } });
    expect(graphValidate(oc, box, { selfIntersection: 'off' })).toMatchObject({ selfIntersectionChecked: false, healthRecord: { selfIntersecting: null } });
  });

  it('graph-ml: flags, COO graphs and grids have the sizes and values of a box', () => {
    const ml = graphMl(oc, box, { uvSamples: 3, edgeSamples: 4 }, graph);
    expect(ml.vertexPositions).toHaveLength(8);
    expect(ml.edgeBoundaryFlags).toEqual(Array(12).fill(false));
    expect(ml.edgeManifoldFlags).toEqual(Array(12).fill(true));
    expect(ml.faceToFace.sources).toHaveLength(24);
    expect(ml.faceToEdge.sources).toHaveLength(24);
    expect(ml.edgeToVertex.sources).toHaveLength(24);
    expect(ml.faceAdjacentFaces.every((l) => l.length === 4)).toBe(true);
    expect(ml.sampling).toEqual({ uvSamples: 3, edgeSamples: 4 });
    for (const f of ml.faces) {
      expect(f.positions).toHaveLength(9);
      expect(f.inside.every(Boolean)).toBe(true);
      expect(f.gaussianCurvatures.every((k) => k === 0)).toBe(true);
      expect(f.meanCurvatures.every((h) => h === 0)).toBe(true);
    }
    // Edge samples run along the edge from its start vertex to its end vertex.
    for (const e of ml.edges) {
      const edge = graph.edges[e.index]!;
      expect(e.samples).toHaveLength(4);
      expect(dist(e.samples[0]!, graph.vertices[edge.start]!.position)).toBeLessThan(1e-9);
      expect(dist(e.samples[3]!, graph.vertices[edge.end]!.position)).toBeLessThan(1e-9);
    }
    expect([...jsonChunks(ml, 97)].join('')).toBe(JSON.stringify(ml));
  });
});

const dist = (a: number[], b: number[]): number => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

describe('sphere r = 2.5', () => {
  const r = 2.5;
  it('one seam edge and two degenerate edges by class; Gaussian curvature 1/r^2 and mean curvature +1/r at every sample', () => {
    const sphere = makeSphere(oc, r);
    try {
      const seam = graphSelect(oc, sphere, { query: 'edges-class', class: 'seam' }) as EdgesClassResult;
      const degenerate = graphSelect(oc, sphere, { query: 'edges-class', class: 'degenerate' }) as EdgesClassResult;
      expect(seam.edges).toHaveLength(1);
      expect(degenerate.edges).toHaveLength(2);
      expect(degenerate.edges).not.toContain(seam.edges[0]);
      expect((graphSelect(oc, sphere, { query: 'edges-class', class: 'boundary' }) as EdgesClassResult).edges).toEqual([]);
      expect(graphValidate(oc, sphere)).toMatchObject({ isValid: true, healthRecord: { freeEdgeCount: 0 } });

      const ml = graphMl(oc, sphere);
      expect(ml.faces).toHaveLength(1);
      const face = ml.faces[0]!;
      expect(face.positions).toHaveLength(256);
      for (let i = 0; i < 256; i++) {
        expect(Math.abs(face.gaussianCurvatures[i]! - 1 / r ** 2)).toBeLessThan(1e-6);
        expect(Math.abs(face.meanCurvatures[i]! - 1 / r)).toBeLessThan(1e-6);
        // The outward normal is the radial direction, also at the poles (the first and last v rows).
        const p = face.positions[i]!;
        expect(dist(face.normals[i]!, [p[0] / r, p[1] / r, p[2] / r])).toBeLessThan(1e-5);
      }
    } finally {
      sphere.delete();
    }
  });
});

describe('block with a through-hole and a blind pocket', () => {
  let block: TopoDS_Shape;
  let graph: TopologyGraph;
  beforeAll(() => {
    block = makeFeatureBlock(oc);
    graph = buildTopologyGraph(oc, block);
  });
  afterAll(() => block.delete());

  it('the hole rim edges are convex, the pocket floor meets its walls over concave edges, seam = the hole seam', () => {
    const hole = graph.faces.findIndex((f) => f.surfaceType === 'cylinder');
    expect(hole).toBeGreaterThanOrEqual(0);
    const rim = graph.faceAdjacency.filter((a) => a.face1 === hole || a.face2 === hole);
    expect(rim).toHaveLength(2);
    expect(rim.every((a) => a.convexity === 'convex')).toBe(true);

    const ml = graphMl(oc, block, { uvSamples: 3, edgeSamples: 2 }, graph);
    const floor = ml.faces.findIndex((f) => f.positions.every((p) => Math.abs(p[2] - FEATURE_BLOCK.pocket.min[2]) < 1e-9) && f.normals.every((n) => n[2] > 0.999));
    expect(floor).toBeGreaterThanOrEqual(0);
    const walls = graph.faceAdjacency.filter((a) => a.face1 === floor || a.face2 === floor);
    expect(walls).toHaveLength(4);
    expect(walls.every((a) => a.convexity === 'concave')).toBe(true);
    // The hole wall bends toward its outward normal (a concave cylinder): mean curvature -(1/r + 0)/2.
    expect(ml.faces[hole]!.meanCurvatures.every((h) => Math.abs(h! + 1 / (2 * FEATURE_BLOCK.hole.radius)) < 1e-9)).toBe(true);

    const seam = graphSelect(oc, block, { query: 'edges-class', class: 'seam' }, graph) as EdgesClassResult;
    expect(seam.edges).toHaveLength(1);
    const ef = graphSelect(oc, block, { query: 'edge-faces', edge: seam.edges[0]! }, graph) as EdgeFacesResult;
    expect(ef).toMatchObject({ faces: [hole], seam: true, manifold: true, boundary: false });
    expect(graph.faces[graph.shells[0]!.faces.find((f) => graph.faces[f]!.wires.length > 1)!]!.surfaceType).toBe('plane');
  });
});

describe('box with a face removed', () => {
  it('4 boundary edges by class, graph-validate and graph-query', async () => {
    const box = makeBox(oc, 10, 20, 30);
    const open = shellWithout(oc, box, [0], false);
    box.delete();
    try {
      const boundary = graphSelect(oc, open, { query: 'edges-class', class: 'boundary' }) as EdgesClassResult;
      expect(boundary.edges).toHaveLength(4);
      const v = graphValidate(oc, open);
      expect(v.healthRecord).toMatchObject({ shapeType: 'SHELL', freeEdgeCount: 4, nakedVertexCount: 4 });
      // An open shell is a legal surface model: warnings, not errors.
      expect(v.isValid).toBe(true);
      expect(v.warnings.find((w) => w.kind === 'freeEdge')?.count).toBe(4);
      const SQL = await nodeSqlJs();
      const q = queryGraphSqlite(SQL, exportGraphSqlite(SQL, buildTopologyGraph(oc, open)));
      expect(q.summary).toMatchObject({ faces: 5, boundaryEdges: v.healthRecord.freeEdgeCount, openShells: 1 });
      expect(q.valence.vertex).toEqual({ max: 3, mean: 3, count: 8 });
      const ef = graphSelect(oc, open, { query: 'edge-faces', edge: boundary.edges[0]! }) as EdgeFacesResult;
      expect(ef).toMatchObject({ boundary: true, manifold: false });
      expect(ef.faces).toHaveLength(1);
    } finally {
      open.delete();
    }
    // In a solid the same openness is an error.
    const box2 = makeBox(oc, 10, 20, 30);
    const openSolid = shellWithout(oc, box2, [0], true);
    box2.delete();
    expect(graphValidate(oc, openSolid)).toMatchObject({ isValid: false, healthRecord: { isValid: false, freeEdgeCount: 4 } });
    openSolid.delete();
  });
});

describe('graph-compact and graph-dedup', () => {
  it('compact removes exactly the loose edges and vertices of a compound and never writes the input', async () => {
    const loose = withKernel(oc, (own) => {
      const edge = (a: [number, number, number], b: [number, number, number]) =>
        own(new oc.BRepBuilderAPI_MakeEdge_3(own(new oc.gp_Pnt_3(...a)), own(new oc.gp_Pnt_3(...b)))).Edge();
      const vertex = own(new oc.BRepBuilderAPI_MakeVertex(own(new oc.gp_Pnt_3(50, 50, 50)))).Vertex();
      return [edge([20, 0, 0], [30, 0, 0]), edge([20, 5, 0], [30, 5, 0]), vertex];
    });
    const box = makeBox(oc, 10, 20, 30);
    const input = brepFile('loose.brep', compoundOf(oc, [box, ...loose]));
    const boxCounts = kernelCounts(box);
    box.delete();
    for (const s of loose) s.delete();
    const before = readFileSync(input);

    const out = join(dir, 'compacted.brep');
    const r = await runGraphCompact(input, out);
    expect(r.removed).toEqual({ vertices: 5, edges: 2, faces: 0 });
    expect(r.nodesBefore - r.nodesAfter).toBe(7);
    expect(r.output).toBe(out);
    expect(readFileSync(input).equals(before)).toBe(true);
    const back = readShape(out);
    expect(kernelCounts(back)).toEqual(boxCounts);
    expect(massProps(back).volume).toBeCloseTo(6000, 9);
    back.delete();

    // Nothing loose: nothing removed.
    const again = await runGraphCompact(out, join(dir, 'compacted2.brep'));
    expect(again.removed).toEqual({ vertices: 0, edges: 0, faces: 0 });
    expect(again.nodesAfter).toBe(again.nodesBefore);
    await expectCode(runGraphCompact(input, input), 'INVALID_ARGUMENT');
  });

  it('dedup shares the coplanar planes of two fused boxes; the output reads back valid with the same volume and area', async () => {
    const fused = withKernel(oc, (own) =>
      own(new oc.BRepAlgoAPI_Fuse_3(own(makeBox(oc, 10, 10, 10)), own(makeBox(oc, 10, 10, 10, [10, 0, 0])), own(new oc.Message_ProgressRange_1()))).Shape(),
    );
    const input = brepFile('fused.brep', fused);
    const out = join(dir, 'dedup.brep');
    const r = await runGraphDedup(input, out);
    // Ten faces: the top, bottom, front and back pairs are coplanar, the four ends are not.
    expect(r).toMatchObject({ surfaceRewrites: 4, canonicalSurfaces: 6, output: out });
    const back = readShape(out);
    expect(checkShape(oc, back).valid).toBe(true);
    expect(kernelCounts(back).faces).toBe(10);
    const m = massProps(back);
    expect(Math.abs(m.volume - 2000)).toBeLessThan(1e-9 * 2000);
    expect(Math.abs(m.area - 1000)).toBeLessThan(1e-9 * 1000);
    back.delete();
    // Deduplicated once, nothing is left to share.
    expect(await runGraphDedup(out, join(dir, 'dedup2.brep'))).toMatchObject({ surfaceRewrites: 0, curveRewrites: 0, canonicalSurfaces: 6 });
  });
});

describe('real files run through every command', () => {
  it.each(REAL_FILES)('%s', async (file) => {
    const path = dataPath(file);
    const shape = readShape(path);
    const counts = kernelCounts(shape);
    const props = massProps(shape);
    shape.delete();

    const v = await runGraphValidate(path, { selfIntersection: 'off' });
    const sqlite = join(dir, `${file.replace(/\W/g, '_')}.sqlite`);
    const exported = await runGraphExport(path, sqlite);
    const q = await runGraphQuery(sqlite);
    expect(exported.counts).toEqual({ ...counts, coedges: q.summary.coedges });
    expect(q.summary).toMatchObject({ ...counts, boundaryEdges: v.healthRecord.freeEdgeCount });
    expect(q.valence.face.count).toBeGreaterThan(0);

    const stem = file.replace(/\W/g, '_');
    const compacted = await runGraphCompact(path, join(dir, `${stem}.c.brep`));
    expect(compacted.removed.faces).toBe(0);
    const d = await runGraphDedup(path, join(dir, `${stem}.d.brep`));
    expect(d.canonicalSurfaces).toBeLessThanOrEqual(counts.faces!);
    const back = readShape(join(dir, `${stem}.d.brep`));
    const m = massProps(back);
    back.delete();
    expect(Math.abs(m.volume - props.volume)).toBeLessThan(1e-9 * Math.abs(props.volume));
    expect(Math.abs(m.area - props.area)).toBeLessThan(1e-9 * props.area);

    const ml = await runGraphMl(path, { uvSamples: 4, edgeSamples: 3 });
    expect(ml.faces).toHaveLength(counts.faces!);
    expect(ml.edges).toHaveLength(counts.edges!);
    for (const query of ['face-adjacency', 'edges-class'] as const) await runGraphSelect(path, { query, class: 'boundary' });
    const fn = (await runGraphSelect(path, { query: 'face-neighbors', face: counts.faces! - 1 })) as FaceNeighborsResult;
    expect(Math.hypot(...fn.normal)).toBeCloseTo(1, 12);
    await runGraphSelect(path, { query: 'vertex-edges', vertex: counts.vertices! - 1 });
    await runGraphSelect(path, { query: 'edge-faces', edge: counts.edges! - 1 });
  });
});

describe('bad input', () => {
  it('missing file, empty file, not a BREP, not a graph database', async () => {
    await expectCode(runGraphValidate(join(dir, 'missing.brep')), 'FILE_NOT_FOUND');
    const empty = join(dir, 'empty.brep');
    writeFileSync(empty, '');
    await expectCode(runGraphMl(empty), 'EMPTY_FILE');
    // Not "a SQLite file but not a graph database": sql.js would open zero bytes as a new database.
    expect((await expectCode(runGraphQuery(empty), 'EMPTY_FILE')).message).toMatch(/the file is empty$/);
    const text = join(dir, 'text.brep');
    writeFileSync(text, 'this is not an OCCT BREP file\n'.repeat(20));
    await expectCode(runGraphSelect(text, { query: 'face-adjacency' }), 'PARSE_FAILED');
    await expectCode(runGraphQuery(text), 'PARSE_FAILED');
    const SQL = await nodeSqlJs();
    const other = new SQL.Database();
    other.run('CREATE TABLE t (a INTEGER)');
    const otherPath = join(dir, 'other.sqlite');
    writeFileSync(otherPath, other.export());
    other.close();
    await expectCode(runGraphQuery(otherPath), 'UNSUPPORTED_FORMAT');
    await expectCode(runGraphExport(text, text), 'INVALID_ARGUMENT');
  });

  it('out-of-range index, unknown class or query, missing selector (named in details), bad sample counts', async () => {
    const wedge = dataPath('occt/wedge_ok.brep');
    await expectCode(runGraphSelect(wedge, { query: 'face-neighbors', face: 6 }), 'INVALID_ARGUMENT');
    await expectCode(runGraphSelect(wedge, { query: 'edge-faces', edge: 12 }), 'INVALID_ARGUMENT');
    await expectCode(runGraphSelect(wedge, { query: 'vertex-edges', vertex: 8 }), 'INVALID_ARGUMENT');
    await expectCode(runGraphSelect(wedge, { query: 'edges-class', class: 'sharp' }), 'INVALID_ARGUMENT');
    await expectCode(runGraphSelect(wedge, { query: 'neighbours' }), 'INVALID_ARGUMENT');
    for (const [query, flag] of [
      ['face-neighbors', '--face'],
      ['edge-faces', '--edge'],
      ['vertex-edges', '--vertex'],
      ['edges-class', '--class'],
    ] as const) {
      // The selector check comes before the file is read: a missing file is not what is reported.
      const e = await expectCode(runGraphSelect(join(dir, 'missing.brep'), { query }), 'INVALID_ARGUMENT');
      expect(e.details).toEqual({ missing: flag });
    }
    await expectCode(runGraphMl(wedge, { uvSamples: 0 }), 'INVALID_ARGUMENT');
    await expectCode(runGraphMl(wedge, { edgeSamples: 2.5 }), 'INVALID_ARGUMENT');
    // Beyond what one JSON result can hold: refused before any work, not a RangeError or a long run.
    await expectCode(runGraphMl(wedge, { uvSamples: 1e15 }), 'INVALID_ARGUMENT');
    await expectCode(runGraphMl(wedge, { edgeSamples: 1e15 }), 'INVALID_ARGUMENT');
    await expectCode(runGraphMl(wedge, { uvSamples: MAX_UV_SAMPLES + 1 }), 'INVALID_ARGUMENT');
    await expectCode(runGraphMl(wedge, { edgeSamples: MAX_EDGE_SAMPLES + 1 }), 'INVALID_ARGUMENT');
    const atLimit = (await runGraphMl(wedge, { uvSamples: MAX_UV_SAMPLES, edgeSamples: MAX_EDGE_SAMPLES })) as GraphMlResult;
    expect(atLimit.faces[0]!.positions).toHaveLength(MAX_UV_SAMPLES * MAX_UV_SAMPLES);
    expect(atLimit.edges[0]!.samples).toHaveLength(MAX_EDGE_SAMPLES);
    // The engine still works afterwards.
    expect(((await runGraphSelect(wedge, { query: 'face-adjacency' })) as { faceCount: number }).faceCount).toBe(6);
  });
});
