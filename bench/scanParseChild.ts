import { readFileSync } from 'node:fs';
import { parseMeshFile, readScanFile } from '../src/engine/scene/import/scanFile';

/**
 * One parse in a fresh process, so the peak resident set belongs to this parse alone:
 * `tsx bench/scanParseChild.ts <format> <file> <mesh|scan>`. Prints JSON: times of 3 parses, the
 * resident set before the first and the process peak after it.
 */
const [format, file, mode] = process.argv.slice(2) as ['stl' | 'ply' | 'xyz', string, 'mesh' | 'scan'];
const bytes = new Uint8Array(readFileSync(file));
const parse = (): unknown => (mode === 'mesh' ? parseMeshFile(format, bytes, file) : readScanFile(format as 'ply', bytes, file));
const mb = (x: number): number => Math.round((x / 2 ** 20) * 10) / 10;
const rssBefore = process.memoryUsage().rss;
const times: number[] = [];
let t0 = performance.now();
let kept = parse();
times.push(performance.now() - t0);
const peakAfterFirst = process.resourceUsage().maxRSS * 1024;
for (let i = 0; i < 2; i++) {
  t0 = performance.now();
  kept = parse();
  times.push(performance.now() - t0);
}
if (!kept) throw new Error('nothing parsed');
process.stdout.write(JSON.stringify({ times, fileMb: mb(bytes.length), rssBeforeMb: mb(rssBefore), peakMb: mb(peakAfterFirst), extraMb: mb(peakAfterFirst - rssBefore) }));
process.exit(0);
