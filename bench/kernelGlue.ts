import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lazyEmbind } from '../src/engine';
import { median, type BenchCase } from './harness';

const require = createRequire(import.meta.url);
const GLUE = require.resolve('opencascade.js/dist/opencascade.full.js');
const WASM = require.resolve('opencascade.js/dist/opencascade.full.wasm');

/**
 * One kernel start in a fresh node process from the glue file given: compile, instantiate, the
 * glue's start (embind), then the cost of calls once started (the first call of a binding builds its
 * invoker in the lazy glue; later calls go through one more function).
 */
const START_SCRIPT = `
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const [glue, wasm, dir] = process.argv.slice(1);
globalThis.__dirname = dir;
globalThis.require = createRequire(import.meta.url);
const { default: factory } = await import(glue);
const t0 = performance.now();
const module = await WebAssembly.compile(readFileSync(wasm));
const t1 = performance.now();
let t2 = 0;
const oc = await factory({ instantiateWasm(imports, receive) { WebAssembly.instantiate(module, imports).then((i) => { t2 = performance.now(); receive(i, module); }); return {}; } });
const t3 = performance.now();
const rssMb = process.memoryUsage().rss / 2 ** 20;
const p = new oc.gp_Pnt_3(1, 2, 3);
let sum = 0;
const t4 = performance.now();
for (let i = 0; i < 1e6; i++) sum += p.X();
const t5 = performance.now();
for (let i = 0; i < 1e5; i++) { const q = new oc.gp_Pnt_3(i, 0, 0); sum += q.Distance(p); q.delete(); }
const t6 = performance.now();
process.stdout.write(JSON.stringify({ compileMs: t1 - t0, instantiateMs: t2 - t1, startMs: t3 - t2, rssMb, methodCallNs: (t5 - t4) * 1e6 / 1e6, constructDistanceDeleteNs: (t6 - t5) * 1e6 / 1e5, sum }));
process.exit(0);
`;

interface Start {
  compileMs: number;
  instantiateMs: number;
  startMs: number;
  rssMb: number;
  methodCallNs: number;
  constructDistanceDeleteNs: number;
}

function startIn(glue: string): Promise<Start> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', START_SCRIPT, glue, WASM, join(GLUE, '..')], { timeout: 180_000, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`kernel glue child failed: ${error.message}\n${stderr.slice(-2000)}`));
      else resolve(JSON.parse(stdout) as Start);
    });
  });
}

const figures = (samples: Start[]) => ({
  compileMs: median(samples.map((s) => s.compileMs), 0),
  instantiateMs: median(samples.map((s) => s.instantiateMs), 0),
  startMs: median(samples.map((s) => s.startMs), 0),
  rssMb: median(samples.map((s) => s.rssMb), 0),
  methodCallNs: median(samples.map((s) => s.methodCallNs), 0),
  constructDistanceDeleteNs: median(samples.map((s) => s.constructDistanceDeleteNs), 0),
});

/** The stock glue against the lazy one (src/engine/kernel/lazyEmbind.ts), alternating fresh processes. */
export const kernelGlueCases: BenchCase[] = [
  {
    name: 'kernel-start-node: stock glue vs lazy embind',
    async run() {
      const dir = mkdtempSync(join(tmpdir(), 'brepscope-glue-'));
      const lazyGlue = join(dir, 'opencascade.lazy.js');
      writeFileSync(lazyGlue, lazyEmbind(readFileSync(GLUE, 'utf8')));
      const stock: Start[] = [];
      const lazy: Start[] = [];
      try {
        for (let i = 0; i < 3; i++) {
          stock.push(await startIn(GLUE));
          lazy.push(await startIn(lazyGlue));
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      const s = figures(stock);
      const l = figures(lazy);
      return {
        what: 'fresh node processes, alternating: compile the 55 MB wasm, instantiate, the glue start (embind), then 1M method calls and 100k construct + Distance + delete',
        runs: stock.length,
        stock: s,
        lazy: l,
        startRatio: Math.round((l.startMs / s.startMs) * 100) / 100,
      };
    },
  },
];
