import { BrepscopeError } from '../../errors';
import { KernelError, toKernelError, type OC } from '../../kernel';

/**
 * Runs a kernel step of an import and reports any failure in it as what it is: bad input. A user's
 * file that makes OCCT throw is FILE_UNREADABLE; one that makes the kernel abort, overflow its stack
 * or call through a broken function pointer is FILE_ABORTED_KERNEL, which also tells the host that
 * this kernel instance can no longer be trusted. Our own coded errors pass through unchanged.
 */
export function asBadInput<T>(oc: OC, name: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    throw importFailure(oc, name, e);
  }
}

export function importFailure(oc: OC, name: string, e: unknown): unknown {
  if (e instanceof BrepscopeError) return e;
  const error = toKernelError(oc, e);
  if (error instanceof KernelError) {
    if (error.code === 'KERNEL_ABORTED') return aborted(name, error.message.replace(/^kernel aborted:\s*/, ''));
    return new BrepscopeError('FILE_UNREADABLE', `${name}: the kernel could not read this file: ${error.message}`, { kernelMessage: error.message });
  }
  if (error instanceof RangeError && /call stack/i.test(error.message)) return aborted(name, `stack overflow (${error.message})`);
  if (error instanceof Error && raisedInKernelCode(error)) return aborted(name, `${error.name}: ${error.message}`);
  return error;
}

function aborted(name: string, what: string): BrepscopeError {
  return new BrepscopeError('FILE_ABORTED_KERNEL', `${name}: the kernel aborted while reading this file (${what}); the file is corrupt or beyond what the kernel can read`, {
    kernelMessage: what,
  });
}

/** An exception thrown from inside the kernel's WebAssembly (or its glue) rather than from our code. */
function raisedInKernelCode(e: Error): boolean {
  return /wasm-function|wasm:\/\/|getWasmTableEntry|invoke_/.test(`${e.message}\n${e.stack ?? ''}`);
}
