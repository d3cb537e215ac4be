/**
 * What the engine host's defaults (src/node/EngineHost.ts: DEFAULT_DEADLINE_MS, DEFAULT_MAX_MEMORY_MB)
 * are measured against: runs every benchmark case (bench/run.ts's list, or those whose name holds
 * the filter) plus each file of test-data through its usual tools, and reports the longest single
 * engine call, the kernel's peak WebAssembly heap and the peak V8 heap seen after a call.
 * Run: npx tsx scripts/hostLimits.ts [<bench-name-filter>]
 */
import { readdirSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { crossSectionCases } from '../bench/crossSection';
import { deviationCases } from '../bench/deviation';
import { foundationCases } from '../bench/foundation';
import { graphCases } from '../bench/graph';
import type { BenchCase } from '../bench/harness';
import { meshQueryCases } from '../bench/meshQueries';
import { renderCases } from '../bench/render';
import { scanImportCases } from '../bench/scanImport';
import { sceneToolCases } from '../bench/sceneTools';
import { Engine } from '../src/engine/Engine';
import { createNodeEngine } from '../src/node/nodeEngine';
import { capWasmMemory, memoryCells, wasmBytes } from '../src/node/wasmMemory';
import { dataPath } from '../src/test/data';

const cells = memoryCells(0);
capWasmMemory(() => cells);

interface CallRecord {
  tool: string;
  ms: number;
  case: string;
}
const calls: CallRecord[] = [];
let currentCase = '';
let peakHeap = 0;

// Every engine call of every case, timed: the deadline is per call.
const proto = Engine.prototype as unknown as { execute(name: string, args: unknown, options: unknown): Promise<unknown> };
const execute = proto.execute;
proto.execute = async function timedExecute(this: Engine, name: string, args: unknown, options: unknown) {
  const t0 = performance.now();
  try {
    return await execute.call(this, name, args, options);
  } finally {
    calls.push({ tool: name, ms: performance.now() - t0, case: currentCase });
    peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size);
  }
};

/** Each test-data file through import_file and the tools a user runs next on it. */
const testDataCase: BenchCase = {
  name: 'test-data files: import, metrics, validate, display mesh, graph_ml',
  async run() {
    const engine = createNodeEngine();
    for (const folder of ['occt', 'cax-if']) {
      for (const file of readdirSync(dataPath(folder))) {
        const bodyId = file.replace(/\W/g, '_');
        await engine.run('import_file', { path: dataPath(`${folder}/${file}`), bodyId });
        await engine.run('compute_metrics', { bodyId, metrics: ['volume', 'surfaceArea', 'centerOfMass', 'boundingBox', 'boundingBoxOptimal', 'principalAxes'] });
        await engine.run('validate_geometry', { bodyId });
        await engine.run('display_mesh', { bodyId });
        if (!file.endsWith('.stl')) await engine.run('graph_ml', { bodyId });
      }
    }
    engine.dispose();
    return {};
  },
};

const CASES: BenchCase[] = [testDataCase, ...foundationCases, ...meshQueryCases, ...sceneToolCases, ...crossSectionCases, ...deviationCases, ...graphCases, ...renderCases, ...scanImportCases];
const filter = process.argv[2];
const started = performance.now();
for (const c of CASES) {
  if (filter && !c.name.includes(filter)) continue;
  currentCase = c.name;
  process.stderr.write(`host limits: ${c.name}...\n`);
  const t0 = performance.now();
  await c.run();
  process.stderr.write(`  ${((performance.now() - t0) / 1000).toFixed(1)} s, kernel heap so far ${(wasmBytes(cells) / 2 ** 20).toFixed(0)} MiB\n`);
}
const longest = [...calls].sort((a, b) => b.ms - a.ms).slice(0, 8);
const report = {
  node: process.version,
  date: new Date().toISOString(),
  calls: calls.length,
  totalSeconds: Math.round((performance.now() - started) / 1000),
  longestCalls: longest.map((c) => ({ tool: c.tool, seconds: Math.round(c.ms) / 1000, case: c.case })),
  peakKernelHeapMiB: Math.round(wasmBytes(cells) / 2 ** 20),
  peakV8HeapAfterACallMiB: Math.round(peakHeap / 2 ** 20),
  peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
};
process.stdout.write(JSON.stringify(report, null, 2) + '\n');
process.exit(0);
