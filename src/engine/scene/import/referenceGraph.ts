/**
 * Finds a cycle in a directed graph given as adjacency lists in CSR form (node n's targets are
 * `targets[starts[n] .. starts[n + 1])`), iteratively, so a million-entity file cannot overflow the
 * stack. Returns the nodes of one cycle in order, or undefined when the graph is acyclic.
 */
export function findCycle(starts: Uint32Array, targets: Uint32Array): number[] | undefined {
  const n = starts.length - 1;
  const state = new Uint8Array(n); // 0 unseen, 1 on the current path, 2 done
  const stack = new Int32Array(n);
  const cursor = new Uint32Array(n);
  for (let root = 0; root < n; root++) {
    if (state[root]) continue;
    let top = 0;
    stack[0] = root;
    state[root] = 1;
    cursor[root] = starts[root]!;
    while (top >= 0) {
      const v = stack[top]!;
      if (cursor[v]! < starts[v + 1]!) {
        const w = targets[cursor[v]!++]!;
        if (state[w] === 1) {
          const cycle: number[] = [];
          for (let i = top; i >= 0 && (cycle.length === 0 || cycle[0] !== w); i--) cycle.unshift(stack[i]!);
          return cycle;
        }
        if (state[w] === 0) {
          state[w] = 1;
          cursor[w] = starts[w]!;
          stack[++top] = w;
        }
      } else {
        state[v] = 2;
        top--;
      }
    }
  }
  return undefined;
}
