import { afterEach, describe, expect, it, vi } from 'vitest';
import { CompiledKernel, compiledKernelApi } from './browserKernel';

/** The smallest valid module that exports something: `(module (func (export "answer") (result i32) i32.const 42))`. */
const ANSWER_WASM = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, 0x03, 0x02, 0x01, 0x00, 0x07, 0x0a, 0x01, 0x06, 0x61, 0x6e, 0x73, 0x77, 0x65,
  0x72, 0x00, 0x00, 0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x2a, 0x0b,
]);

const answerOf = async (module: WebAssembly.Module) => ((await WebAssembly.instantiate(module)).exports.answer as () => number)();

function serve(response: () => Response) {
  const fetch = vi.fn(async () => response());
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('CompiledKernel: the kernel compiled once per page', () => {
  it('uses the module the page gave it, without downloading anything', async () => {
    const fetch = serve(() => {
      throw new Error('no download expected');
    });
    const given = await WebAssembly.compile(ANSWER_WASM);
    const kernel = new CompiledKernel('/k.wasm');
    await compiledKernelApi(kernel).useCompiledKernel(given);
    expect(await kernel.module()).toBe(given);
    expect(await compiledKernelApi(kernel).compiledKernel()).toBe(given);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('compiles the downloaded .wasm once, and offers that module to the page', async () => {
    const fetch = serve(() => new Response(ANSWER_WASM, { headers: { 'content-type': 'application/wasm' } }));
    const kernel = new CompiledKernel('/k.wasm');
    const [a, b] = await Promise.all([kernel.module(), kernel.module()]);
    expect(a).toBe(b);
    expect(await answerOf(a)).toBe(42);
    expect(await kernel.ready).toBe(a);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledWith('/k.wasm', { credentials: 'same-origin' });
  });

  it('compiles a .wasm served with another MIME type (no streaming)', async () => {
    serve(() => new Response(ANSWER_WASM, { headers: { 'content-type': 'application/octet-stream' } }));
    expect(await answerOf(await new CompiledKernel('/k.wasm').module())).toBe(42);
  });

  it('ignores a module given after compiling started: one kernel per worker', async () => {
    serve(() => new Response(ANSWER_WASM, { headers: { 'content-type': 'application/wasm' } }));
    const kernel = new CompiledKernel('/k.wasm');
    const compiling = kernel.module();
    kernel.give(await WebAssembly.compile(ANSWER_WASM));
    expect(await kernel.module()).toBe(await compiling);
  });

  it('ignores what is not a module (a page that sent something else)', async () => {
    serve(() => new Response(ANSWER_WASM, { headers: { 'content-type': 'application/wasm' } }));
    const kernel = new CompiledKernel('/k.wasm');
    kernel.give({} as WebAssembly.Module);
    expect(await kernel.module()).toBeInstanceOf(WebAssembly.Module);
  });

  it('fails with the URL and HTTP status when the download fails', async () => {
    serve(() => new Response('missing', { status: 404 }));
    await expect(new CompiledKernel('/assets/k.wasm').module()).rejects.toThrow('could not download the CAD kernel (/assets/k.wasm): HTTP 404');
  });
});
