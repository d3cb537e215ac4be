/** An OCCT NCollection_List copy as the bindings expose it. */
interface DrainableList<T> {
  Size(): number;
  First_1(): T;
  RemoveFirst(): void;
}

/**
 * Empties a list the caller owns (the bindings return lists by value) into a JS array; the bindings
 * have no usable iterator, so first-and-remove is the only way through.
 */
export function drainList<T>(list: DrainableList<T>): T[] {
  const out: T[] = [];
  while (list.Size() > 0) {
    out.push(list.First_1());
    list.RemoveFirst();
  }
  return out;
}
