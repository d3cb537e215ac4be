import type * as NapiCanvas from '@napi-rs/canvas';
import { createRequire } from 'node:module';
import { setSurfaceFactory, type Context2D } from '../engine';

const require = createRequire(import.meta.url);

/**
 * Installs @napi-rs/canvas as the engine's drawing surface in Node (CLI, tests, MCP, benchmarks).
 * The native module is loaded on the first drawing, not with the engine: most calls draw nothing,
 * and loading it costs a CLI call about 0.1 s.
 */
export function useNodeCanvas(): void {
  setSurfaceFactory((width, height) => {
    const { createCanvas } = require('@napi-rs/canvas') as typeof NapiCanvas;
    const canvas = createCanvas(width, height);
    // The Skia context implements the Canvas 2D API the renderers use; its type is its own.
    const context = canvas.getContext('2d') as unknown as Context2D;
    return { width, height, context, toPng: async () => new Uint8Array(canvas.toBuffer('image/png')) };
  });
}
