import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { grid, seededRandom } from '../src/engine/mesh/generators';
import { writeBinaryStl } from '../src/engine/scene/import/stl';
import { writePly, writePointText } from '../src/test/meshWriters';
import { round, type BenchCase } from './harness';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

interface ChildFigures {
  times: number[];
  fileMb: number;
  rssBeforeMb: number;
  peakMb: number;
  extraMb: number;
}

/** Parses a file in a fresh process (bench/scanParseChild.ts), so peak memory is that parse's own. */
function parseInChild(format: string, file: string, mode: 'mesh' | 'scan'): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/scanParseChild.ts', format, file, mode], { cwd: ROOT, timeout: 600_000, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`scan parse child failed: ${error.message}\n${stderr}`));
      const f = JSON.parse(stdout) as ChildFigures;
      const sorted = [...f.times].sort((a, b) => a - b);
      resolve({
        fileMb: f.fileMb,
        parseMedianMs: round(sorted[1]!, 1),
        parseFirstMs: round(f.times[0]!, 1),
        peakExtraMb: f.extraMb,
        peakExtraPerFileByte: round(f.extraMb / f.fileMb, 2),
      });
    });
  });
}

/** A 2-million-triangle scan-like mesh: a 1000 x 1000 grid with seeded height noise, float32 coordinates. */
function bigScan(): ReturnType<typeof grid> {
  const mesh = grid(1000, 100);
  const random = seededRandom(5);
  const p = mesh.positions;
  for (let i = 0; i < p.length; i++) p[i] = Math.fround(i % 3 === 2 ? p[i]! + random() * 0.1 : p[i]!);
  return mesh;
}

/** `npm run bench -- scan`: parse time and peak memory of big scans; PLY and STL of the same triangles side by side. */
export const scanImportCases: BenchCase[] = [
  {
    name: 'scan import: 2M-triangle binary PLY vs the same triangles as binary STL; 5M-point PLY cloud; 1M-point XYZ text',
    async run() {
      const dir = mkdtempSync(join(tmpdir(), 'brepscope-bench-scan-'));
      try {
        const mesh = bigScan();
        const stl = join(dir, 'scan.stl'), ply = join(dir, 'scan.ply');
        writeFileSync(stl, writeBinaryStl(mesh));
        writeFileSync(ply, writePly(mesh, { encoding: 'binary_little_endian' }));
        const triangles = mesh.indices.length / 3;
        const random = seededRandom(9);
        const cloud = Float64Array.from({ length: 15_000_000 }, () => Math.fround(random() * 100));
        const cloudPly = join(dir, 'cloud.ply');
        writeFileSync(cloudPly, writePly({ positions: cloud, indices: new Uint32Array(0) }, { encoding: 'binary_little_endian', faces: false }));
        const xyz = join(dir, 'cloud.xyz');
        writeFileSync(xyz, writePointText(cloud.subarray(0, 3_000_000)));
        // Same process order for every run; each parse in its own fresh process.
        const stlFigures = await parseInChild('stl', stl, 'mesh');
        const plyFigures = await parseInChild('ply', ply, 'mesh');
        return {
          triangles,
          binaryStl: stlFigures,
          binaryPly: plyFigures,
          plyOverStlTime: round(plyFigures.parseMedianMs! / stlFigures.parseMedianMs!, 2),
          cloudPly5M: await parseInChild('ply', cloudPly, 'scan'),
          cloudXyz1M: await parseInChild('xyz', xyz, 'scan'),
        };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
