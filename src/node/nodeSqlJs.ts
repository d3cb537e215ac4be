import { createRequire } from 'node:module';
import { getSqlJs, setSqlJsLoader, type SqlJsStatic } from '../engine';

const require = createRequire(import.meta.url);

/** sql.js in Node: the wasm is read from the installed package, whatever the working directory (module and wasm loaded on first use). */
export function useNodeSqlJs(): void {
  setSqlJsLoader(async () => {
    const { default: initSqlJs } = await import('sql.js');
    const wasm = require.resolve('sql.js/dist/sql-wasm.wasm');
    return initSqlJs({ locateFile: () => wasm });
  });
}

/** The process's sql.js module (tests read graph databases with it). */
export function nodeSqlJs(): Promise<SqlJsStatic> {
  useNodeSqlJs();
  return getSqlJs();
}
