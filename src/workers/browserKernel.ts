import ocFullJs from 'opencascade.js/dist/opencascade.full.js';
import type { KernelLoader, OC } from '../engine';

/** The glue's options we use: where the .wasm is, and our own instantiation of the compiled module. */
interface GlueOptions {
  locateFile(path: string): string;
  instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void): object;
}
type GlueFactory = (module: GlueOptions) => Promise<OC>;

/** Marks in the worker's performance timeline (read by the browser benchmark, bench/browser). */
export const KERNEL_MARKS = { start: 'brepscope:kernel-start', compiled: 'brepscope:kernel-compiled', instantiated: 'brepscope:kernel-instantiated', ready: 'brepscope:kernel-ready' } as const;

/**
 * The compiled kernel of this worker: the one the page handed over (compiled by an earlier worker
 * of the page), else compiled here from the .wasm while it downloads. A `WebAssembly.Module` is
 * shared between the workers of a page, with the code compiled so far, so a replaced worker
 * (Cancel, crash) skips the 55 MB download and its compilation.
 */
export class CompiledKernel {
  private given: WebAssembly.Module | undefined;
  private compiling: Promise<WebAssembly.Module> | undefined;
  private readonly settle: (module: WebAssembly.Module) => void;
  /** Resolves once this worker has the module (given or compiled); never, if compiling fails. */
  readonly ready: Promise<WebAssembly.Module>;

  constructor(private readonly wasmUrl: string) {
    let settle!: (module: WebAssembly.Module) => void;
    this.ready = new Promise((resolve) => (settle = resolve));
    this.settle = settle;
  }

  /** A module from the page; ignored once compiling started. */
  give(module: WebAssembly.Module): void {
    if (!this.compiling && module instanceof WebAssembly.Module) this.given = module;
  }

  module(): Promise<WebAssembly.Module> {
    this.compiling ??= (this.given ? Promise.resolve(this.given) : compileStreaming(this.wasmUrl)).then((m) => {
      this.settle(m);
      return m;
    });
    return this.compiling;
  }
}

/** What the worker adds to its engine so the page can keep the compiled kernel and hand it to the next worker. */
export function compiledKernelApi(compiled: CompiledKernel) {
  return {
    /** The kernel an earlier worker of the page compiled; sent before the kernel starts loading. */
    async useCompiledKernel(module: WebAssembly.Module): Promise<void> {
      compiled.give(module);
    },
    /** Resolves with this worker's compiled kernel once it has one. */
    compiledKernel(): Promise<WebAssembly.Module> {
      return compiled.ready;
    },
  };
}

export type CompiledKernelApi = ReturnType<typeof compiledKernelApi>;

/** Compiles while downloading; a server that sends the wasm with another MIME type gets the plain path. */
async function compileStreaming(url: string): Promise<WebAssembly.Module> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`could not download the CAD kernel (${url}): HTTP ${response.status}`);
  if (typeof WebAssembly.compileStreaming === 'function' && response.headers.get('content-type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * A loader for a module Web Worker: the Emscripten glue (its start made lazy at build time,
 * src/engine/kernel/lazyEmbind.ts), instantiating the module `compiled` provides.
 */
export function createBrowserKernelLoader(compiled: CompiledKernel): KernelLoader {
  // The glue's .d.ts types its default export as taking no argument.
  const factory = ocFullJs as unknown as GlueFactory;
  return () =>
    new Promise<OC>((resolve, reject) => {
      performance.mark(KERNEL_MARKS.start);
      factory({
        // Only asked for the .wasm, which instantiateWasm below supplies itself.
        locateFile: (path) => path,
        instantiateWasm(imports, receive) {
          compiled
            .module()
            .then(async (module) => {
              performance.mark(KERNEL_MARKS.compiled);
              const instance = await WebAssembly.instantiate(module, imports);
              performance.mark(KERNEL_MARKS.instantiated);
              receive(instance, module);
            })
            // The glue does not see failures of a custom instantiation: without this, the load never settles.
            .catch(reject);
          return {};
        },
      }).then((oc) => {
        performance.mark(KERNEL_MARKS.ready);
        resolve(oc);
      }, reject);
    });
}
