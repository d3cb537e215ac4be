/**
 * What a host's main thread needs of the engine without loading it: a host that runs the engine in a
 * worker thread (src/node/EngineHost.ts) prints results, reports errors and shows option defaults
 * from here, at the cost of a few small modules instead of the whole engine (about a second under
 * tsx). Nothing here imports a heavy module at run time. src/engine/index.ts re-exports all of it;
 * hosts import from here only what their main thread needs, and types from the index.
 */
export { BrepscopeError, isKernelAbort, settle, toErrorPayload } from './errors';
export type { ErrorCode, ErrorPayload, Outcome } from './errors';
export { duplicateJsonKey, resultJson } from './json';
// The engine host's deadline timers (src/node/EngineHost.ts).
export { timerDelay } from './timerDelay';
export { jsonChunks } from './graph/jsonChunks';
// The CLI reads an STL on its own thread while the engine thread starts (src/cli/earlyStl.ts).
export { parseStl, readStlPieces } from './scene/import/stl';
export { MAX_IMPORT_BYTES, MAX_MESH_FILE_BYTES, importLimit, tooLargeMessage } from './scene/import/importLimits';
export { formatFromExtension } from './scene/import/detectFormat';
// The engine thread's entry picks its mesh threads before the engine loads (src/node/meshThreadStart.ts).
export { meshThreadsFor } from './meshThreads/threadCount';
export { DEFAULT_EDGE_SAMPLES, DEFAULT_UV_SAMPLES, EDGE_CLASSES, SELECT_QUERIES, SELF_INTERSECTION_AUTO_FACE_LIMIT } from './graph/graphOptions';
// The CLI's --unit names the units a scan file may be given (src/cli/main.ts).
export { SCAN_UNIT_NAMES } from './scene/scanUnits';
export type { ScanUnit } from './scene/scanUnits';
