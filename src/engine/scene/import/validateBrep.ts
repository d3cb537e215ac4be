import { BrepscopeError } from '../../errors';
import { MAX_QUOTE, TextScanner, quoteBytes } from './textScanner';

/** Deeper nesting of trimmed/offset curves and surfaces than any writer produces: a corrupt file. */
const MAX_NESTING = 32;
/** Above OCCT's maximum B-spline degree (25). */
const MAX_DEGREE = 25;
/**
 * Deeper nesting of shapes in shapes than an assembly has (a vertex is 1, a solid 6, each assembly
 * level one more): compounds nested 50,000 deep overflowed the kernel's stack (FILE_ABORTED_KERNEL,
 * the engine lost), 1,000 deep took 20 s to read and check.
 */
export const MAX_SHAPE_DEPTH = 256;
const SHAPE_TYPES = new Set(['Ve', 'Ed', 'Wi', 'Fa', 'Sh', 'So', 'CS', 'Co']);

/**
 * Walks an OCCT text BREP (BRepTools::Write, formats V1 to V3) token by token through its whole
 * grammar: header, Locations, Curve2ds, Curves, Polygon3D, PolygonOnTriangulations, Surfaces,
 * Triangulations, TShapes and the root reference, checking every number is a number, every count
 * fits the bytes left, and every index points at an entry that exists (sub-shapes at shapes already
 * read, as BRepTools reads them). This is what stands between a corrupt file and the kernel's
 * reader, which on a cut or flipped file reads past the end (an endless sub-shape loop that
 * allocates until the heap is gone), throws on an index, or builds absurd arrays.
 * Binary BREP (BinTools) is left to the kernel.
 */
export function validateBrepText(bytes: Uint8Array, name: string): void {
  new BrepGrammar(bytes, name).file();
}

/** Where the text form's version line ('CASCADE Topology V1, ...') starts, when a line of the file's head does. */
function versionLine(bytes: Uint8Array): { pos: number; line: number } | null {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 65536));
  const m = /(^|\n)CASCADE Topology V/.exec(head);
  if (!m) return null;
  const pos = m.index + m[1]!.length;
  return { pos, line: head.slice(0, pos).split('\n').length };
}

/**
 * What a file given as BREP is instead, when its head says (a STEP part renamed .brep reaches the
 * graph commands and read_brep, which read BREP only): the sentence's tail, or ''.
 */
function otherFormat(bytes: Uint8Array): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
  // IGES columns count from the line's start: its first line may begin with blanks.
  const firstLine = head.split(/\r?\n/, 1)[0] ?? '';
  const what = head.trimStart().startsWith('ISO-10303-21') ? 'a STEP' : firstLine.length >= 73 && firstLine[72] === 'S' ? 'an IGES' : null;
  return what ? `: its content is ${what} file (import_file reads it; read_brep and the graph commands on a file read BREP only)` : '';
}

class BrepGrammar {
  private readonly s: TextScanner;
  private version = 1;
  private counts = { locations: 0, curves2d: 0, curves: 0, polygons3d: 0, polygonsOnTriangulation: 0, surfaces: 0, triangulations: 0 };

  constructor(
    bytes: Uint8Array,
    private readonly name: string,
  ) {
    this.s = new TextScanner(bytes);
  }

  private fail(what: string): BrepscopeError {
    return new BrepscopeError('PARSE_FAILED', `${this.name}: line ${this.s.line}: ${what} (not a readable OCCT BREP: corrupt or truncated)`);
  }

  private word(what: string): string {
    if (!this.s.tokenAnywhere()) throw this.fail(`the file ends where ${what} should be`);
    // No keyword or reference is this long: the token is quoted cut, never decoded whole.
    if (this.s.tokenEnd - this.s.tokenStart > MAX_QUOTE) throw this.fail(`${what} expected, found ${this.s.tokenQuote()}`);
    return this.s.tokenText();
  }

  private expect(keyword: string): void {
    const w = this.word(`'${keyword}'`);
    if (w !== keyword) throw this.fail(`'${keyword}' expected, found '${clip(w)}'`);
  }

  private real(what: string): number {
    if (!this.s.tokenAnywhere()) throw this.fail(`the file ends where ${what} should be`);
    const v = this.s.tokenNumber();
    if (!Number.isFinite(v)) throw this.fail(`${what}: ${quoteBytes(this.s.bytes, this.s.tokenStart, this.s.tokenEnd)} is not a number`);
    return v;
  }

  private reals(n: number, what: string): void {
    for (let i = 0; i < n; i++) this.real(what);
  }

  private int(what: string, min = -Infinity, max = Infinity): number {
    const v = this.real(what);
    if (!Number.isInteger(v)) throw this.fail(`${what}: ${v} is not an integer`);
    if (v < min || v > max) throw this.fail(`${what}: ${v} is outside ${min}..${max}`);
    return v;
  }

  /** A count of entries of `tokensEach` tokens each (at least 2 bytes per token): refused if the rest of the file cannot hold them. */
  private count(what: string, tokensEach: number): number {
    const n = this.int(what, 0);
    const left = this.s.bytes.length - this.s.pos;
    if (n * Math.max(tokensEach, 1) * 2 > left + 1) throw this.fail(`${what} ${n} cannot fit in the ${left} bytes left`);
    return n;
  }

  private index(what: string, max: number): void {
    this.int(what, 0, max);
  }

  file(): void {
    // BRepTools::Read skips every line before its version line (DBRep's 'DBRep_DrawableShape', or a
    // damaged one: native OCCT reads wing.brep with that first line's '_' flipped); so does this check.
    const version = versionLine(this.s.bytes);
    if (version) {
      this.s.pos = version.pos;
      this.s.line = version.line;
    }
    let w = this.word('the header');
    if (w === 'DBRep_DrawableShape') w = this.word('the header');
    if (w === 'Open') return; // "Open CASCADE Topology ..." is a binary BREP: the kernel's reader checks it.
    if (w !== 'CASCADE') throw new BrepscopeError('PARSE_FAILED', `${this.name}: not an OCCT BREP file (no 'CASCADE Topology' header)${otherFormat(this.s.bytes)}`);
    this.expect('Topology');
    const v = this.word('the format version');
    const m = /^V(\d),?$/.exec(v);
    if (!m) throw this.fail(`unknown BREP format version '${clip(v)}'`);
    this.version = Number(m[1]);
    this.s.nextLine();
    this.locations();
    this.curves2d();
    this.curves();
    let section = this.word('a section');
    if (section === 'Polygon3D') {
      this.polygons3d();
      section = this.word('a section');
    }
    if (section === 'PolygonOnTriangulations') {
      this.polygonsOnTriangulation();
      section = this.word('a section');
    }
    if (section !== 'Surfaces') throw this.fail(`'Surfaces' expected, found '${clip(section)}'`);
    this.surfaces();
    section = this.word('a section');
    if (section === 'Triangulations') {
      this.triangulations();
      section = this.word('a section');
    }
    if (section !== 'TShapes') throw this.fail(`'TShapes' expected, found '${clip(section)}'`);
    const shapes = this.shapes();
    // The root: an orientation and shape index, then its location.
    this.shapeReference(this.word('the root shape'), shapes + 1, shapes, 'the root shape');
  }

  private locations(): void {
    this.expect('Locations');
    const n = this.count('Locations', 2);
    for (let i = 1; i <= n; i++) {
      const type = this.int(`location ${i} type`, 1, 2);
      if (type === 1) this.reals(12, `location ${i} matrix`);
      else {
        // A product of earlier locations raised to powers, ended by 0.
        for (let k = 0; ; k++) {
          const l = this.int(`location ${i} factor`, 0, i - 1);
          if (l === 0) break;
          this.int(`location ${i} power`);
          if (k > n) throw this.fail(`location ${i} has more factors than there are locations`);
        }
      }
    }
    this.counts.locations = n;
  }

  private curves2d(): void {
    this.expect('Curve2ds');
    const n = this.count('Curve2ds', 5);
    for (let i = 1; i <= n; i++) this.curve(2, `2D curve ${i}`, 0);
    this.counts.curves2d = n;
  }

  private curves(): void {
    this.expect('Curves');
    const n = this.count('Curves', 7);
    for (let i = 1; i <= n; i++) this.curve(3, `curve ${i}`, 0);
    this.counts.curves = n;
  }

  /** One curve record (GeomTools_CurveSet / Curve2dSet): type 1 line ... 9 offset. */
  private curve(dim: 2 | 3, what: string, depth: number): void {
    if (depth > MAX_NESTING) throw this.fail(`${what} nests deeper than ${MAX_NESTING} levels`);
    const type = this.int(`${what} type`, 1, 9);
    const axis = dim === 3 ? 12 : 6; // location + direction(s)
    switch (type) {
      case 1: // line: point, direction
        return this.reals(2 * dim, what);
      case 2: // circle: axis, radius
      case 4: // parabola: axis, focal
        return this.reals(axis + 1, what);
      case 3: // ellipse: axis, two radii
      case 5: // hyperbola
        return this.reals(axis + 2, what);
      case 6: {
        const rational = this.int(`${what} rational flag`, 0, 1);
        const degree = this.int(`${what} degree`, 1, MAX_DEGREE);
        return this.reals((degree + 1) * (dim + rational), what);
      }
      case 7: {
        const rational = this.int(`${what} rational flag`, 0, 1);
        this.int(`${what} periodic flag`, 0, 1);
        this.int(`${what} degree`, 1, MAX_DEGREE);
        const poles = this.count(`${what} poles`, dim + rational);
        const knots = this.count(`${what} knots`, 2);
        this.reals(poles * (dim + rational), what);
        for (let k = 0; k < knots; k++) {
          this.real(`${what} knot`);
          this.int(`${what} multiplicity`, 1, MAX_DEGREE + 1);
        }
        return;
      }
      case 8: // trimmed: two parameters, the basis curve
        this.reals(2, what);
        return this.curve(dim, what, depth + 1);
      case 9: // offset: distance (and a direction in 3D), the basis curve
        this.reals(dim === 3 ? 4 : 1, what);
        return this.curve(dim, what, depth + 1);
    }
  }

  private polygons3d(): void {
    const n = this.count('Polygon3D', 3);
    for (let i = 1; i <= n; i++) {
      const nodes = this.count(`polygon ${i} nodes`, 3);
      const params = this.int(`polygon ${i} parameter flag`, 0, 1);
      this.real(`polygon ${i} deflection`);
      this.reals(nodes * (3 + params), `polygon ${i}`);
    }
    this.counts.polygons3d = n;
  }

  private polygonsOnTriangulation(): void {
    const n = this.count('PolygonOnTriangulations', 4);
    for (let i = 1; i <= n; i++) {
      const nodes = this.count(`polygon on triangulation ${i} nodes`, 1);
      for (let k = 0; k < nodes; k++) this.int(`polygon on triangulation ${i} node`, 1);
      this.expect('p');
      this.real(`polygon on triangulation ${i} deflection`);
      const params = this.int(`polygon on triangulation ${i} parameter flag`, 0, 1);
      this.reals(params * nodes, `polygon on triangulation ${i}`);
    }
    this.counts.polygonsOnTriangulation = n;
  }

  private surfaces(): void {
    const n = this.count('Surfaces', 13);
    for (let i = 1; i <= n; i++) this.surface(`surface ${i}`, 0);
    this.counts.surfaces = n;
  }

  /** One surface record (GeomTools_SurfaceSet): type 1 plane ... 11 offset. */
  private surface(what: string, depth: number): void {
    if (depth > MAX_NESTING) throw this.fail(`${what} nests deeper than ${MAX_NESTING} levels`);
    const type = this.int(`${what} type`, 1, 11);
    switch (type) {
      case 1: // plane: axis placement
        return this.reals(12, what);
      case 2: // cylinder: placement, radius
      case 4: // sphere
        return this.reals(13, what);
      case 3: // cone: placement, radius, angle
      case 5: // torus: two radii
        return this.reals(14, what);
      case 6: // linear extrusion: direction, the basis curve
        this.reals(3, what);
        return this.curve(3, what, depth + 1);
      case 7: // revolution: axis point and direction, the basis curve
        this.reals(6, what);
        return this.curve(3, what, depth + 1);
      case 8: {
        const rational = Math.max(this.int(`${what} u rational flag`, 0, 1), this.int(`${what} v rational flag`, 0, 1));
        const u = this.int(`${what} u degree`, 1, MAX_DEGREE), v = this.int(`${what} v degree`, 1, MAX_DEGREE);
        return this.reals((u + 1) * (v + 1) * (3 + rational), what);
      }
      case 9: {
        const rational = Math.max(this.int(`${what} u rational flag`, 0, 1), this.int(`${what} v rational flag`, 0, 1));
        this.int(`${what} u periodic flag`, 0, 1);
        this.int(`${what} v periodic flag`, 0, 1);
        this.int(`${what} u degree`, 1, MAX_DEGREE);
        this.int(`${what} v degree`, 1, MAX_DEGREE);
        const up = this.count(`${what} u poles`, 1), vp = this.count(`${what} v poles`, 1);
        const uk = this.count(`${what} u knots`, 2), vk = this.count(`${what} v knots`, 2);
        const left = this.s.bytes.length - this.s.pos;
        if (up * vp * (3 + rational) * 2 > left) throw this.fail(`${what}: ${up} x ${vp} poles cannot fit in the ${left} bytes left`);
        this.reals(up * vp * (3 + rational), what);
        for (let k = 0; k < uk + vk; k++) {
          this.real(`${what} knot`);
          this.int(`${what} multiplicity`, 1, MAX_DEGREE + 1);
        }
        return;
      }
      case 10: // rectangular trim: u1 u2 v1 v2, the basis surface
        this.reals(4, what);
        return this.surface(what, depth + 1);
      case 11: // offset: distance, the basis surface
        this.reals(1, what);
        return this.surface(what, depth + 1);
    }
  }

  private triangulations(): void {
    const n = this.count('Triangulations', 4);
    for (let i = 1; i <= n; i++) {
      const what = `triangulation ${i}`;
      const nodes = this.count(`${what} nodes`, 3);
      const triangles = this.count(`${what} triangles`, 3);
      const uv = this.int(`${what} UV flag`, 0, 1);
      const normals = this.version >= 3 ? this.int(`${what} normals flag`, 0, 1) : 0;
      this.real(`${what} deflection`);
      this.reals(nodes * (3 + 2 * uv), what);
      for (let k = 0; k < triangles * 3; k++) this.int(`${what} triangle node`, 1, nodes);
      this.reals(nodes * 3 * normals, what);
    }
    this.counts.triangulations = n;
  }

  /** The TShapes section; returns the number of shapes. */
  private shapes(): number {
    const n = this.count('TShapes', 3);
    const c = this.counts;
    // Per shape in reading order, its depth: 1 + its deepest sub-shape's (those are read before it).
    const depth = new Uint16Array(n + 1).fill(1);
    for (let i = 1; i <= n; i++) {
      const type = this.word(`shape ${i}`);
      if (!SHAPE_TYPES.has(type)) throw this.fail(`shape ${i}: unknown shape type '${clip(type)}'`);
      const what = `shape ${i} (${type})`;
      if (type === 'Ve') {
        this.reals(4, what); // tolerance, point
        for (;;) {
          this.real(`${what} parameter`);
          const kind = this.int(`${what} representation`);
          if (kind <= 0) break;
          if (kind === 1) this.index(`${what} curve`, c.curves);
          else if (kind === 2) {
            this.index(`${what} 2D curve`, c.curves2d);
            this.index(`${what} surface`, c.surfaces);
          } else if (kind === 3) {
            this.real(`${what} parameter`);
            this.index(`${what} surface`, c.surfaces);
          } else throw this.fail(`${what}: unknown point representation ${kind}`);
          this.index(`${what} location`, c.locations);
        }
      } else if (type === 'Ed') {
        this.real(`${what} tolerance`);
        for (const flag of ['same parameter', 'same range', 'degenerated']) this.int(`${what} ${flag} flag`, 0, 1);
        for (;;) {
          const kind = this.int(`${what} representation`);
          if (kind <= 0) break;
          this.edgeRepresentation(kind, what);
        }
      } else if (type === 'Fa') {
        const kind = this.int(`${what} kind`, 0, 2);
        if (kind === 2) this.index(`${what} triangulation`, c.triangulations);
        else {
          this.real(`${what} tolerance`);
          this.index(`${what} surface`, c.surfaces);
          this.index(`${what} location`, c.locations);
        }
      }
      // The flags word, except after a face, where a "2 <triangulation>" pair may come first.
      let flags = this.word(`${what} flags`);
      if (type === 'Fa' && flags === '2') {
        this.index(`${what} triangulation`, c.triangulations);
        flags = this.word(`${what} flags`);
      }
      if (!/^[01]{7,9}$/.test(flags)) throw this.fail(`${what}: flags '${clip(flags)}' are not 0/1 digits`);
      // Sub-shapes, ended by '*': each must be a shape read before this one.
      for (let k = 0; ; k++) {
        if (!this.s.tokenAnywhere()) throw this.fail(`${what}: the file ends inside its sub-shape list (no '*')`);
        if (this.s.tokenIs('*')) break;
        const sub = this.shapeReference(this.s.tokenText(), i, n, `${what} sub-shape`);
        if (k > n) throw this.fail(`${what}: more sub-shapes than shapes in the file`);
        const d = depth[n - sub + 1]! + 1;
        if (d > MAX_SHAPE_DEPTH) throw this.fail(`${what}: shapes nested more than ${MAX_SHAPE_DEPTH} deep (no assembly is; the kernel's reader would overflow its stack)`);
        if (d > depth[i]!) depth[i] = d;
      }
    }
    return n;
  }

  private edgeRepresentation(kind: number, what: string): void {
    const c = this.counts;
    switch (kind) {
      case 1: // 3D curve, location, range
        this.index(`${what} curve`, c.curves);
        this.index(`${what} location`, c.locations);
        return this.reals(2, `${what} range`);
      case 2: // curve on surface
      case 3: // curve on closed surface: two pcurves and a regularity
        this.index(`${what} 2D curve`, c.curves2d);
        if (kind === 3) {
          // The writer glues the regularity to the second pcurve ("2CN"); a reader's `>> int` splits them.
          const w = this.word(`${what} 2D curve`);
          const m = /^(\d+)(C[0-3N]|G[12])?$/.exec(w);
          if (!m || Number(m[1]) > c.curves2d) throw this.fail(`${what}: '${clip(w)}' is not a 2D curve index (1..${c.curves2d})`);
          if (!m[2]) this.regularity(what);
        }
        this.index(`${what} surface`, c.surfaces);
        this.index(`${what} location`, c.locations);
        this.reals(2, `${what} range`);
        if (this.version === 2) this.reals(4, `${what} UV points`); // only V2 writes them
        return;
      case 4: // regularity between two surfaces
        this.regularity(what);
        this.index(`${what} surface`, c.surfaces);
        this.index(`${what} location`, c.locations);
        this.index(`${what} surface`, c.surfaces);
        return this.index(`${what} location`, c.locations);
      case 5: // polygon 3D
        this.index(`${what} polygon`, c.polygons3d);
        return this.index(`${what} location`, c.locations);
      case 6:
      case 7: // polygon(s) on triangulation
        this.index(`${what} polygon on triangulation`, c.polygonsOnTriangulation);
        if (kind === 7) this.index(`${what} polygon on triangulation`, c.polygonsOnTriangulation);
        this.index(`${what} triangulation`, c.triangulations);
        return this.index(`${what} location`, c.locations);
      default:
        throw this.fail(`${what}: unknown edge representation ${kind}`);
    }
  }

  private regularity(what: string): void {
    const w = this.word(`${what} regularity`);
    if (!/^(C[0-3N]|G[12])$/.test(w)) throw this.fail(`${what}: '${clip(w)}' is not a continuity (C0 .. CN, G1, G2)`);
  }

  /**
   * `+7 0`: orientation and shape number, then a location; returns the number. Shape numbers count
   * back from the last shape, so shape i may only use numbers n - i + 2 .. n (the shapes read before it).
   */
  private shapeReference(token: string, i: number, n: number, what: string): number {
    const m = /^([-+ie])(\d+)$/.exec(token);
    if (!m) throw this.fail(`${what}: '${clip(token)}' is not a shape reference`);
    const k = Number(m[2]);
    if (k < n - i + 2 || k > n) throw this.fail(`${what}: '${token}' refers to a shape that is not defined before it`);
    this.index(`${what} location`, this.counts.locations);
    return k;
  }
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
