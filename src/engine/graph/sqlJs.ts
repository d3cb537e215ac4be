import type { SqlJsStatic } from 'sql.js';

export type { SqlJsStatic };
type SqlJsLoader = () => Promise<SqlJsStatic>;

interface SqlSlot {
  loader: SqlJsLoader | undefined;
  promise: Promise<SqlJsStatic> | undefined;
}

// One sql.js module per process or worker, like the kernel (see kernel/kernel.ts): the host says how
// to find the wasm (a file in Node, a bundled URL in the browser), loading stays lazy.
const SLOT_KEY = Symbol.for('brepscope.sqljs');

function slot(): SqlSlot {
  const g = globalThis as unknown as Record<symbol, SqlSlot | undefined>;
  let s = g[SLOT_KEY];
  if (!s) {
    s = { loader: undefined, promise: undefined };
    g[SLOT_KEY] = s;
  }
  return s;
}

export function setSqlJsLoader(loader: SqlJsLoader): void {
  const s = slot();
  if (!s.loader) s.loader = loader;
}

/** The sql.js module of this process or worker, loaded on first use. */
export function getSqlJs(): Promise<SqlJsStatic> {
  const s = slot();
  if (s.promise) return s.promise;
  if (!s.loader) throw new Error('sql.js: no loader set; the host must call setSqlJsLoader first');
  s.promise = s.loader().catch((e: unknown) => {
    s.promise = undefined;
    throw e;
  });
  return s.promise;
}
