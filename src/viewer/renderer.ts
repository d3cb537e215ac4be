/**
 * Whether the page's WebGL runs on a software renderer (SwiftShader: Chromium without a usable GPU,
 * as headless Chromium; Mesa's llvmpipe; Windows' Basic Render Driver). There, multisampling costs
 * about as much as everything else in a frame: a profile of an orbit (docs/scaling.md) showed
 * SwiftShader's 4x MSAA doubling the time per triangle, and the page's thread waits for all of it,
 * since a software compositor reads every frame back. So the viewport asks for no antialiasing
 * there; a GPU keeps it.
 */
const SOFTWARE = /swiftshader|llvmpipe|softpipe|software|basic render driver/i;

/** Whether a WebGL renderer string (`UNMASKED_RENDERER_WEBGL`, else `RENDERER`) names a software renderer. */
export function isSoftwareRenderer(renderer: string): boolean {
  return SOFTWARE.test(renderer);
}

let probed: boolean | undefined;

/**
 * The page's renderer, probed once with a throwaway context (a few milliseconds) before the
 * viewport makes its own: antialiasing is fixed when a context is made. False when nothing can be
 * read (no WebGL, a browser that hides the renderer): a GPU is then the likelier case.
 */
export function softwareRenderer(): boolean {
  if (probed !== undefined) return probed;
  probed = false;
  if (typeof document === 'undefined') return probed;
  const gl = document.createElement('canvas').getContext('webgl2') ?? document.createElement('canvas').getContext('webgl');
  if (!gl) return probed;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
  probed = isSoftwareRenderer(name);
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return probed;
}
