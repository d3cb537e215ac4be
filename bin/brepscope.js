#!/usr/bin/env node
// Runs the CLI from dist-cli/ (built on npm install by scripts/buildCli.mjs) while that bundle is
// current, else from the TypeScript sources through tsx, so `brepscope` works right after
// `npm install` and always runs the code in src/.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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

const bundle = currentBundle();
let main;
if (bundle) ({ main } = await import(bundle.href));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
const code = await main(process.argv.slice(2));
// The kernel's glue keeps listeners alive; leave explicitly once stdout has drained.
process.stdout.write('', () => process.exit(code));
