#!/usr/bin/env node
// Runs the TypeScript CLI directly (tsx), so `brepscope` works right after `npm install`.
import { Worker } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

// stdout carries exactly one JSON value. The kernel prints parser and progress messages through
// console.log/info/debug (e.g. "Total number of loaded entities" for IGES): send those to stderr.
// Done before the kernel loads, because its glue binds console.log when it starts.
for (const level of ['log', 'info', 'debug']) console[level] = console.error.bind(console);

const argv = process.argv.slice(2);
// The engine runs in a worker thread (src/node/EngineHost.ts). Started here, before this thread loads
// TypeScript and the command line, it loads the engine meanwhile: the two overlap. Not for help, nor
// when a memory ceiling is set (the thread's heap limit is fixed when it starts: the host starts its own).
const helpOnly = argv.length === 0 || argv[0] === 'help' || argv.some((a) => ['-h', '--help', '-V', '--version'].includes(a));
const ownCeiling = argv.some((a) => a === '--max-memory' || a.startsWith('--max-memory=')) || !!process.env.BREPSCOPE_MAX_MEMORY;
const engineThread =
  helpOnly || ownCeiling ? undefined : new Worker(new URL('../src/node/engineThread.boot.js', import.meta.url), { name: 'brepscope-engine', stdout: true });

register();
const { main } = await import('../src/cli/main.ts');
const code = await main(argv, undefined, process.env, engineThread);
// The kernel's glue keeps listeners alive; leave explicitly once stdout has drained.
process.stdout.write('', () => process.exit(code));
