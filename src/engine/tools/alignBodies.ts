import { z } from 'zod';
import { ALIGN_METHODS, ALIGN_MODES, alignBodies as runAlignment, type AlignResult } from '../alignment/alignBodies';
import { surfaceSchema } from '../deviation/schemas';
import { defineTool } from './defineTool';
import { bodyIdSchema } from './schemas';

export type { AlignMode, AlignResult, PreAlignment } from '../alignment/alignBodies';
export { CLOUD_CELL_DIAGONAL } from '../alignment/movingSamples';

const schema = z
  .strictObject({
    movingBodyId: bodyIdSchema.describe('The body that moves (e.g. the scan)'),
    fixedBodyId: bodyIdSchema.describe('The body it is aligned to (e.g. the CAD part); it does not move'),
    mode: z
      .enum(ALIGN_MODES)
      .default('bestFit')
      .describe('bestFit (default): global pre-alignment (every principal-axes candidate, each refined by a short ICP) then fine ICP; preAlign: the global step only; fine: ICP from where the moving body stands now'),
    method: z
      .enum(ALIGN_METHODS)
      .default('bestFit')
      .describe("bestFit (default): best fit over the whole surface; 'datums': datum alignment on `datums` (primary plane, secondary plane or axis, tertiary plane, point or axis; faces of the fixed body) with the datums evaluate_gdt simulates (ASME: tangent planes at the high points, later planes perpendicular to earlier ones); '3-2-1': the same faces fitted by least squares, the origin where they meet; both from a best fit (mode fine: from where the body stands); localBestFit: best fit on the fixed body's `faces` only. Each reports residuals per constraint"),
    datums: z
      .array(
        z.strictObject({
          face: z.string().describe('face[N] of the fixed body'),
          kind: z.enum(['plane', 'axis', 'point']).optional().describe('plane (planar face), axis (cylinder), point (sphere centre, or a cylinder axis where it meets the primary plane); default from the face'),
        }),
      )
      .min(1)
      .max(3)
      .optional()
      .describe("Datums for method '3-2-1' / 'datums', in order: primary (a plane), secondary, tertiary"),
    faces: z.array(z.string()).min(1).optional().describe("Faces face[N] of the fixed body a localBestFit fits on"),
    apply: z.boolean().default(false).describe("true: move the moving body's placement by the result (composed with its current placement; the file is never changed); false (default): report only"),
    maxIterations: z.int().min(1).max(1000).default(50).describe('Fine ICP iterations at most'),
    convergenceThreshold: z
      .number()
      .positive()
      .finite()
      .optional()
      .describe('ICP stops when an iteration moves no kept sample by more than this length (model units). Default 1e-6 x the fixed body\'s box diagonal'),
    sampleCount: z.int().min(10).max(200000).default(5000).describe("Samples of the moving body used for ICP (deterministic): surface samples of a mesh or BREP, a point cloud's points stride-subsampled"),
    overlap: z
      .number()
      .gt(0)
      .max(1)
      .default(0.9)
      .describe('Share of the samples kept each iteration, nearest first (trimmed ICP): lower it for a scan that covers parts the fixed body lacks (CloudCompare: final overlap). Default 0.9'),
    maxCorrespondenceDistance: z.number().positive().finite().optional().describe('Pairs farther apart than this are dropped before trimming (model units). Default: none'),
    deflection: z.number().positive().finite().optional().describe('Tessellation deflection for BREP bodies (candidate search and the global step). Default 0.5% of the fixed body\'s box diagonal'),
    surface: surfaceSchema,
  })
  .refine((a) => a.movingBodyId !== a.fixedBodyId, { path: ['fixedBodyId'], message: 'fixedBodyId must differ from movingBodyId' })
  .refine((a) => (a.method === '3-2-1' || a.method === 'datums') === (a.datums !== undefined), { path: ['datums'], message: "datums go with method '3-2-1' or 'datums' (and those methods need them)" })
  .refine((a) => (a.method === 'localBestFit') === (a.faces !== undefined), { path: ['faces'], message: "faces go with method 'localBestFit' (and that method needs them)" });

export const alignBodies = defineTool({
  name: 'align_bodies',
  description:
    "Register a moving body (a scan: a mesh or a point cloud) to a fixed body (the CAD part, or a mesh; not a point cloud). method bestFit (default): global pre-alignment (the current pose, all 24 principal-axes frames, spins about a near axis of symmetry; each refined by a short ICP), then point-to-plane ICP with a common signed offset against the fixed BREP's exact faces; a symmetric part's equally good poses are told apart by the coverage of its faces (a keyway), else the one nearest the current pose is taken and the others are listed (ambiguous, equivalentPoses). method 'datums': primary plane, secondary plane or axis, tertiary plane or point, as faces face[N] of the fixed body, simulated on the scan as evaluate_gdt does (the same datums, the same motion); '3-2-1': the same by least-squares fits; localBestFit: best fit on chosen faces. Returns the motion (4x4 row-major, angle, axis, translation), RMS before and after, residuals per constraint, warnings with codes. A best fit that does not lower the RMS (trimmed and untrimmed) is not proposed: outcome alreadyAligned or noBetterPose, identity, never applied. apply: true moves the moving body's placement (its file is never changed). Deterministic.",
  category: 'scene',
  schema,
  run: (args, ctx): Promise<AlignResult> => runAlignment(args, ctx),
});
