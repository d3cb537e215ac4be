import type { BenchCase } from './harness';

/** Kernel start, BREP import + tessellation, STL parse + BVH build. */
export const foundationCases: BenchCase[] = [];
