/** The deviation colour map lives in the engine (the PNG renderer draws with the same one). */
export * from '../engine/render/heatColors';
