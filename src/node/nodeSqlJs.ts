import { createRequire } from 'node:module';
import initSqlJs from 'sql.js';
import { getSqlJs, setSqlJsLoader, type SqlJsStatic } from '../engine/graph/sqlJs';

const require = createRequire(import.meta.url);

/** sql.js in Node: the wasm is read from the installed package, whatever the working directory. */
export function nodeSqlJs(): Promise<SqlJsStatic> {
  setSqlJsLoader(() => {
    const wasm = require.resolve('sql.js/dist/sql-wasm.wasm');
    return initSqlJs({ locateFile: () => wasm });
  });
  return getSqlJs();
}
