/**
 * The stack every tree search of the engine runs on: the BVH queries (mesh/bvhTraversal.ts) and the
 * point k-d tree (points/PointTree.ts). An entry is a node handle of two words (a BVH node uses the
 * first; a k-d range both) and its score, a lower bound of what the subtree can still hold.
 *
 * The rule every search shares: a deferred subtree is opened only while its score is below the
 * search's bound, checked when it is popped (the bound has usually tightened since the push).
 *
 * One stack per thread, shared by nested searches: a search works above the top it found and
 * leaves the stack as it found it, so a callback may start a search of its own.
 */
export class SearchStack {
  a = new Uint32Array(256);
  b = new Uint32Array(256);
  score = new Float64Array(256);
  top = 0;

  push(a: number, b: number, score: number): void {
    if (this.top === this.a.length) this.grow();
    const t = this.top++;
    this.a[t] = a;
    this.b[t] = b;
    this.score[t] = score;
  }

  /**
   * Pops entries down to `base` until one scores below `bound`: returns its index (read a, b
   * there before the next push), or -1 when none is left.
   */
  popBelow(base: number, bound: number): number {
    while (this.top > base) {
      const t = --this.top;
      if (this.score[t]! < bound) return t;
    }
    return -1;
  }

  private grow(): void {
    const n = 2 * this.a.length;
    const a = new Uint32Array(n), b = new Uint32Array(n), s = new Float64Array(n);
    a.set(this.a);
    b.set(this.b);
    s.set(this.score);
    this.a = a;
    this.b = b;
    this.score = s;
  }
}

export const searchStack = new SearchStack();
