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

/**
 * In the same graph, known to be acyclic (findCycle), the longest chain of references: how many
 * nodes it passes through and the node it starts at. Iterative, as findCycle.
 */
export function deepestChain(starts: Uint32Array, targets: Uint32Array): { depth: number; node: number } {
  const n = starts.length - 1;
  const depth = new Uint32Array(n); // 0 unseen; else the longest chain from the node, itself included
  const stack = new Int32Array(n);
  const cursor = new Uint32Array(n);
  let best = { depth: 0, node: -1 };
  for (let root = 0; root < n; root++) {
    if (depth[root]) continue;
    let top = 0;
    stack[0] = root;
    cursor[root] = starts[root]!;
    while (top >= 0) {
      const v = stack[top]!;
      if (cursor[v]! < starts[v + 1]!) {
        const w = targets[cursor[v]!++]!;
        if (!depth[w] && w !== v) {
          cursor[w] = starts[w]!;
          stack[++top] = w;
        }
        continue;
      }
      let d = 1;
      for (let k = starts[v]!; k < starts[v + 1]!; k++) d = Math.max(d, depth[targets[k]!]! + 1);
      depth[v] = d;
      if (d > best.depth) best = { depth: d, node: v };
      top--;
    }
  }
  return best;
}

/**
 * The strongly connected components of the same graph that hold a cycle (two nodes or more, or one
 * node referring to itself), by Tarjan's algorithm written iteratively. `component[n]` is n's
 * component number (-1 for a node on no cycle); `count` the number of such components.
 */
export function cyclicComponents(starts: Uint32Array, targets: Uint32Array): { component: Int32Array; count: number } {
  const n = starts.length - 1;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const sccStack = new Int32Array(n);
  const callStack = new Int32Array(n);
  const cursor = new Uint32Array(n);
  const component = new Int32Array(n).fill(-1);
  let next = 0, sccTop = -1, count = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    let top = 0;
    callStack[0] = root;
    index[root] = low[root] = next++;
    sccStack[++sccTop] = root;
    onStack[root] = 1;
    cursor[root] = starts[root]!;
    while (top >= 0) {
      const v = callStack[top]!;
      if (cursor[v]! < starts[v + 1]!) {
        const w = targets[cursor[v]!++]!;
        if (index[w] === -1) {
          index[w] = low[w] = next++;
          sccStack[++sccTop] = w;
          onStack[w] = 1;
          cursor[w] = starts[w]!;
          callStack[++top] = w;
        } else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      top--;
      if (top >= 0) low[callStack[top]!] = Math.min(low[callStack[top]!]!, low[v]!);
      if (low[v] !== index[v]) continue;
      let size = 0, w: number;
      const first = sccTop;
      do {
        w = sccStack[sccTop--]!;
        onStack[w] = 0;
        size++;
      } while (w !== v);
      let selfLoop = false;
      if (size === 1) for (let e = starts[v]!; e < starts[v + 1]!; e++) if (targets[e] === v) selfLoop = true;
      if (size > 1 || selfLoop) {
        for (let i = first; i > first - size; i--) component[sccStack[i]!] = count;
        count++;
      }
    }
  }
  return { component, count };
}
