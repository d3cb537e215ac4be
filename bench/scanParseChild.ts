import { readFileSync } from 'node:fs';
import { parseMeshFile, readScanFile } from '../src/engine/scene/import/scanFile';
import { peakRssBytes } from './harness';

/**
 * One parse in a fresh process, so the peak resident set belongs to this parse alone:
 * `tsx bench/scanParseChild.ts <format> <file> <mesh|scan>`. Prints JSON: times of 3 parses, the
 * resident set before the first and the process peak after it.
 */
const [format, file, mode] = process.argv.slice(2) as ['stl' | 'ply' | 'xyz', string, 'mesh' | 'scan'];
// The Buffer itself (a Uint8Array): copying it would leave a file-sized transient in the process's
// peak resident set, counted below as if the parse had used it.
const bytes: Uint8Array = readFileSync(file);
const parse = (): unknown => (mode === 'mesh' ? parseMeshFile(format, bytes, file) : readScanFile(format as 'ply', bytes, file));
const mb = (x: number): number => Math.round((x / 2 ** 20) * 10) / 10;
// Garbage of the start (tsx's compile) collected first, so the peak after the parse is the parse's own.
(globalThis as { gc?: () => void }).gc?.();
const rssBefore = process.memoryUsage().rss;
const times: number[] = [];
let t0 = performance.now();
let kept = parse();
times.push(performance.now() - t0);
const peakAfterFirst = peakRssBytes();
for (let i = 0; i < 2; i++) {
  t0 = performance.now();
  kept = parse();
  times.push(performance.now() - t0);
}
if (!kept) throw new Error('nothing parsed');
process.stdout.write(JSON.stringify({ times, fileMb: mb(bytes.length), rssBeforeMb: mb(rssBefore), peakMb: mb(peakAfterFirst), extraMb: mb(peakAfterFirst - rssBefore) }));
process.exit(0);
