import { z } from 'zod';

// The deviation tools' shared argument schemas; their defaults are those of defaults.ts.

export const signModeSchema = z
  .enum(['robust', 'nearest'])
  .default('robust')
  .describe(
    'robust (default): reference triangles facing against the sample are rejected, the nearest survivor within reach gives the sign, samples without one are ambiguous; nearest: the nearest triangle wins whatever it is',
  );

export const surfaceSchema = z
  .enum(['exact', 'tessellated'])
  .default('exact')
  .describe(
    "exact (default): a BREP body is measured on its exact faces (samples on the faces, distances, foot points, normals and signs from the faces; the tessellation at deflection only finds candidates); tessellated: a BREP body is measured as its tessellation at deflection (the spec's behaviour). An STL body is its own exact surface either way",
  );

export const maxDistanceSchema = z
  .number()
  .positive()
  .finite()
  .optional()
  .describe(
    'Maximum search distance: a sample farther than this from the reference has no counterpart there (no data), as has one whose nearest point lies beyond an open mesh reference\'s boundary; no-data samples are counted (noDataSamples) and left out of every figure. Default max(10 x the median distance, 5% of the from-body bounding-box diagonal), per direction',
  );
