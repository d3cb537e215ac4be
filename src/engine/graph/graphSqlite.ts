import type { Database, SqlJsStatic, SqlValue } from 'sql.js';
import { BrepscopeError } from '../errors';
import type { TopologyGraph } from './topologyGraph';

/** Bumped when a table or column changes meaning; graph-query refuses newer files. */
export const GRAPH_SCHEMA_VERSION = 1;

/** The names a graph database goes by: a dropped file with one of these is queried, not imported. */
export const GRAPH_DATABASE_EXTENSIONS = ['sqlite', 'sqlite3', 'db'] as const;

export function isGraphDatabaseName(fileName: string): boolean {
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return ext !== undefined && GRAPH_DATABASE_EXTENSIONS.some((e) => e === ext);
}
const GRAPH_GENERATOR = 'brepscope graph-export';

/**
 * The graph database (docs/graph.md lists every column). Indices are the graph's: face[N], edge[N],
 * vertex[N] of the scene tools; booleans are 0/1 integers. Derived classes (boundary, seam,
 * non-manifold edges) are not stored: graph-query computes them from the incidence tables.
 */
const GRAPH_SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE nodes (kind TEXT NOT NULL, idx INTEGER NOT NULL, removed INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (kind, idx));
CREATE TABLE solids (idx INTEGER PRIMARY KEY, shell_count INTEGER NOT NULL);
CREATE TABLE shells (idx INTEGER PRIMARY KEY, closed INTEGER NOT NULL, face_count INTEGER NOT NULL);
CREATE TABLE faces (idx INTEGER PRIMARY KEY, surface_type TEXT NOT NULL, reversed INTEGER NOT NULL, outer_wire INTEGER, wire_count INTEGER NOT NULL);
CREATE TABLE wires (idx INTEGER PRIMARY KEY, face INTEGER, closed INTEGER NOT NULL, coedge_count INTEGER NOT NULL);
CREATE TABLE edges (idx INTEGER PRIMARY KEY, curve_type TEXT NOT NULL, start_vertex INTEGER, end_vertex INTEGER, degenerated INTEGER NOT NULL);
CREATE TABLE vertices (idx INTEGER PRIMARY KEY, x REAL NOT NULL, y REAL NOT NULL, z REAL NOT NULL, tolerance REAL NOT NULL);
CREATE TABLE coedges (idx INTEGER PRIMARY KEY, edge INTEGER NOT NULL, wire INTEGER NOT NULL, face INTEGER, reversed INTEGER NOT NULL);
CREATE TABLE refs (parent_kind TEXT NOT NULL, parent_idx INTEGER NOT NULL, child_kind TEXT NOT NULL, child_idx INTEGER NOT NULL, seq INTEGER NOT NULL);
CREATE TABLE face_adjacency (face1 INTEGER NOT NULL, face2 INTEGER NOT NULL, convexity TEXT NOT NULL, shared_edge_count INTEGER NOT NULL);
CREATE TABLE shared_edges (face1 INTEGER NOT NULL, face2 INTEGER NOT NULL, edge INTEGER NOT NULL);
CREATE TABLE edge_adjacency (edge1 INTEGER NOT NULL, edge2 INTEGER NOT NULL, vertex INTEGER NOT NULL);
CREATE TABLE face_edge_incidence (face INTEGER NOT NULL, edge INTEGER NOT NULL, coedge INTEGER NOT NULL, reversed INTEGER NOT NULL);
CREATE TABLE edge_vertex_incidence (edge INTEGER NOT NULL, vertex INTEGER NOT NULL, role TEXT NOT NULL);
CREATE TABLE vertex_edge_incidence (vertex INTEGER NOT NULL, edge INTEGER NOT NULL);
CREATE INDEX refs_parent ON refs (parent_kind, parent_idx);
CREATE INDEX face_adjacency_face1 ON face_adjacency (face1);
CREATE INDEX face_edge_incidence_edge ON face_edge_incidence (edge);
CREATE INDEX vertex_edge_incidence_vertex ON vertex_edge_incidence (vertex);
`;

const REQUIRED_TABLES = ['meta', 'nodes', 'shells', 'faces', 'wires', 'edges', 'refs', 'face_adjacency', 'face_edge_incidence', 'vertex_edge_incidence'];

const b = (x: boolean): number => (x ? 1 : 0);
const orNull = (i: number): number | null => (i < 0 ? null : i);

/** Writes the graph as a SQLite database and returns the file's bytes. */
export function exportGraphSqlite(SQL: SqlJsStatic, graph: TopologyGraph, meta: Record<string, string> = {}): Uint8Array {
  const db = new SQL.Database();
  try {
    db.run(GRAPH_SCHEMA);
    db.run('BEGIN');
    const insert = (table: string, rows: Iterable<SqlValue[]>): void => {
      let stmt: ReturnType<Database['prepare']> | undefined;
      try {
        for (const row of rows) {
          stmt ??= db.prepare(`INSERT INTO ${table} VALUES (${row.map(() => '?').join(',')})`);
          stmt.run(row);
        }
      } finally {
        stmt?.free();
      }
    };
    const allMeta: Record<string, string> = {
      schema_version: String(GRAPH_SCHEMA_VERSION),
      generator: GRAPH_GENERATOR,
      shape_type: graph.shapeType,
      ...meta,
    };
    insert('meta', Object.entries(allMeta));
    const kinds: [string, number][] = [
      ['solid', graph.solids.length],
      ['shell', graph.shells.length],
      ['face', graph.faces.length],
      ['wire', graph.wires.length],
      ['edge', graph.edges.length],
      ['vertex', graph.vertices.length],
      ['coedge', graph.coedges.length],
    ];
    insert('nodes', kinds.flatMap(([kind, n]) => Array.from({ length: n }, (_, i) => [kind, i, 0])));
    insert('solids', graph.solids.map((s, i) => [i, s.shells.length]));
    insert('shells', graph.shells.map((s, i) => [i, b(s.closed), s.faces.length]));
    insert('faces', graph.faces.map((f, i) => [i, f.surfaceType, b(f.reversed), orNull(f.outerWire), f.wires.length]));
    insert('wires', graph.wires.map((w, i) => [i, orNull(w.face), b(w.closed), w.coedges.length]));
    insert('edges', graph.edges.map((e, i) => [i, e.curveType, orNull(e.start), orNull(e.end), b(e.degenerated)]));
    insert('vertices', graph.vertices.map((v, i) => [i, v.position[0], v.position[1], v.position[2], v.tolerance]));
    insert('coedges', graph.coedges.map((c, i) => [i, c.edge, c.wire, orNull(c.face), b(c.reversed)]));

    const refs: SqlValue[][] = [];
    graph.solids.forEach((s, i) => s.shells.forEach((c, k) => refs.push(['solid', i, 'shell', c, k])));
    graph.shells.forEach((s, i) => s.faces.forEach((c, k) => refs.push(['shell', i, 'face', c, k])));
    graph.faces.forEach((f, i) => f.wires.forEach((c, k) => refs.push(['face', i, 'wire', c, k])));
    graph.wires.forEach((w, i) => w.coedges.forEach((c, k) => refs.push(['wire', i, 'coedge', c, k])));
    graph.coedges.forEach((c, i) => refs.push(['coedge', i, 'edge', c.edge, 0]));
    graph.edges.forEach((e, i) => e.vertices.forEach((c, k) => refs.push(['edge', i, 'vertex', c, k])));
    insert('refs', refs);

    insert(
      'face_adjacency',
      graph.faceAdjacency.flatMap((a) => [
        [a.face1, a.face2, a.convexity, a.sharedEdgeCount],
        [a.face2, a.face1, a.convexity, a.sharedEdgeCount],
      ]),
    );
    insert('shared_edges', graph.faceAdjacency.flatMap((a) => a.sharedEdges.map((e) => [a.face1, a.face2, e])));
    const edgeAdjacency: SqlValue[][] = [];
    graph.vertices.forEach((v, vi) => {
      for (const e1 of v.edges) for (const e2 of v.edges) if (e1 !== e2) edgeAdjacency.push([e1, e2, vi]);
    });
    insert('edge_adjacency', edgeAdjacency);
    insert(
      'face_edge_incidence',
      graph.coedges.flatMap((c, i) => (c.face >= 0 ? [[c.face, c.edge, i, b(c.reversed)]] : [])),
    );
    const evi: SqlValue[][] = [];
    graph.edges.forEach((e, i) => {
      if (e.start >= 0) evi.push([i, e.start, 'start']);
      if (e.end >= 0) evi.push([i, e.end, 'end']);
      for (const v of e.vertices) if (v !== e.start && v !== e.end) evi.push([i, v, 'internal']);
    });
    insert('edge_vertex_incidence', evi);
    insert('vertex_edge_incidence', graph.vertices.flatMap((v, vi) => v.edges.map((e) => [vi, e])));
    db.run('COMMIT');
    return db.export();
  } finally {
    db.close();
  }
}

interface Valence {
  max: number;
  mean: number;
  count: number;
}

export interface GraphQueryResult {
  summary: {
    solids: number;
    shells: number;
    faces: number;
    wires: number;
    edges: number;
    vertices: number;
    coedges: number;
    boundaryEdges: number;
    nonManifoldEdges: number;
    degenerateEdges: number;
    openShells: number;
  };
  counts: { freeEdges: number; openWires: number; facesWithHoles: number };
  valence: { face: Valence; vertex: Valence };
}

/** Face uses per edge, as a sub-query (one row per edge, uses 0 included). */
const EDGE_USES = `SELECT e.idx AS edge, e.degenerated AS degenerated,
  (SELECT COUNT(*) FROM face_edge_incidence i WHERE i.edge = e.idx) AS uses
  FROM edges e JOIN nodes n ON n.kind = 'edge' AND n.idx = e.idx AND n.removed = 0`;

const QUERIES = {
  kinds: `SELECT kind, COUNT(*) FROM nodes WHERE removed = 0 GROUP BY kind`,
  boundaryEdges: `SELECT COUNT(*) FROM (${EDGE_USES}) WHERE degenerated = 0 AND uses = 1`,
  nonManifoldEdges: `SELECT COUNT(*) FROM (${EDGE_USES}) WHERE uses > 2`,
  degenerateEdges: `SELECT COUNT(*) FROM (${EDGE_USES}) WHERE degenerated = 1`,
  freeEdges: `SELECT COUNT(*) FROM (${EDGE_USES}) WHERE degenerated = 0 AND uses = 0`,
  openShells: `SELECT COUNT(*) FROM shells s JOIN nodes n ON n.kind = 'shell' AND n.idx = s.idx AND n.removed = 0 WHERE s.closed = 0`,
  openWires: `SELECT COUNT(*) FROM wires w JOIN nodes n ON n.kind = 'wire' AND n.idx = w.idx AND n.removed = 0 WHERE w.closed = 0`,
  facesWithHoles: `SELECT COUNT(*) FROM (SELECT parent_idx FROM refs WHERE parent_kind = 'face' AND child_kind = 'wire' GROUP BY parent_idx HAVING COUNT(*) > 1)`,
  faceValence: `SELECT MAX(n), AVG(n), COUNT(*) FROM (SELECT face1, COUNT(DISTINCT face2) AS n FROM face_adjacency GROUP BY face1)`,
  vertexValence: `SELECT MAX(n), AVG(n), COUNT(*) FROM (SELECT vertex, COUNT(DISTINCT edge) AS n FROM vertex_edge_incidence GROUP BY vertex)`,
};

/** Opens graph-export's SQLite bytes; EMPTY_FILE for none, PARSE_FAILED when not SQLite, UNSUPPORTED_FORMAT when not a graph database. */
function openGraphDatabase(SQL: SqlJsStatic, bytes: Uint8Array, name: string): Database {
  let db: Database;
  let tables: string[];
  // sql.js opens zero bytes as a new, empty database: that would be reported as a foreign SQLite file.
  if (bytes.byteLength === 0) throw new BrepscopeError('EMPTY_FILE', `${name}: the file is empty`);
  try {
    db = new SQL.Database(bytes);
  } catch (e) {
    throw new BrepscopeError('PARSE_FAILED', `${name}: not a SQLite database (${(e as Error).message})`);
  }
  try {
    tables = (db.exec(`SELECT name FROM sqlite_master WHERE type = 'table'`)[0]?.values ?? []).map((r) => String(r[0]));
  } catch (e) {
    db.close();
    throw new BrepscopeError('PARSE_FAILED', `${name}: not a SQLite database (${(e as Error).message})`);
  }
  const missing = REQUIRED_TABLES.filter((t) => !tables.includes(t));
  if (missing.length) {
    db.close();
    throw new BrepscopeError('UNSUPPORTED_FORMAT', `${name}: a SQLite file but not a brepscope graph database (missing tables: ${missing.join(', ')})`);
  }
  const version = Number(db.exec(`SELECT value FROM meta WHERE key = 'schema_version'`)[0]?.values[0]?.[0]);
  if (!(version >= 1 && version <= GRAPH_SCHEMA_VERSION)) {
    db.close();
    throw new BrepscopeError('UNSUPPORTED_FORMAT', `${name}: graph schema version ${Number.isFinite(version) ? version : 'missing'}; this build reads 1..${GRAPH_SCHEMA_VERSION}`);
  }
  return db;
}

export function queryGraphSqlite(SQL: SqlJsStatic, bytes: Uint8Array, name = 'graph database'): GraphQueryResult {
  const db = openGraphDatabase(SQL, bytes, name);
  try {
    const scalar = (sql: string): number => Number(db.exec(sql)[0]?.values[0]?.[0] ?? 0);
    const valence = (sql: string): Valence => {
      const row = db.exec(sql)[0]?.values[0] ?? [];
      const count = Number(row[2] ?? 0);
      return { max: count ? Number(row[0]) : 0, mean: count ? Number(row[1]) : 0, count };
    };
    const kinds = new Map((db.exec(QUERIES.kinds)[0]?.values ?? []).map((r) => [String(r[0]), Number(r[1])]));
    const k = (kind: string): number => kinds.get(kind) ?? 0;
    return {
      summary: {
        solids: k('solid'),
        shells: k('shell'),
        faces: k('face'),
        wires: k('wire'),
        edges: k('edge'),
        vertices: k('vertex'),
        coedges: k('coedge'),
        boundaryEdges: scalar(QUERIES.boundaryEdges),
        nonManifoldEdges: scalar(QUERIES.nonManifoldEdges),
        degenerateEdges: scalar(QUERIES.degenerateEdges),
        openShells: scalar(QUERIES.openShells),
      },
      counts: { freeEdges: scalar(QUERIES.freeEdges), openWires: scalar(QUERIES.openWires), facesWithHoles: scalar(QUERIES.facesWithHoles) },
      valence: { face: valence(QUERIES.faceValence), vertex: valence(QUERIES.vertexValence) },
    };
  } finally {
    db.close();
  }
}
