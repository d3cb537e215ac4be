// Bundles the CLI (and the MCP server, the engine thread and the mesh worker it starts) into dist-cli/, so that
// `node bin/brepscope.js` starts without compiling TypeScript at run time. bin/brepscope.js uses the
// bundle only while every source file it was built from is unchanged, else it runs the sources
// through tsx: a stale bundle is never run. Runs on `npm install` (prepare) and `npm run build:cli`.
import { build } from 'esbuild';
import { chmod, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
const out = 'dist-cli';
const temp = await mkdtemp(`${out}.tmp-`);
try {
  const builtMs = Date.now();
  const result = await build({
    entryPoints: { brepscope: 'src/cli/main.ts', engineThread: 'src/node/engineThread.ts', meshWorker: 'src/node/meshWorker.ts', selfCheckWorker: 'src/node/selfCheckWorker.ts' },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Dependencies stay in node_modules (the kernel's 55 MB glue and wasm above all).
    packages: 'external',
    outdir: temp,
    outExtension: { '.js': '.mjs' },
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs);
  await writeFile(`${temp}/manifest.json`, JSON.stringify({ builtMs, inputs }, null, 1));
  // Swapped in whole: a CLI starting meanwhile sees the old bundle, the new one or none.
  await rm(out, { recursive: true, force: true });
  await rename(temp, out);
  await chmod(out, 0o755); // mkdtemp made it private
  process.stdout.write(`${out}/: brepscope.mjs, engineThread.mjs, meshWorker.mjs, selfCheckWorker.mjs from ${inputs.length} source files\n`);
} catch (e) {
  await rm(temp, { recursive: true, force: true });
  // Not fatal for `npm install`: without a bundle the CLI runs from the sources, only slower to start.
  process.stderr.write(`buildCli: no bundle (${e instanceof Error ? e.message : String(e)}); the CLI will run from src/ through tsx\n`);
  process.exitCode = process.argv.includes('--strict') ? 1 : 0;
}
