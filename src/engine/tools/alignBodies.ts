import { z } from 'zod';
import { ALIGN_MODES, alignBodies as runAlignment, type AlignResult } from '../alignment/alignBodies';
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
  .refine((a) => a.movingBodyId !== a.fixedBodyId, { path: ['fixedBodyId'], message: 'fixedBodyId must differ from movingBodyId' });

export const alignBodies = defineTool({
  name: 'align_bodies',
  description:
    "Register a moving body (a scan: a mesh or a point cloud) to a fixed body (the CAD part, or a mesh; not a point cloud): global pre-alignment on principal axes (all 24 candidate frames, each refined by a short ICP, the lowest trimmed residual wins; symmetric parts are reported) then point-to-plane ICP, against the fixed BREP's exact faces. Returns the rigid motion (4x4 row-major, rotation angle and axis, translation), RMS before and after, iterations, overlap, converged and warnings. apply: true moves the moving body's placement (its file is never changed; every tool then sees it aligned). Deterministic.",
  category: 'scene',
  schema,
  run: (args, ctx): Promise<AlignResult> => runAlignment(args, ctx),
});
