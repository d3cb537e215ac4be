/** The deviation colour map lives in the engine (its PNG renderer draws with the same one); the page takes it through the engine's index. */
export { AMBIGUOUS, NEUTRAL, NO_DATA, colorVertices, colorRange, colorSpan, cssColor, defaultTolerance, deviationColor, deviationColorInto, maxAbsValue } from '../engine';
export type { Rgb } from '../engine';
