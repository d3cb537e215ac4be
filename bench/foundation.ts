import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BufferAttribute, BufferGeometry } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import type { TriMesh } from '../src/engine/mesh/TriMesh';
import { tessellateShape } from '../src/engine/mesh/tessellate';
import { buildBvh } from '../src/engine/mesh/TriangleBvh';
import { readBrepShape } from '../src/engine/scene/import/brep';
import { parseStl, writeBinaryStl } from '../src/engine/scene/import/stl';
import { createNodeEngine, nodeKernel } from '../src/node/nodeEngine';
import { maxRssMb, median, peakRssMb, round, time, type BenchCase, type Figures } from './harness';
import { dataPath } from '../src/test/data';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BOTTLE = dataPath('occt/bottle.brep');

// Peak: VmHWM, this program's own (getrusage's maxrss survives exec: see peakRssBytes in harness.ts).
/**
 * Runs in a fresh `node` so that every sample is a cold start: the stock loader (import of
 * opencascade.js/dist/node.js, then init()) or ours (src/node/nodeKernel.ts: the lazy embind glue),
 * each timed from the start of the script to the kernel's first answer.
 */
const KERNEL_START_SCRIPT = (loader: 'stock' | 'lazy') => `
const { readFileSync } = await import('node:fs');
const peakKb = () => { const m = /^VmHWM:\\s+(\\d+) kB/m.exec(readFileSync('/proc/self/status', 'latin1')); return m ? Number(m[1]) : process.resourceUsage().maxRSS; };
const t0 = performance.now();
${
  loader === 'stock'
    ? "const { default: init } = await import('opencascade.js/dist/node.js');"
    : `const { loadNodeKernel: init } = await import(${JSON.stringify(fileURLToPath(new URL('../src/node/nodeKernel.ts', import.meta.url)))});`
}
const t1 = performance.now();
const oc = await init();
const t2 = performance.now();
const box = new oc.BRepPrimAPI_MakeBox_2(1, 2, 3);
box.delete();
process.stdout.write(JSON.stringify({ importMs: t1 - t0, initMs: t2 - t1, rssMb: process.memoryUsage().rss / 2 ** 20, maxRssMb: peakKb() / 1024 }));
process.exit(0);
`;

interface KernelStart {
  importMs: number;
  initMs: number;
  rssMb: number;
  maxRssMb: number;
}

/** Ours runs through tsx (its import time includes compiling the TypeScript loader; initMs does not). */
function coldKernelStart(loader: 'stock' | 'lazy'): Promise<KernelStart & { wallMs: number }> {
  const t0 = performance.now();
  const flags = loader === 'lazy' ? ['--import', 'tsx'] : [];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...flags, '--input-type=module', '-e', KERNEL_START_SCRIPT(loader)], { cwd: ROOT, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`kernel start child failed: ${error.message}\n${stderr}`));
      else resolve({ ...(JSON.parse(stdout) as KernelStart), wallMs: performance.now() - t0 });
    });
  });
}

/** Medians of process samples, to 0.1 ms. */
const median1 = (xs: number[]): number => median(xs, 1);

/**
 * A height field z = sin(x) cos(y) on a (cols x rows) cell grid, two triangles per cell: a scan-like
 * open mesh of exactly 2 * cols * rows triangles.
 */
function heightField(cols: number, rows: number): TriMesh {
  const positions = new Float64Array((cols + 1) * (rows + 1) * 3);
  for (let j = 0, o = 0; j <= rows; j++) {
    for (let i = 0; i <= cols; i++, o += 3) {
      const x = (i / cols) * 100, y = (j / rows) * 50;
      positions[o] = x;
      positions[o + 1] = y;
      positions[o + 2] = 2 * Math.sin(x * 0.3) * Math.cos(y * 0.3);
    }
  }
  const indices = new Uint32Array(cols * rows * 6);
  for (let j = 0, o = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++, o += 6) {
      const a = j * (cols + 1) + i, b = a + 1, c = a + cols + 1, d = c + 1;
      indices.set([a, b, d, a, d, c], o);
    }
  }
  return { positions, indices };
}

/** Kernel start, BREP import + tessellation, STL parse + BVH build. */
export const foundationCases: BenchCase[] = [
  {
    name: 'kernel-start-node',
    async run() {
      const lazy: (KernelStart & { wallMs: number })[] = [];
      const stock: (KernelStart & { wallMs: number })[] = [];
      for (let i = 0; i < 3; i++) {
        lazy.push(await coldKernelStart('lazy'));
        stock.push(await coldKernelStart('stock'));
      }
      const figures = (samples: (KernelStart & { wallMs: number })[]) => ({
        importMs: median1(samples.map((s) => s.importMs)),
        initMs: median1(samples.map((s) => s.initMs)),
        totalMs: median1(samples.map((s) => s.importMs + s.initMs)),
        processWallMs: median1(samples.map((s) => s.wallMs)),
        rssMb: median1(samples.map((s) => s.rssMb)),
        peakRssMb: median1(samples.map((s) => s.maxRssMb)),
      });
      const ours = figures(lazy);
      const before = figures(stock);
      return {
        what: "cold start in fresh node processes, alternating: our loader (src/node/nodeKernel.ts, lazy embind glue) and the stock one (opencascade.js/dist/node.js); each from its import to the kernel's first object",
        runs: lazy.length,
        ...ours,
        stock: before,
        initRatio: round(ours.initMs / before.initMs, 2),
      };
    },
  },
  {
    // Before any case loads the kernel in this process, so that peak RSS is the mesh work's own.
    name: 'stl-1m-parse-bvh',
    async run() {
      const rssBeforeMb = peakRssMb();
      const source = heightField(1000, 500);
      const stl = writeBinaryStl(source);
      const parsed = await time(() => parseStl(stl, 'heightfield.stl'), { warmup: 1, runs: 5 });
      const mesh = parsed.last;
      const triangles = mesh.indices.length / 3;
      if (triangles !== 1_000_000) throw new Error(`bench: expected 1,000,000 triangles, parsed ${triangles}`);

      // three-mesh-bvh reorders the index in place: each run gets a fresh geometry (made outside the timing).
      const position = new Float32Array(mesh.positions);
      const geometries: BufferGeometry[] = [];
      const makeGeometry = (): BufferGeometry => {
        const g = new BufferGeometry();
        g.setAttribute('position', new BufferAttribute(position, 3));
        g.setIndex(new BufferAttribute(new Uint32Array(mesh.indices), 1));
        return g;
      };
      const bvhSamples: number[] = [];
      for (let i = 0; i < 4; i++) geometries.push(makeGeometry());
      for (const [i, g] of geometries.entries()) {
        const t0 = performance.now();
        new MeshBVH(g);
        if (i > 0) bvhSamples.push(performance.now() - t0); // the first is warm-up
      }
      geometries.length = 0;

      const result: Figures = {
        triangles,
        vertices: mesh.positions.length / 3,
        stlBytes: stl.byteLength,
        parseStlMs: parsed.medianMs,
        parseStlMinMs: parsed.minMs,
        threeMeshBvhBuildMs: median1(bvhSamples),
        threeMeshBvhRuns: bvhSamples.length,
      };
      const own = await time(() => buildBvh(mesh), { warmup: 1, runs: 3 });
      result.engineBuildBvhMs = own.medianMs;
      result.engineBuildBvhRuns = own.runs;
      result.rssBeforeMb = rssBeforeMb;
      result.rssAfterMb = peakRssMb();
      result.peakRssMb = maxRssMb();
      return result;
    },
  },
  {
    name: 'bottle-import-tessellate',
    async run() {
      const kernelT0 = performance.now();
      const oc = await nodeKernel();
      const kernelMs = round(performance.now() - kernelT0, 1);
      let engine = createNodeEngine();
      const importRun = await time(
        async () => {
          engine = createNodeEngine();
          return engine.run('import_file', { path: BOTTLE, bodyId: 'bottle' });
        },
        { warmup: 1, runs: 5 },
      );
      const { boundingBox } = (await engine.run('compute_metrics', { bodyId: 'bottle', metrics: ['boundingBox'] })).result;
      if (!boundingBox) throw new Error('bench: compute_metrics gave no bounding box for bottle.brep');
      const diagonal = Math.hypot(...boundingBox.max.map((v, i) => v - boundingBox.min[i]!));
      const deflection = 0.005 * diagonal;
      // The same shape the body holds, read from the same file: BRepMesh alone, without the body's cache.
      const shape = readBrepShape(oc, readFileSync(BOTTLE), BOTTLE);
      const tess = await time(() => tessellateShape(oc, shape, deflection), { warmup: 1, runs: 5 });
      shape.delete();
      return {
        file: 'occt/bottle.brep',
        kernelLoadMs: kernelMs,
        importMs: importRun.medianMs,
        deflection: round(deflection, 4),
        boxDiagonal: round(diagonal, 3),
        triangles: tess.last.indices.length / 3,
        tessellateMs: tess.medianMs,
        importPlusTessellateMs: round(importRun.medianMs + tess.medianMs),
        runs: tess.runs,
        peakRssMb: maxRssMb(),
      };
    },
  },
];
