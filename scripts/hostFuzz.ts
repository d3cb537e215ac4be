/**
 * The fuzz corpus (src/test/fuzzCorpus.ts) through the engine host the CLI and the MCP server use
 * (src/node/EngineHost.ts: a worker thread with a deadline, replaced after a stop): each mutant is
 * imported, measured and removed, as in the in-process test, but a hang here ends in TIMEOUT and
 * the next mutant gets a new engine. Prints the tally as JSON.
 * Run: npx tsx scripts/hostFuzz.ts [<count, default 195>] [<deadline seconds, default 15>]
 */
import { toErrorPayload } from '../src/engine/hostFacts';
import { EngineHost } from '../src/node/EngineHost';
import { nodeKernel } from '../src/node/nodeEngine';
import { fuzzSources, INTERNAL_CODES } from '../src/test/fuzzCorpus';
import { mutant } from '../src/test/mutate';

const count = Number(process.argv[2] ?? 195);
const deadlineMs = 1000 * Number(process.argv[3] ?? 15);

// The sources need a kernel here (the IGES one is written by it); the host has its own, in its thread.
const sources = fuzzSources(await nodeKernel());
const restarts: string[] = [];
const host = EngineHost.start({ deadlineMs, onRestart: (e) => restarts.push(e.reason.code) });
const tally = { tried: 0, result: 0, coded: 0, timeout: 0, uncoded: 0 };
const codes: Record<string, number> = {};
const bad: string[] = [];
let slowest = { seed: 0, ms: 0 };
const started = performance.now();
for (let seed = 1; seed <= count; seed++) {
  const m = mutant(sources, seed);
  const t0 = performance.now();
  tally.tried++;
  try {
    await host.run('import_file', { bytes: Buffer.from(m.bytes).toString('base64'), fileName: m.fileName, bodyId: 'fuzz' });
    try {
      await host.run('compute_metrics', { bodyId: 'fuzz', metrics: ['boundingBox', 'surfaceArea'] });
    } finally {
      await host.run('remove_body', { bodyId: 'fuzz' });
    }
    tally.result++;
  } catch (e) {
    const { code, message } = toErrorPayload(e);
    codes[code] = (codes[code] ?? 0) + 1;
    if (code === 'TIMEOUT') tally.timeout++;
    else if (INTERNAL_CODES.has(code)) tally.uncoded++;
    else tally.coded++;
    if (code === 'TIMEOUT' || INTERNAL_CODES.has(code)) bad.push(`seed ${seed} (${m.source}, ${m.mutation}): ${code} ${message}`);
  }
  const ms = performance.now() - t0;
  if (ms > slowest.ms) slowest = { seed, ms: Math.round(ms) };
}
await host.dispose();
process.stdout.write(
  JSON.stringify({ ...tally, codes, restarts, slowest, totalSeconds: Math.round((performance.now() - started) / 1000), deadlineMs, bad }, null, 2) + '\n',
);
process.exit(bad.length ? 1 : 0);
