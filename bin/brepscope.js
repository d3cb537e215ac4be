#!/usr/bin/env node
// Runs the TypeScript CLI directly (tsx), so `brepscope` works right after `npm install`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
const code = await main(process.argv.slice(2));
// The kernel's glue keeps listeners alive; leave explicitly once stdout has drained.
process.stdout.write('', () => process.exit(code));
