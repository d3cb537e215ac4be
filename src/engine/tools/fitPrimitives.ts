import { z } from 'zod';
import { warning, type ToolWarning } from '../warnings';
import { BrepscopeError } from '../errors';
import { boxDiagonal, pointsBox } from '../math/vec3';
import { bodyPoints } from '../gdt/bodySamples';
import { fitAuto, fitPrimitive, PRIMITIVE_KINDS } from '../gdt/fitPrimitives';
import { defineTool } from './defineTool';
import { bodyIdSchema, vec3Schema } from './schemas';

const schema = z.strictObject({
  bodyId: bodyIdSchema.describe('Body to fit (a scan mesh, a point cloud or a BREP body)'),
  kind: z.enum([...PRIMITIVE_KINDS, 'auto']).default('auto').describe('plane, sphere, cylinder, cone, or auto (each is fitted; the simplest that fits as well wins). Default auto'),
  region: z
    .strictObject({
      faces: z.array(z.string()).min(1).optional().describe('BREP body only: face ids (face[N]) to fit'),
      box: z.strictObject({ min: vec3Schema, max: vec3Schema }).optional().describe('Keep only points inside this axis-aligned box'),
    })
    .optional()
    .describe('Part of the body to fit. Default: all of it'),
  seed: z.int().min(0).default(1).describe('RANSAC seed: the same seed gives the same result. Default 1'),
  threshold: z.number().positive().optional().describe('RANSAC inlier distance. Default 0.5% of the region\'s bounding-box diagonal'),
  maxSamples: z.int().min(10).max(200000).default(20000).describe('Points used at most (every n-th beyond). Default 20000'),
});

export const fitPrimitives = defineTool({
  name: 'fit_primitives',
  description:
    'Fits a plane, sphere, cylinder or cone to a body or part of it (faces of a BREP body, or a box) by RANSAC (seeded, repeatable) and geometric least squares on the inliers (docs/gdt.md). Returns the parameters (cylinder: axis, radius, diameter; cone: apex, half-angle ...), rms and max residual over the inliers, the inlier count, and for a plane or cylinder the minimum-zone flatness or cylindricity of the inliers. kind auto fits all four and keeps the simplest that fits as well.',
  category: 'scene',
  schema,
  async run(args, ctx) {
    const body = ctx.scene.get(args.bodyId);
    const oc = body.kind === 'brep' ? await ctx.kernel() : undefined;
    const set = bodyPoints(oc, body, args.maxSamples, args.region?.faces, args.region?.box);
    const diagonal = boxDiagonal(pointsBox(set.points, set.count));
    if (!(diagonal > 0)) throw new BrepscopeError('EMPTY_MESH', `fit_primitives: the points of '${args.bodyId}' in the region coincide`);
    const options = { seed: args.seed, threshold: args.threshold ?? 0.005 * diagonal };
    const warnings: ToolWarning[] = [];
    if (args.kind === 'auto') {
      const { chosen, candidates } = fitAuto(set, options);
      if (!chosen) warnings.push(warning('NO_FIT', 'no primitive fits these points (too few, or all on a line)'));
      return { fit: chosen, candidates, threshold: options.threshold, seed: args.seed, warnings };
    }
    const fit = fitPrimitive(args.kind, set, options);
    if (!fit) warnings.push(warning('NO_FIT', `no ${args.kind} fits these points (too few, or a degenerate set)`));
    return { fit, threshold: options.threshold, seed: args.seed, warnings };
  },
});
