import { createCanvas } from '@napi-rs/canvas';
import { setSurfaceFactory, type Context2D } from '../engine';

/** Installs @napi-rs/canvas as the engine's drawing surface in Node (CLI, tests, MCP, benchmarks). */
export function useNodeCanvas(): void {
  setSurfaceFactory((width, height) => {
    const canvas = createCanvas(width, height);
    // The Skia context implements the Canvas 2D API the renderers use; its type is its own.
    const context = canvas.getContext('2d') as unknown as Context2D;
    return { width, height, context, toPng: async () => new Uint8Array(canvas.toBuffer('image/png')) };
  });
}
