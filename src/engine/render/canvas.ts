/**
 * A drawing surface for PNG output that works in every host: the Web Worker provides
 * OffscreenCanvas, Node provides @napi-rs/canvas. Renderers draw on the 2D context and call toPng.
 */
export type Context2D = OffscreenCanvasRenderingContext2D;

export interface DrawingSurface {
  width: number;
  height: number;
  context: Context2D;
  toPng(): Promise<Uint8Array>;
}

export type SurfaceFactory = (width: number, height: number) => DrawingSurface;

const FACTORY_KEY = Symbol.for('brepscope.surfaceFactory');

/** The host installs its surface factory once (Node: nodeCanvas.ts; worker: engine.worker.ts). */
export function setSurfaceFactory(factory: SurfaceFactory): void {
  (globalThis as Record<symbol, unknown>)[FACTORY_KEY] = factory;
}

export function createSurface(width: number, height: number): DrawingSurface {
  const factory = (globalThis as Record<symbol, unknown>)[FACTORY_KEY] as SurfaceFactory | undefined;
  if (factory) return factory(width, height);
  if (typeof OffscreenCanvas !== 'undefined') return offscreenSurface(width, height);
  throw new Error('render: no drawing surface in this host (install one with setSurfaceFactory)');
}

/** The browser and worker surface. */
export function offscreenSurface(width: number, height: number): DrawingSurface {
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('render: OffscreenCanvas has no 2D context');
  return {
    width,
    height,
    context,
    async toPng() {
      const blob = await canvas.convertToBlob({ type: 'image/png' });
      return new Uint8Array(await blob.arrayBuffer());
    },
  };
}
