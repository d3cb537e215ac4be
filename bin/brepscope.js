#!/usr/bin/env node
// Runs the CLI from dist-cli/ (built on npm install by scripts/buildCli.mjs) while that bundle is
// current, else from the TypeScript sources through tsx, so `brepscope` works right after
// `npm install` and always runs the code in src/.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';

// stdout carries exactly one JSON value. The kernel prints parser and progress messages through
// console.log/info/debug (e.g. "Total number of loaded entities" for IGES): send those to stderr.
// Done before the kernel loads, because its glue binds console.log when it starts.
for (const level of ['log', 'info', 'debug']) console[level] = console.error.bind(console);

/** The bundle, when it was built after the last change to every file it was built from. */
function currentBundle() {
  if (process.env.BREPSCOPE_FROM_SOURCE === '1') return undefined;
  const root = fileURLToPath(new URL('..', import.meta.url));
  try {
    const { builtMs, inputs } = JSON.parse(readFileSync(`${root}dist-cli/manifest.json`, 'utf8'));
    for (const input of inputs) if (statSync(`${root}${input}`).mtimeMs > builtMs) return undefined;
    return new URL('../dist-cli/brepscope.mjs', import.meta.url);
  } catch {
    return undefined;
  }
}

const argv = process.argv.slice(2);
const bundle = currentBundle();
// The engine runs in a worker thread (src/node/EngineHost.ts). Started here, before this thread loads
// the command line, it loads the engine meanwhile: the two overlap. Not for help, nor when a memory
// ceiling is set (the thread's heap limit is fixed when it starts: the host starts its own).
const helpOnly = argv.length === 0 || argv[0] === 'help' || argv.some((a) => ['-h', '--help', '-V', '--version'].includes(a));
const ownCeiling = argv.some((a) => a === '--max-memory' || a.startsWith('--max-memory=')) || !!process.env.BREPSCOPE_MAX_MEMORY;
const threadEntry = bundle ? new URL('../dist-cli/engineThread.mjs', import.meta.url) : new URL('../src/node/engineThread.boot.js', import.meta.url);
// A one-shot command on a machine of few cores: V8 compiles hot code on background threads, which
// then compete with the engine thread and its mesh thread for the cores; compiling on the thread
// that needs the code is faster overall (bench deviation-process on 2 cores: 0.99 s against 1.10 s).
// Set before the threads start (a thread reads it when it starts); the MCP server, which runs
// long, keeps background compiling.
if (argv[0] === 'tool' && availableParallelism() < 4) setFlagsFromString('--no-concurrent-recompilation');
// `tool` compares meshes more often than not: the engine thread starts its mesh threads first (src/node/engineThread.ts).
const workerData = { warmMeshThreads: argv[0] === 'tool' };
const engineThread = helpOnly || ownCeiling ? undefined : new Worker(threadEntry, { name: 'brepscope-engine', stdout: true, workerData });

let main;
if (bundle) ({ main } = await import(bundle.href));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
const code = await main(argv, undefined, process.env, engineThread, { exitsAfter: true });
// The kernel's glue keeps listeners alive; leave explicitly once stdout has drained.
process.stdout.write('', () => process.exit(code));
