import type { OC } from './kernel';
import { KernelAbortedError, KernelError } from './KernelError';

export interface Deletable {
  delete(): void;
}

/** Registers a kernel object to be freed when the enclosing scope ends; returns it unchanged. */
export type Own = <T extends Deletable>(obj: T) => T;

/**
 * Runs `fn` with an `own` function; every object passed to `own` is deleted in `finally`, newest
 * first, because the WASM heap does not collect garbage. OCCT exceptions (thrown as numbers) become
 * KernelError with OCCT's message.
 */
export function withKernel<T>(oc: OC, fn: (own: Own) => T): T {
  const owned: Deletable[] = [];
  const own: Own = (obj) => {
    owned.push(obj);
    return obj;
  };
  try {
    return fn(own);
  } catch (e) {
    throw toKernelError(oc, e);
  } finally {
    for (let i = owned.length - 1; i >= 0; i--) {
      try {
        owned[i]!.delete();
      } catch {
        // An object that was already freed by its owner; nothing more to release.
      }
    }
  }
}

/** Turns what OCCT throws (a pointer number) into a KernelError; other errors pass through. */
export function toKernelError(oc: OC, e: unknown): unknown {
  if (typeof e === 'number') {
    let message = `OCCT exception (pointer ${e})`;
    try {
      const failure = oc.OCJS.getStandard_FailureData(e);
      const text = failure.GetMessageString();
      const typeName = failure.DynamicType().get().Name();
      message = text ? `${typeName}: ${text}` : typeName;
    } catch {
      // The failure record could not be read; the pointer is all we have.
    }
    return new KernelError(message);
  }
  if (e instanceof WebAssembly.RuntimeError) return new KernelAbortedError(`kernel aborted: ${e.message}`);
  return e;
}
