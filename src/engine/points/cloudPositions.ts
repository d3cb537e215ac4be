/** A cloud's coordinates: float64, or float32 exactly as a binary file stored them (PointCloud). */
export type CloudPositions = Float64Array | Float32Array;
