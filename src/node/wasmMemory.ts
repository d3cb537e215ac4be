/**
 * The engine thread's WebAssembly memory, watched and capped from inside the thread: every
 * `WebAssembly.Memory.grow` (the kernel's malloc growing its heap) is checked against a ceiling and
 * recorded in cells shared with the host, which reads them while the thread is busy in a kernel call
 * and cannot answer messages. A growth past the ceiling is refused the way a full 32-bit heap refuses
 * one: the glue's resize returns 0, malloc fails, OCCT raises Standard_OutOfMemory or aborts.
 */

const PAGE = 65536;

/** Int32 cells of the shared buffer. */
const MemoryCell = {
  /** The largest WebAssembly memory of the thread, in 64 KiB pages (it never shrinks). */
  Pages: 0,
  /** Growths refused because they would pass the ceiling. */
  Refused: 1,
  /** The ceiling, in 64 KiB pages; 0: none. Set by the host, read at every growth. */
  Ceiling: 2,
} as const;

/** The ceiling the cells hold, in bytes (0: none). */
export function ceilingBytes(cells: Int32Array): number {
  return Atomics.load(cells, MemoryCell.Ceiling) * PAGE;
}

/** New cells with the given ceiling. */
export function memoryCells(ceilingBytes: number): Int32Array {
  const cells = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  Atomics.store(cells, MemoryCell.Ceiling, Math.floor(ceilingBytes / PAGE));
  return cells;
}

/**
 * Installs the watch; call before anything in the thread instantiates WebAssembly. `cells()` gives
 * the host's cells once it has sent them (nothing grows a memory before the first call). While
 * `holdStill()` is true every growth is refused, uncounted (a probe of the heap's free space).
 */
export function capWasmMemory(cells: () => Int32Array | undefined, holdStill: () => boolean = () => false): void {
  const proto = WebAssembly.Memory.prototype;
  const grow = proto.grow;
  proto.grow = function cappedGrow(this: WebAssembly.Memory, delta: number): number {
    // Refused without counting: a probe of the heap's free space (engineThread's kernelInUseBytes) must not grow it.
    if (holdStill()) throw new RangeError('WebAssembly.Memory.grow: held still while the heap is probed');
    const shared = cells();
    const pages = this.buffer.byteLength / PAGE + delta;
    const ceiling = shared ? Atomics.load(shared, MemoryCell.Ceiling) : 0;
    if (shared && ceiling > 0 && pages > ceiling) {
      Atomics.add(shared, MemoryCell.Refused, 1);
      throw new RangeError(`WebAssembly.Memory.grow: ${(pages * PAGE) / 2 ** 20} MiB would pass the engine's memory ceiling of ${(ceiling * PAGE) / 2 ** 20} MiB`);
    }
    const previous = grow.call(this, delta);
    if (shared) noteWasmMemory(shared, pages * PAGE);
    return previous;
  };
}

/** Records a memory's size (the kernel's initial heap, which no grow reports). */
export function noteWasmMemory(cells: Int32Array, bytes: number): void {
  const pages = Math.ceil(bytes / PAGE);
  if (pages > Atomics.load(cells, MemoryCell.Pages)) Atomics.store(cells, MemoryCell.Pages, pages);
}

export function wasmBytes(cells: Int32Array): number {
  return Atomics.load(cells, MemoryCell.Pages) * PAGE;
}

export function refusedGrowths(cells: Int32Array): number {
  return Atomics.load(cells, MemoryCell.Refused);
}
