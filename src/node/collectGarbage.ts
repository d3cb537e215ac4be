import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/**
 * A full garbage collection of this thread now. For the few places where a large, short-lived
 * buffer has just become garbage and the thread allocates little after it, so V8 would otherwise
 * keep it through the rest of the command (the CLI's early STL read, a mesh thread's BVH build).
 */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
