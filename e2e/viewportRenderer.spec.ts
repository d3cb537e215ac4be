import { dataFile, expect, test } from './fixtures/fixtures';

/**
 * The viewport's WebGL context asks for multisampling on a GPU only (src/viewer/renderer.ts): on a
 * software renderer (headless Chromium's SwiftShader here) 4x MSAA doubled the cost of each frame
 * of an orbit, and the page's thread waits for every frame there (docs/scaling.md).
 */
test('the viewport draws without multisampling on a software renderer, with it on a GPU', async ({ app }) => {
  await app.dropFiles([dataFile('shape.stl')]);
  await app.expectDrawn(['shape'], 90_000);
  await app.viewport.expectDrawn();
  const context = await app.page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="viewport"] canvas')!;
    // The same kind of context as the viewport's returns the viewport's own.
    const gl = canvas.getContext('webgl2')!;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    return { renderer: String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER)), antialias: gl.getContextAttributes()?.antialias };
  });
  const software = /swiftshader|llvmpipe|softpipe|software|basic render driver/i.test(context.renderer);
  expect(context.antialias).toBe(!software);
  // The e2e browser runs with --disable-gpu: SwiftShader, the case this spec is about.
  expect(context.renderer).toMatch(/SwiftShader/);
  app.expectNoConsoleErrors();
});
