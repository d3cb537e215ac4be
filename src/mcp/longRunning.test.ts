import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { dataPath, TEST_DATA_DIR } from '../test/data';
import { testRoot } from '../test/testEngine';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The binary, run from testRoot(): a relative path a run writes lands there, never in the checkout. */
const BIN = join(ROOT, 'bin', 'brepscope.js');

/** One `--log-calls` line: `call N tool code T ms; rss R MiB; kernel heap K MiB, in use U MiB; kept files F MiB`. */
interface CallLine {
  n: number;
  tool: string;
  code: string;
  rssMiB: number;
  kernelMiB: number;
  inUseMiB: number;
  keptMiB: number;
}

function parseCallLines(stderr: string): CallLine[] {
  return [...stderr.matchAll(/call (\d+) (\S+) (\S+) \d+ ms; rss ([\d.]+) MiB; kernel heap ([\d.]+) MiB, in use ([\d.]+) MiB; kept files ([\d.]+) MiB/g)].map((m) => ({
    n: Number(m[1]),
    tool: m[2]!,
    code: m[3]!,
    rssMiB: Number(m[4]),
    kernelMiB: Number(m[5]),
    inUseMiB: Number(m[6]),
    keptMiB: Number(m[7]),
  }));
}

/** The parts a cycle loads in turn: BREP, STEP and a BREP again, each against two STL meshes. */
const PARTS = [dataPath('occt/bottle.brep'), dataPath('occt/screw.step'), dataPath('occt/wedge_ok.brep')];

/** One cycle of ten mixed calls: imports, metrics, deviations (mesh to BREP, mesh to mesh), a topology query, removals. */
function cycle(k: number): [string, Record<string, unknown>][] {
  return [
    ['import_file', { path: PARTS[k % PARTS.length], bodyId: 'part' }],
    ['import_file', { path: dataPath('occt/sh1.stl'), bodyId: 'scan' }],
    ['compute_metrics', { bodyId: 'part', metrics: ['volume', 'surfaceArea', 'boundingBox'] }],
    ['measure_deviation', { fromBodyId: 'scan', toBodyId: 'part', maxSamples: 2000 }],
    ['import_file', { path: dataPath('occt/shape.stl'), bodyId: 'shape' }],
    ['measure_deviation', { fromBodyId: 'scan', toBodyId: 'shape', maxSamples: 2000 }],
    ['query_topology', { bodyId: 'part', entity: 'face', limit: 5 }],
    ['remove_body', { bodyId: 'scan' }],
    ['remove_body', { bodyId: 'shape' }],
    ['remove_body', { bodyId: 'part' }],
  ];
}

let client: Client | undefined;
afterAll(async () => client?.close());

describe('a long-running MCP server (issue 13, item 6)', () => {
  it('200 mixed calls: every call answers, the kernel heap stops growing after the warm-up, its use drifts only by the kernel reader\'s known leak, resident memory stays flat, kept files go with their bodies', async () => {
    let stderr = '';
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', TEST_DATA_DIR, '--log-calls'], cwd: testRoot(), stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: 'brepscope-long-run', version: '0.0.0' });
    await client.connect(transport);

    for (let k = 0; k < 20; k++) {
      for (const [name, args] of cycle(k)) {
        const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
        expect(result.isError, `${name} ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`).toBeFalsy();
      }
    }
    await expect.poll(() => parseCallLines(stderr).length).toBe(200);
    const lines = parseCallLines(stderr);
    expect(lines.map((l) => l.code)).toEqual(Array(200).fill('ok'));
    const at = (n: number): CallLine => lines.find((l) => l.n === n)!;
    // After the third cycle every part has been loaded once; the heap is what the work needs.
    const warm = at(30);
    const last = at(200);
    const cycleEnds = lines.filter((l) => l.n % 10 === 0);
    const perCycle = (last.inUseMiB - warm.inUseMiB) / 17;
    console.log(
      `long-running MCP server: rss ${at(1).rssMiB} MiB at call 1, ${warm.rssMiB} MiB at call 30, ${last.rssMiB} MiB at call 200 ` +
        `(max ${Math.max(...lines.slice(30).map((l) => l.rssMiB))}); kernel heap ${at(1).kernelMiB} / ${warm.kernelMiB} / ${last.kernelMiB} MiB, ` +
        `in use ${at(1).inUseMiB} / ${warm.inUseMiB} / ${last.inUseMiB} MiB (${perCycle.toFixed(2)} MiB a cycle); in use at each cycle's end ${cycleEnds.map((l) => l.inUseMiB).join(' ')}`,
    );
    // WebAssembly memory never shrinks: any growth after the warm-up would be kept for good.
    expect(last.kernelMiB).toBe(warm.kernelMiB);
    expect(Math.max(...lines.slice(30).map((l) => l.kernelMiB))).toBe(warm.kernelMiB);
    // The heap in use drifts by what this WebAssembly build of the kernel keeps of every BREP it
    // reads and checks (BRepTools::Read about the shape's size, 0.38 MiB for bottle.brep; native
    // OCCT keeps nothing: docs/hosts.md): 0.45 to 0.5 MiB a cycle measured here. The bound leaves
    // room for noise, not for a second leak of that size.
    expect(perCycle).toBeLessThan(0.75);
    // Resident memory: JavaScript garbage comes and goes between collections, and the mesh worker
    // threads (src/node/meshWorkers.ts) drop their copy of a removed body's mesh only when the engine
    // thread's collector finalizes it: 84 MiB of drift was seen over these 170 calls with the threads,
    // 53 MiB without (load ~20). The bound catches a leak of whole scenes (about 10 MiB a cycle here),
    // not the collector's timing; the kernel heap above is the exact measure.
    expect(last.rssMiB - warm.rssMiB).toBeLessThan(128);
    // Every cycle removes its bodies: the host keeps no file for them.
    for (const l of cycleEnds) expect(l.keptMiB).toBe(0);
  }, 600_000);
});
