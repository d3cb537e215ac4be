import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { getKernel, setImportMemoryBudget, settle, type Engine, type OC, type RunOptions } from '../engine';
import { confinedFiles } from './confinedFiles';
import type { Method, Reply, Request, SceneEntry, ThreadMessage, ThreadMethods, ThreadSetup } from './engineProtocol';
import { createNodeEngine, processMeshWorkers } from './nodeEngine';
import { ownedFiles } from './ownedFiles';
import { createSelfCheckThread } from './selfCheckThread';
import { capWasmMemory, ceilingBytes, noteWasmMemory } from './wasmMemory';

// One engine in a worker thread, answering the host's messages (src/node/EngineHost.ts): every call
// answers with a value, display buffers move instead of being copied, and each answer carries the
// scene's bodies so the host can keep their files for a restore.

const port = parentPort!;
/** The host's first message; nothing instantiates WebAssembly before a call, which comes after it. */
let setup: ThreadSetup | undefined;
/** True while kernelInUseBytes probes the heap: the heap must not grow for the probe. */
let probing = false;
capWasmMemory(
  () => setup?.cells,
  () => probing,
);

/** null: anywhere the process may read and write. */
let roots: string[] | null = null;
const meshWorkers = processMeshWorkers();
/** The batch job the running call's writes belong to (ownedFiles.ts); calls run one at a time. */
let owner: string | undefined;
// The self-intersection budget holds only where a kernel call can be abandoned: in a thread of its own.
const engine: Engine = createNodeEngine({
  files: ownedFiles(confinedFiles(() => roots), () => owner),
  meshWorkers,
  selfCheckThread: createSelfCheckThread(),
});
engine.onKernelState((state) => {
  // The host does not count the kernel's start against a call's deadline: it stops the call's clock
  // while the kernel loads and starts it again once it is ready.
  if (state.status === 'loading') port.postMessage({ kernel: 'loading' } satisfies Reply);
  if (state.status !== 'ready') return;
  port.postMessage({ kernel: 'ready', loadMs: state.loadMs } satisfies Reply);
  void getKernel().then((oc) => setup && noteWasmMemory(setup.cells, heapBytes(oc)));
});

/** The kernel's WebAssembly heap: the Emscripten module's byte view of it, renewed on every growth. */
function heapBytes(oc: OC): number {
  return (oc as unknown as { HEAPU8: Uint8Array }).HEAPU8.length;
}

const PROBE_BLOCK = 16384;

/**
 * The kernel heap in use: its size less what malloc can still hand out, in 16 KiB blocks, while the
 * heap is held at its size. The heap never shrinks, so its size alone hides a leak until the free
 * space is gone; this shows one at once. Free pieces under 16 KiB count as in use (fragmentation).
 */
function kernelInUseBytes(oc: OC): number {
  const heap = oc as unknown as { _malloc(bytes: number): number; _free(pointer: number): void };
  const blocks: number[] = [];
  probing = true;
  try {
    for (let p = heap._malloc(PROBE_BLOCK); p !== 0; p = heap._malloc(PROBE_BLOCK)) blocks.push(p);
  } finally {
    for (const p of blocks) heap._free(p);
    probing = false;
  }
  return heapBytes(oc) - blocks.length * PROBE_BLOCK;
}

/** Stamps by body: a body's uid is unique in the process, so another file under the same id has another. */
function sceneIndex(): SceneEntry[] {
  return engine.scene.list().flatMap((b) => (b.origin ? [{ bodyId: b.bodyId, stamp: b.uid }] : []));
}

interface CallContext extends RunOptions {
  /** Buffers the answer may move to the host. */
  transfer: ArrayBuffer[];
}

type Handlers = { [M in Method]: (...args: [...Parameters<ThreadMethods[M]>, CallContext]) => ReturnType<ThreadMethods[M]> | Promise<ReturnType<ThreadMethods[M]>> };

const handlers: Handlers = {
  async run(name, args, jobOwner, ctx) {
    owner = jobOwner ?? undefined;
    try {
      const outcome = await engine.runJson(name, args, { signal: ctx.signal, progress: ctx.progress });
      ctx.transfer.push(...engine.transferables(name, outcome.result));
      return outcome;
    } finally {
      owner = undefined;
    }
  },
  load(request) {
    // The mesh threads (when this process has them) load their code while the file is read and
    // parsed: a body loaded is most often a body compared next.
    meshWorkers?.warm();
    return engine.load(request);
  },
  validate: (name, args) => engine.validate(name, args),
  tools: () => engine.tools(),
  kept: (bodyIds) => engine.snapshot().bodies.filter((b) => bodyIds.includes(b.bodyId)),
  // The kept bytes rebuild the bodies; a path still reads the file on disk.
  restore: (snapshot) => engine.restore(snapshot, { giveFiles: false }),
  clear: () => engine.dispose(),
  setRoots(next) {
    roots = next;
  },
  async memory() {
    const oc = engine.kernelState().status === 'ready' ? await getKernel() : undefined;
    return { wasmBytes: oc ? heapBytes(oc) : 0, kernelInUseBytes: oc ? kernelInUseBytes(oc) : 0, jsHeapBytes: getHeapStatistics().used_heap_size };
  },
  async abortKernelForTest() {
    if (!setup?.testHooks) throw new Error('engine thread: test hooks are off');
    // free() of an address past the 4 GiB heap: a genuine trap inside the kernel's WebAssembly.
    (await getKernel() as unknown as { _free(pointer: number): void })._free(0xfffffff0);
  },
  crashForTest() {
    if (!setup?.testHooks) throw new Error('engine thread: test hooks are off');
    // Not from a timer: the port drains every queued message before timers run, so the next call
    // could be answered first. The next message's listener throws instead.
    crashOnNextMessage = true;
  },
};

let crashOnNextMessage = false;

const running = new Map<number, AbortController>();

port.on('message', (message: ThreadMessage) => {
  if (crashOnNextMessage) throw new Error('engine thread: crash requested by a test');
  if ('setup' in message) {
    setup = message.setup;
    roots = setup.roots;
    // The readers' arrays live outside the JavaScript heap, which the heap limit does not bound:
    // each file's expanded size is checked against the same ceiling before it is allocated.
    const ceiling = ceilingBytes(setup.cells);
    if (ceiling > 0) setImportMemoryBudget(ceiling, `the engine's memory ceiling, --max-memory ${ceiling / 2 ** 20}`);
    // Answered, not announced: a thread started early (bin/brepscope.js starts it before the CLI
    // loads) could otherwise post "booted" before its host listens, and a Worker drops a message
    // that arrives while nobody listens, so the host would wait for it forever. The host posts the
    // setup and listens in one synchronous step, so this reply always finds it.
    port.postMessage({ booted: true } satisfies Reply);
  } else if ('cancel' in message) {
    running.get(message.cancel)?.abort();
  } else {
    void answer(message);
  }
});

async function answer(request: Request): Promise<void> {
  const controller = new AbortController();
  running.set(request.id, controller);
  const ctx: CallContext = { signal: controller.signal, transfer: [], progress: request.progress ? throttled(request.id) : undefined };
  const call = handlers[request.method] as (...args: unknown[]) => unknown;
  const outcome = await settle(async () => call(...request.params, ctx));
  running.delete(request.id);
  const reply: Reply = { id: request.id, outcome, scene: sceneIndex() };
  port.postMessage(reply, outcome.ok ? [...new Set(ctx.transfer)] : []);
}

/** At most one progress message per 100 ms (and always the last, 1). */
function throttled(id: number): (fraction: number, message?: string) => void {
  let last = 0;
  return (fraction, message) => {
    const now = performance.now();
    if (fraction < 1 && now - last < 100) return;
    last = now;
    const reply: Reply = { id, progress: [fraction, message] };
    port.postMessage(reply);
  };
}
