#!/usr/bin/env node
// Runs the TypeScript CLI directly (tsx), so `brepscope` works right after `npm install`.
import { register } from 'tsx/esm/api';

// stdout carries exactly one JSON value. The kernel prints parser and progress messages through
// console.log/info/debug (e.g. "Total number of loaded entities" for IGES): send those to stderr.
// Done before the kernel loads, because its glue binds console.log when it starts.
for (const level of ['log', 'info', 'debug']) console[level] = console.error.bind(console);

register();
const { main } = await import('../src/cli/main.ts');
const code = await main(process.argv.slice(2));
// The kernel's glue keeps listeners alive; leave explicitly once stdout has drained.
process.stdout.write('', () => process.exit(code));
