/**
 * Mesh threads for a machine of `cores` cores. The engine runs in a thread of its own (Node's
 * EngineHost, the browser's worker) that works too: on 2 cores a second mesh thread would only take
 * turns with it (measured on 2 quiet cores, bench deviation-process: two threads were slower than
 * none), one thread beside it uses both cores; from 4 cores, two.
 */
export function meshThreadsFor(cores: number): 1 | 2 {
  return cores >= 4 ? 2 : 1;
}
