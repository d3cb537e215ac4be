import { surfaceBody } from '../scene/pointsBody';
import { z } from 'zod';
import type { MeshBody } from '../scene/Body';
import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { writeBrepBytes } from '../graph/brepFile';
import type { OC } from '../kernel';
import { brepBaseValidation, brepValidation, cachedReport, issue, notCompletedIssue, progressFor, type SelfCheckReport, type ValidationIssue } from '../scene/shapeIssues';
import type { SelfCheckThread } from '../scene/selfCheckJob';
import { defineTool } from './defineTool';
import { meshEdges } from './queryTopology';
import { bodyIdSchema } from './schemas';

export { MAX_LISTED_IDS, SMALL_EDGE_LENGTH, SMALL_FACE_AREA, type ValidationIssue } from '../scene/shapeIssues';

export interface BodyValidation {
  bodyId: string;
  valid: boolean;
  issues: ValidationIssue[];
  /** BREP bodies with checkSelfIntersection: whether the self-intersection and interference checks completed within their budget. */
  selfIntersection?: SelfCheckReport;
}

/**
 * Seconds the self-intersection and interference checks of one body may take by default. The
 * slowest real files measured (OCCT shell1.brep, CAx-IF dm1-id-214.stp) took over 180 s for the
 * whole check; the budget ends it with the check reported as not completed (docs/validation.md).
 */
export const DEFAULT_SELF_INTERSECTION_BUDGET_S = 20;

/** Completed self-intersection findings per body shape: the check is costly and its answer does not change while the shape lives. */
const selfCheckCache = new WeakMap<object, ValidationIssue[]>();

const schema = z.strictObject({
  bodyId: bodyIdSchema.optional().describe('Body to validate; when omitted every body in the scene is validated'),
  checkSelfIntersection: z
    .boolean()
    .default(true)
    .describe('Run the self-intersection check of each solid (BRepAlgoAPI_Check) and the interference check between solids (General Fuse), the costly part: seconds to minutes on a few hundred faces, so it has a budget'),
  selfIntersectionBudgetSeconds: z
    .number()
    .min(0)
    .default(DEFAULT_SELF_INTERSECTION_BUDGET_S)
    .describe(`Seconds the self-intersection and interference checks of one body may take (default ${DEFAULT_SELF_INTERSECTION_BUDGET_S}); past it they stop (between kernel calls, or in the Node hosts and the browser app by abandoning the call in its thread) and the body reports selfIntersection.completed: false with a selfIntersectionNotCompleted warning (never a verdict on what was not checked)`),
});

export const validateGeometry = defineTool({
  name: 'validate_geometry',
  description:
    'Topology and geometry validation per body: BRepCheck statuses per sub-shape (open shells, bad orientation, invalid curves on surfaces ...), free edges, small edges and faces, self-intersection of each solid (BRepAlgoAPI_Check, an error), interference between different solids of the body (an assembly\'s touching or overlapping parts: a warning listing the pairs and whether they touch or overlap); for STL bodies open, non-manifold and inconsistently wound edges and degenerate triangles. valid is false when any issue has severity error. With bodyId: {bodyId, valid, issues}; without: {valid, bodies: [...]}.',
  category: 'scene',
  schema,
  async run(args, ctx) {
    // A cloud has no topology or geometry to check: named, it is refused; in a whole-scene check it is left out.
    const bodies = args.bodyId !== undefined ? [surfaceBody(ctx.scene.get(args.bodyId), 'validate_geometry', 'topology and surfaces to check')] : ctx.scene.list().filter((b) => b.kind !== 'points');
    const results: BodyValidation[] = [];
    for (const body of bodies) {
      if (body.kind === 'mesh') {
        const issues = meshIssues(body);
        results.push({ bodyId: body.bodyId, valid: !issues.some((i) => i.severity === 'error'), issues });
        continue;
      }
      const thread = args.checkSelfIntersection ? ctx.selfCheckThread : undefined;
      // Its kernel starts while BRepCheck runs here (unless the answer is kept already).
      if (!selfCheckCache.has(body.shape)) thread?.warm();
      const oc = await ctx.kernel();
      const budgetMs = args.selfIntersectionBudgetSeconds * 1000;
      const { issues, selfCheck } = thread
        ? await inThread(oc, thread, body.shape, budgetMs, ctx.progress)
        : brepValidation(oc, body.shape, args.checkSelfIntersection ? { budgetMs, progress: ctx.progress, cache: selfCheckCache } : false);
      results.push({ bodyId: body.bodyId, valid: !issues.some((i) => i.severity === 'error'), issues, ...(selfCheck ? { selfIntersection: selfCheck } : {}) });
    }
    if (args.bodyId !== undefined) return results[0];
    return { valid: results.every((r) => r.valid), bodies: results };
  },
});

/**
 * brepValidation with the slow checks in a thread the host can stop: past the budget (and a second
 * of grace for the thread to stop between calls) a kernel call still running is abandoned with the
 * thread, and the check is reported not completed as far as the thread had got.
 */
async function inThread(
  oc: OC,
  thread: SelfCheckThread,
  shape: TopoDS_Shape,
  budgetMs: number,
  progress: ((fraction: number, message?: string) => void) | undefined,
): Promise<{ issues: ValidationIssue[]; selfCheck: SelfCheckReport }> {
  const { issues, brepCheckValid } = brepBaseValidation(oc, shape);
  const cached = selfCheckCache.get(shape);
  if (cached) return { issues: [...issues, ...cached], selfCheck: cachedReport() };
  const answer = await thread.run({ brep: writeBrepBytes(oc, shape), brepCheckValid, budgetMs }, progress && progressFor(progress));
  if ('abandoned' in answer) {
    const report: SelfCheckReport = { completed: false, checks: answer.checks, checksDone: answer.checksDone, seconds: answer.seconds, cached: false };
    return { issues: [...issues, ...answer.found, notCompletedIssue(report, budgetMs)], selfCheck: report };
  }
  const { found, report } = answer;
  if (report.completed) selfCheckCache.set(shape, found);
  else found.push(notCompletedIssue(report, budgetMs));
  return { issues: [...issues, ...found], selfCheck: report };
}

/** A mesh body as a facet shell: edge ids follow the mesh's edge enumeration (first use by triangles). */
function meshIssues(body: MeshBody): ValidationIssue[] {
  const { positions: p, indices: idx } = body.mesh;
  const V = p.length / 3;
  const out: ValidationIssue[] = [];
  const t = body.topology;
  if (t.degenerateTriangles > 0) {
    const ids: string[] = [];
    for (let f = 0; f < idx.length / 3; f++) {
      const a = idx[f * 3]!, b = idx[f * 3 + 1]!, c = idx[f * 3 + 2]!;
      const ux = p[b * 3]! - p[a * 3]!, uy = p[b * 3 + 1]! - p[a * 3 + 1]!, uz = p[b * 3 + 2]! - p[a * 3 + 2]!;
      const wx = p[c * 3]! - p[a * 3]!, wy = p[c * 3 + 1]! - p[a * 3 + 1]!, wz = p[c * 3 + 2]! - p[a * 3 + 2]!;
      if (a === b || b === c || a === c || Math.hypot(uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx) === 0) ids.push(`face[${f}]`);
    }
    out.push(issue('degenerateTriangle', 'error', ids, `${ids.length} triangle(s) have zero area (a collapsed one, with two equal corners, is a segment and bounds nothing)`));
  }
  if (t.boundaryEdges === 0 && t.nonManifoldEdges === 0 && t.inconsistentEdges === 0) return out;
  // Count uses and directions per undirected edge, in edge[N] order.
  const order = new Map<number, number>();
  let n = 0;
  for (const [a, b] of meshEdges(body.mesh)) order.set(a * V + b, n++);
  const uses = new Uint32Array(n);
  const forward = new Uint32Array(n);
  for (let f = 0; f < idx.length; f += 3) {
    // A collapsed triangle (two equal corners) is reported as degenerate above and uses no edge (meshTopology's rule).
    if (idx[f] === idx[f + 1] || idx[f + 1] === idx[f + 2] || idx[f] === idx[f + 2]) continue;
    for (let k = 0; k < 3; k++) {
      const a = idx[f + k]!, b = idx[f + ((k + 1) % 3)]!;
      const e = order.get(a < b ? a * V + b : b * V + a)!;
      uses[e]!++;
      if (a < b) forward[e]!++;
    }
  }
  const open: string[] = [], nonManifold: string[] = [], inconsistent: string[] = [];
  for (let e = 0; e < n; e++) {
    if (uses[e] === 0) continue; // only a collapsed triangle's segment
    if (uses[e] === 1) open.push(`edge[${e}]`);
    else if (uses[e]! > 2) nonManifold.push(`edge[${e}]`);
    else if (forward[e] !== 1) inconsistent.push(`edge[${e}]`);
  }
  if (open.length) out.push(issue('freeEdge', 'warning', open, `${open.length} edge(s) bound one triangle: the mesh is not closed`));
  if (nonManifold.length) out.push(issue('nonManifoldEdge', 'error', nonManifold, `${nonManifold.length} edge(s) are shared by more than two triangles`));
  if (inconsistent.length) out.push(issue('inconsistentOrientation', 'error', inconsistent, `${inconsistent.length} edge(s) are traversed the same way by both triangles: the winding flips there`));
  return out;
}
