import { LINK_OFFSET as LAYOUT_LINK, NODE_STRIDE as LAYOUT_STRIDE } from './bvhLayout';
import { depthFirst, type BvhQuery } from './bvhTraversal';
import type { SlotCorners, TriangleBvh } from './TriangleBvh';
import type { TriMesh } from './TriMesh';
// Local copies: where modules run as CommonJS (tsx: tests, bench) an imported constant is a getter
// call on every read, 6 % of a BVH build's profile in its hot loops.
const NODE_STRIDE = LAYOUT_STRIDE, LINK_OFFSET = LAYOUT_LINK;

const FOUR_PI = 4 * Math.PI;

/**
 * Generalized winding number of q w.r.t. a triangle mesh, summed exactly over every triangle: the
 * signed solid angles over 4 pi (Jacobson et al. 2013). 1 inside a closed outward-wound mesh, 0
 * outside, -1 inside a reversed one; fractional for open meshes and soups. O(triangles) per point:
 * the reference the fast version is checked against.
 */
export function windingNumberExact(mesh: TriMesh, qx: number, qy: number, qz: number): number {
  const p = mesh.positions;
  const idx = mesh.indices;
  let sum = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t]! * 3, b = idx[t + 1]! * 3, c = idx[t + 2]! * 3;
    sum += solidAngle(
      p[a]! - qx, p[a + 1]! - qy, p[a + 2]! - qz,
      p[b]! - qx, p[b + 1]! - qy, p[b + 2]! - qz,
      p[c]! - qx, p[c + 1]! - qy, p[c + 2]! - qz,
    );
  }
  return sum / FOUR_PI;
}

/**
 * Signed solid angle of a triangle seen from the origin, corners given relative to it (Van Oosterom
 * & Strackee 1983): tan(omega / 2) = det[a b c] / (|a||b||c| + (a.b)|c| + (b.c)|a| + (c.a)|b|).
 * atan2 keeps the right branch when the denominator is negative (omega above pi).
 */
function solidAngle(
  ax: number, ay: number, az: number,
  bx: number, by: number, bz: number,
  cx: number, cy: number, cz: number,
): number {
  const la = Math.sqrt(ax * ax + ay * ay + az * az);
  const lb = Math.sqrt(bx * bx + by * by + bz * bz);
  const lc = Math.sqrt(cx * cx + cy * cy + cz * cz);
  const det = ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
  const den = la * lb * lc + (ax * bx + ay * by + az * bz) * lc + (bx * cx + by * cy + bz * cz) * la + (cx * ax + cy * ay + cz * az) * lb;
  return 2 * Math.atan2(det, den);
}

/**
 * Per-node far-field data for fast winding numbers (Barill, Dickson, Schmidt, Levin, Jacobson,
 * "Fast Winding Numbers for Soups and Clouds", SIGGRAPH 2018). Seen from far away, a node's
 * triangles act as a dipole distribution; its Taylor expansion about the area-weighted centre p~
 * needs the area-weighted normal sum N = sum A_t n_t (order 1), the first moment
 * M = sum_t integral (x - p~) (x) n_t dA (order 2) and the second moment
 * C = sum_t integral (x - p~) (x) (x - p~) (x) n_t dA (order 3). The moments are exact integrals
 * over flat triangles, where n_t is constant.
 */
export interface FastWinding {
  readonly bvh: TriangleBvh;
  /**
   * Per node, STRIDE doubles: centre xyz; N xyz; M row-major (M[i][j] = integral of (x - p~)_i n_j);
   * C as C[pair][k] for the symmetric pairs xx yy zz xy yz zx of (x - p~) and k the normal component;
   * radius (bounds the distance from p~ to every corner under the node).
   */
  readonly nodeData: Float64Array;
}

const STRIDE = 34;
const N_ = 3; // offsets in a node's record
const M_ = 6;
const C_ = 15;
const R = 33;
// Symmetric pair index -> the two coordinate axes it multiplies.
const PAIR_I = [0, 1, 2, 0, 1, 2] as const;
const PAIR_J = [0, 1, 2, 1, 2, 0] as const;

export function buildFastWinding(bvh: TriangleBvh): FastWinding {
  const n = bvh.nodeCount;
  const data = new Float64Array(STRIDE * n);
  const area = new Float64Array(n);
  const links = bvh.nodeLinks;
  const tri = bvh.slotCorners;
  const box = bvh.nodeBounds;
  // Children follow their parent in depth-first order, so a reverse sweep is bottom-up.
  for (let node = n - 1; node >= 0; node--) {
    const o = STRIDE * node;
    const count = links[NODE_STRIDE * node + LINK_OFFSET + 1]!;
    let A = 0, px = 0, py = 0, pz = 0;
    if (count > 0) {
      const first = links[NODE_STRIDE * node + LINK_OFFSET]!;
      let sx = 0, sy = 0, sz = 0;
      for (let s = first; s < first + count; s++) {
        const m = triangleMoments(tri, 9 * s);
        const a = 0.5 * Math.sqrt(m.nx * m.nx + m.ny * m.ny + m.nz * m.nz);
        A += a;
        px += a * m.cx;
        py += a * m.cy;
        pz += a * m.cz;
        sx += m.cx;
        sy += m.cy;
        sz += m.cz;
      }
      // A zero-area leaf contributes nothing far away; any centre inside it keeps the radius honest.
      const inv = A > 0 ? 1 / A : 0;
      px = A > 0 ? px * inv : sx / count;
      py = A > 0 ? py * inv : sy / count;
      pz = A > 0 ? pz * inv : sz / count;
      let r2 = 0;
      for (let s = first; s < first + count; s++) {
        const t = 9 * s;
        const m = triangleMoments(tri, t);
        const ax = 0.5 * m.nx, ay = 0.5 * m.ny, az = 0.5 * m.nz; // A n
        data[o + N_] = data[o + N_]! + ax;
        data[o + N_ + 1] = data[o + N_ + 1]! + ay;
        data[o + N_ + 2] = data[o + N_ + 2]! + az;
        addOuter(data, o + M_, m.cx - px, m.cy - py, m.cz - pz, ax, ay, az);
        // integral of d_i d_j over the triangle = A / 12 (sum over corners of d_i d_j + S_i S_j), S = sum of corners' d.
        const d = cornerOffsets;
        for (let k = 0; k < 3; k++) {
          d[3 * k] = tri[t + 3 * k]! - px;
          d[3 * k + 1] = tri[t + 3 * k + 1]! - py;
          d[3 * k + 2] = tri[t + 3 * k + 2]! - pz;
          const r = d[3 * k]! * d[3 * k]! + d[3 * k + 1]! * d[3 * k + 1]! + d[3 * k + 2]! * d[3 * k + 2]!;
          if (r > r2) r2 = r;
        }
        for (let pair = 0; pair < 6; pair++) {
          const i = PAIR_I[pair]!, j = PAIR_J[pair]!;
          const S = (d[i]! + d[3 + i]! + d[6 + i]!) * (d[j]! + d[3 + j]! + d[6 + j]!);
          const q = (d[i]! * d[j]! + d[3 + i]! * d[3 + j]! + d[6 + i]! * d[6 + j]! + S) / 12;
          const c = o + C_ + 3 * pair;
          data[c] = data[c]! + q * ax;
          data[c + 1] = data[c + 1]! + q * ay;
          data[c + 2] = data[c + 2]! + q * az;
        }
      }
      data[o + R] = Math.sqrt(r2);
    } else {
      const l = node + 1;
      const r = links[NODE_STRIDE * node + LINK_OFFSET]!;
      const ol = STRIDE * l, or = STRIDE * r;
      const Al = area[l]!, Ar = area[r]!;
      A = Al + Ar;
      if (A > 0) {
        px = (Al * data[ol]! + Ar * data[or]!) / A;
        py = (Al * data[ol + 1]! + Ar * data[or + 1]!) / A;
        pz = (Al * data[ol + 2]! + Ar * data[or + 2]!) / A;
      } else {
        px = 0.5 * (data[ol]! + data[or]!);
        py = 0.5 * (data[ol + 1]! + data[or + 1]!);
        pz = 0.5 * (data[ol + 2]! + data[or + 2]!);
      }
      let radius = 0;
      for (const c of [ol, or]) {
        for (let k = N_; k < R; k++) data[o + k] = data[o + k]! + data[c + k]!;
        // Moving the expansion centre by s = p~_child - p~ turns d into d + s:
        // M += s (x) N, C_ijk += s_i M_jk + s_j M_ik + s_i s_j N_k (child moments).
        const s = shift;
        s[0] = data[c]! - px;
        s[1] = data[c + 1]! - py;
        s[2] = data[c + 2]! - pz;
        addOuter(data, o + M_, s[0], s[1], s[2], data[c + N_]!, data[c + N_ + 1]!, data[c + N_ + 2]!);
        for (let pair = 0; pair < 6; pair++) {
          const i = PAIR_I[pair]!, j = PAIR_J[pair]!;
          for (let k = 0; k < 3; k++) {
            const at = o + C_ + 3 * pair + k;
            data[at] = data[at]! + s[i]! * data[c + M_ + 3 * j + k]! + s[j]! * data[c + M_ + 3 * i + k]! + s[i]! * s[j]! * data[c + N_ + k]!;
          }
        }
        radius = Math.max(radius, Math.hypot(s[0], s[1], s[2]) + data[c + R]!);
      }
      // The node box holds every corner too; its farthest corner can be the tighter bound.
      const b = NODE_STRIDE * node;
      const fx = Math.max(px - box[b]!, box[b + 3]! - px);
      const fy = Math.max(py - box[b + 1]!, box[b + 4]! - py);
      const fz = Math.max(pz - box[b + 2]!, box[b + 5]! - pz);
      data[o + R] = Math.min(radius, Math.sqrt(fx * fx + fy * fy + fz * fz));
    }
    area[node] = A;
    data[o] = px;
    data[o + 1] = py;
    data[o + 2] = pz;
  }
  return { bvh, nodeData: data };
}

const cornerOffsets = new Float64Array(9);
const shift = new Float64Array(3);
const moments = { nx: 0, ny: 0, nz: 0, cx: 0, cy: 0, cz: 0 };

/** Twice-area normal (cross product) and centroid of the slot triangle at t. Build-time only. */
function triangleMoments(tri: SlotCorners, t: number): typeof moments {
  const ax = tri[t]!, ay = tri[t + 1]!, az = tri[t + 2]!;
  const ux = tri[t + 3]! - ax, uy = tri[t + 4]! - ay, uz = tri[t + 5]! - az;
  const vx = tri[t + 6]! - ax, vy = tri[t + 7]! - ay, vz = tri[t + 8]! - az;
  moments.nx = uy * vz - uz * vy;
  moments.ny = uz * vx - ux * vz;
  moments.nz = ux * vy - uy * vx;
  moments.cx = (ax + tri[t + 3]! + tri[t + 6]!) / 3;
  moments.cy = (ay + tri[t + 4]! + tri[t + 7]!) / 3;
  moments.cz = (az + tri[t + 5]! + tri[t + 8]!) / 3;
  return moments;
}

function addOuter(d: Float64Array, o: number, ux: number, uy: number, uz: number, vx: number, vy: number, vz: number): void {
  d[o] = d[o]! + ux * vx;
  d[o + 1] = d[o + 1]! + ux * vy;
  d[o + 2] = d[o + 2]! + ux * vz;
  d[o + 3] = d[o + 3]! + uy * vx;
  d[o + 4] = d[o + 4]! + uy * vy;
  d[o + 5] = d[o + 5]! + uy * vz;
  d[o + 6] = d[o + 6]! + uz * vx;
  d[o + 7] = d[o + 7]! + uz * vy;
  d[o + 8] = d[o + 8]! + uz * vz;
}

interface FastWindingOptions {
  /**
   * A node is replaced by its expansion when the point is farther than beta x its radius from its
   * centre. Default 3: measured worst error under 1e-3 on a 100k-triangle sphere (beta 2, Barill's
   * choice, gave 5e-3 there, at half the cost). Inside/outside classification (tolerance 0.25) can
   * pass 2.
   */
  beta?: number;
  /** Expansion terms: 1 (dipole), 2 (+ first moment), 3 (+ second moment). Default 3. */
  order?: 1 | 2 | 3;
}

export const DEFAULT_BETA = 3;

/**
 * Generalized winding number of q, accelerated: a node far enough from q (|q - p~| > beta r) is
 * replaced by its expansion, near nodes are opened, and leaves near q are summed exactly. Works on
 * open, self-intersecting and inconsistently wound meshes: it is the same sum of solid angles,
 * approximated only far from q where each node's contribution is small and smooth.
 *
 * With f_k(r) = r_k / |r|^3 and r = p~ - q, the terms are N . f, M : grad f and C : hess f / 2.
 * Each term gains a factor of about radius / distance, so at beta = 2 the error of a node is about
 * an eighth of its contribution at order 3 and beta 2; inside a closed surface those errors share a sign, which
 * is why order 3 is the default (order 2 leaves errors of a few 1e-2 at the centre of a sphere).
 */
export function windingNumber(fw: FastWinding, qx: number, qy: number, qz: number, options: FastWindingOptions = {}): number {
  if (fw.bvh.nodeCount === 0) return 0;
  const q = windingQuery;
  const beta = options.beta ?? DEFAULT_BETA;
  q.data = fw.nodeData;
  q.tri = fw.bvh.slotCorners;
  q.beta2 = beta * beta;
  q.order = options.order ?? 3;
  q.qx = qx;
  q.qy = qy;
  q.qz = qz;
  q.sum = 0;
  depthFirst(fw.bvh, q);
  const sum = q.sum;
  // A module-level query must keep no tree alive.
  q.data = q.tri = NO_DATA;
  return sum / FOUR_PI;
}

/**
 * A node far from q adds its expansion to the sum and is cut (score Infinity); a near one is opened
 * (score 0); a leaf near q adds its triangles' exact solid angles.
 */
class WindingSum implements BvhQuery {
  readonly bound = Infinity;
  data: Float64Array = NO_DATA;
  tri: SlotCorners = NO_DATA;
  beta2 = 0;
  order = 3;
  qx = 0;
  qy = 0;
  qz = 0;
  sum = 0;

  nodeScore(node: number): number {
    const data = this.data;
    const o = STRIDE * node;
    const rx = data[o]! - this.qx, ry = data[o + 1]! - this.qy, rz = data[o + 2]! - this.qz;
    const d2 = rx * rx + ry * ry + rz * rz;
    const radius = data[o + R]!;
    if (!(d2 > this.beta2 * radius * radius)) return 0;
    const inv2 = 1 / d2;
    const inv3 = inv2 * Math.sqrt(inv2);
    let term = (rx * data[o + N_]! + ry * data[o + N_ + 1]! + rz * data[o + N_ + 2]!) * inv3;
    if (this.order >= 2) {
      // grad_i f_k = delta_ik / r^3 - 3 r_i r_k / r^5, contracted with M_ik.
      const m = o + M_;
      const rMr =
        rx * (data[m]! * rx + data[m + 1]! * ry + data[m + 2]! * rz) +
        ry * (data[m + 3]! * rx + data[m + 4]! * ry + data[m + 5]! * rz) +
        rz * (data[m + 6]! * rx + data[m + 7]! * ry + data[m + 8]! * rz);
      term += (data[m]! + data[m + 4]! + data[m + 8]!) * inv3 - 3 * rMr * inv3 * inv2;
    }
    if (this.order >= 3) term += secondMomentTerm(data, o + C_, rx, ry, rz, inv2, inv3);
    this.sum += term;
    return Infinity;
  }

  leaf(first: number, count: number): boolean {
    const tri = this.tri, qx = this.qx, qy = this.qy, qz = this.qz;
    for (let s = first; s < first + count; s++) {
      const t = 9 * s;
      this.sum += solidAngle(
        tri[t]! - qx, tri[t + 1]! - qy, tri[t + 2]! - qz,
        tri[t + 3]! - qx, tri[t + 4]! - qy, tri[t + 5]! - qz,
        tri[t + 6]! - qx, tri[t + 7]! - qy, tri[t + 8]! - qz,
      );
    }
    return false;
  }
}

const NO_DATA = new Float64Array(0);
const windingQuery = new WindingSum();

/**
 * C : hess f / 2 with hess_ij f_k = -3 (delta_ik r_j + delta_jk r_i + delta_ij r_k) / r^5
 * + 15 r_i r_j r_k / r^7 and C symmetric in i, j:
 * = (-3 (2 r . u + r . v) / r^5 + 15 C(r, r, r) / r^7) / 2, u_a = sum_b C_abb, v_k = sum_i C_iik.
 */
function secondMomentTerm(d: Float64Array, c: number, rx: number, ry: number, rz: number, inv2: number, inv3: number): number {
  // Pair rows: xx yy zz xy yz zx, each with k = x y z.
  const xxx = d[c]!, xxy = d[c + 1]!, xxz = d[c + 2]!;
  const yyx = d[c + 3]!, yyy = d[c + 4]!, yyz = d[c + 5]!;
  const zzx = d[c + 6]!, zzy = d[c + 7]!, zzz = d[c + 8]!;
  const xyx = d[c + 9]!, xyy = d[c + 10]!, xyz = d[c + 11]!;
  const yzx = d[c + 12]!, yzy = d[c + 13]!, yzz = d[c + 14]!;
  const zxx = d[c + 15]!, zxy = d[c + 16]!, zxz = d[c + 17]!;
  const ux = xxx + xyy + zxz, uy = xyx + yyy + yzz, uz = zxx + yzy + zzz;
  const vx = xxx + yyx + zzx, vy = xxy + yyy + zzy, vz = xxz + yyz + zzz;
  const xx = rx * rx, yy = ry * ry, zz = rz * rz, xy2 = 2 * rx * ry, yz2 = 2 * ry * rz, zx2 = 2 * rz * rx;
  const crrr =
    rx * (xxx * xx + yyx * yy + zzx * zz + xyx * xy2 + yzx * yz2 + zxx * zx2) +
    ry * (xxy * xx + yyy * yy + zzy * zz + xyy * xy2 + yzy * yz2 + zxy * zx2) +
    rz * (xxz * xx + yyz * yy + zzz * zz + xyz * xy2 + yzz * yz2 + zxz * zx2);
  const inv5 = inv3 * inv2;
  return 0.5 * (-3 * (2 * (rx * ux + ry * uy + rz * uz) + rx * vx + ry * vy + rz * vz) * inv5 + 15 * crrr * inv5 * inv2);
}
