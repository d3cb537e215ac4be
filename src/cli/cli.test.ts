import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BodySummary } from '../engine/scene/describeBody';
import type { MetricsResult } from '../engine/tools/computeMetrics';
import { TOOLS } from '../engine/tools/registry';
import { createNodeEngine } from '../node/nodeEngine';
import { uvSphere } from '../engine/mesh/generators';
import { writeBinaryStl } from '../engine/scene/import/stl';
import { dataPath } from '../test/data';
import { brokenWedgeBrep } from '../test/invalidBrep';
import { box } from '../engine/mesh/generators';
import type { DeviationResult } from '../engine/tools/measureDeviation';
import { writePly } from '../test/meshWriters';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON value (the CLI contract); parsing throws if it is anything else. */
  json: () => unknown;
}

/** Runs the real binary, `node bin/brepscope.js ...`, from the repo root. */
function brepscope(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['bin/brepscope.js', ...args], { cwd: ROOT, timeout: 120_000, maxBuffer: 64 * 2 ** 20, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') {
        reject(new Error(`brepscope ${args.join(' ')} did not exit normally: ${error.message}\n${stderr}`));
        return;
      }
      resolve({ code: error ? (error.code as number) : 0, stdout, stderr, json: () => JSON.parse(stdout) as unknown });
    });
  });
}

const BOTTLE = dataPath('occt/bottle.brep');
let dir: string;
let brokenPath: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'brepscope-cli-'));
  brokenPath = join(dir, 'broken.brep');
  writeFileSync(brokenPath, brokenWedgeBrep());
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('brepscope CLI without the kernel (fast)', () => {
  it('measure_deviation of two STL files: the same JSON from the mesh worker threads (default) and from the main thread', async () => {
    const scan = join(dir, 'scan.stl'), part = join(dir, 'part.stl');
    writeFileSync(scan, writeBinaryStl(uvSphere(50, 160, 80)));
    writeFileSync(part, writeBinaryStl(uvSphere(50.1, 96, 48)));
    const args = ['tool', 'measure_deviation', '--body', `scan=${scan}`, '--body', `part=${part}`, '--args', JSON.stringify({ fromBodyId: 'part', toBodyId: 'scan' })];
    const [threads, serial] = await Promise.all([brepscope(args), brepscope(args, { BREPSCOPE_MESH_WORKERS: '0' })]);
    expect(threads.code).toBe(0);
    expect(serial.code).toBe(0);
    expect(threads.stdout).toBe(serial.stdout);
    const result = threads.json() as { fromToTo: { signedMin: number; signedMax: number } };
    // A quad's centre sags below the sphere by R (1 - cos d), d its half-diagonal angle. The candidate
    // lies between r = 50.1 - 0.0537 (d = 0.0463) and 50.1, the reference between r = 50 - 0.0193
    // (d = 0.0278) and 50: every sample is proud by 0.046 to 0.1194 (float32 rounding is 4e-6).
    expect(result.fromToTo.signedMin).toBeGreaterThanOrEqual(0.046);
    expect(result.fromToTo.signedMax).toBeLessThanOrEqual(0.1194);
  });

  it('tools: every registry tool with a description and an object inputSchema', async () => {
    const r = await brepscope(['tools']);
    expect(r.code).toBe(0);
    const tools = r.json() as { name: string; description: string; inputSchema: Record<string, unknown> }[];
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const t of tools) {
      expect(t.description.length).toBeGreaterThan(0);
      expect(t.inputSchema).toMatchObject({ type: 'object' });
    }
    const metrics = tools.find((t) => t.name === 'compute_metrics')!;
    expect(metrics.inputSchema).toMatchObject({ properties: { bodyId: { type: 'string' } }, required: ['bodyId'] });
  });

  const errorCases: { what: string; args: () => string[]; code: string; details?: unknown }[] = [
    { what: 'unknown tool', args: () => ['tool', 'no_such_tool'], code: 'UNKNOWN_TOOL' },
    { what: 'bad --args JSON', args: () => ['tool', 'compute_metrics', '--args', '{bodyId: b'], code: 'INVALID_ARGUMENT' },
    { what: '--args that fail the schema', args: () => ['tool', 'compute_metrics', '--args', '{"bodyId": 7}'], code: 'INVALID_ARGUMENT' },
    { what: 'a --body without =', args: () => ['tool', 'list_bodies', '--body', 'b'], code: 'INVALID_ARGUMENT' },
    { what: 'an unknown option', args: () => ['tool', 'list_bodies', '--frobnicate'], code: 'INVALID_ARGUMENT' },
    { what: 'missing file', args: () => ['tool', 'list_bodies', '--body', `b=${join(dir, 'missing.step')}`], code: 'FILE_NOT_FOUND' },
    { what: 'a body that was not loaded', args: () => ['tool', 'compute_metrics', '--args', '{"bodyId":"b"}'], code: 'BODY_NOT_FOUND' },
    { what: 'graph-select without its selector', args: () => ['graph-select', BOTTLE, '--query', 'face-neighbors'], code: 'INVALID_ARGUMENT', details: { missing: '--face' } },
    { what: 'graph-select with an unknown class', args: () => ['graph-select', BOTTLE, '--query', 'edges-class', '--class', 'sharp'], code: 'INVALID_ARGUMENT' },
    { what: 'graph-ml --uv-samples 0', args: () => ['graph-ml', BOTTLE, '--uv-samples', '0'], code: 'INVALID_ARGUMENT' },
    { what: 'graph-compact without its output path', args: () => ['graph-compact', BOTTLE], code: 'INVALID_ARGUMENT' },
    { what: 'graph-query on a file that is not SQLite', args: () => ['graph-query', BOTTLE], code: 'PARSE_FAILED' },
    { what: 'graph-validate on a missing file', args: () => ['graph-validate', join(dir, 'missing.brep')], code: 'FILE_NOT_FOUND' },
  ];

  it('--body takes scans by content and extension: a PLY point cloud named scan.bin and a PLY mesh as box.ply, measured without the kernel', async () => {
    // Points 0.25 above the top face of the [0, 10]^3 box, inside its edges; float32-exact values.
    const points: number[] = [];
    for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) points.push(i, j, 10.25);
    const scan = join(dir, 'scan.bin'), cad = join(dir, 'box.ply');
    writeFileSync(scan, writePly({ positions: Float64Array.from(points), indices: new Uint32Array(0) }, { encoding: 'binary_big_endian', faces: false }));
    writeFileSync(cad, writePly(box([0, 0, 0], [10, 10, 10], 4), { encoding: 'ascii' }));
    const r = await brepscope(['tool', 'measure_deviation', '--body', `scan=${scan}`, '--body', `cad=${cad}`, '--args', '{"fromBodyId":"scan","toBodyId":"cad"}']);
    expect(r.code, r.stderr).toBe(0);
    const d = r.json() as DeviationResult;
    expect(d.fromToTo.samples).toBe(81);
    expect(d.fromToTo.signedMean).toBeCloseTo(0.25, 12);
    expect(d.fromToTo.max).toBeCloseTo(0.25, 12);
    // The box against the cloud: the top and the sides' upper bands within the search distance D are
    // covered (a side point at height z is sqrt(1 + (10.25 - z)^2) from the nearest cloud row); the rest is no data.
    const D = d.maxDistance!;
    const band = 10.25 - Math.sqrt(D * D - 1) <= 0 ? 10 : 10 - (10.25 - Math.sqrt(D * D - 1));
    expect(d.toToFrom.noDataSamples! / d.toToFrom.samples).toBeCloseTo((500 - 4 * 10 * band) / 600, 1);
  });

  it.each(errorCases)('$what -> exit 2 with code $code', async ({ args, code, details }) => {
    const r = await brepscope(args());
    expect(r.code).toBe(2);
    expect(r.json()).toEqual({ error: details === undefined ? { code, message: expect.any(String) } : { code, message: expect.any(String), details } });
  });
});

describe('brepscope CLI with the kernel (one spawn each)', () => {
  it('graph-export then graph-query: exit 0, the counts of the in-process graph; graph-ml streams one JSON value equal to the engine\'s', async () => {
    const wedge = dataPath('occt/wedge_ok.brep');
    const sqlite = join(dir, 'wedge.sqlite');
    // The two kernel spawns run side by side (each loads the kernel, ~5 s).
    const [exported, ml] = await Promise.all([brepscope(['graph-export', wedge, sqlite]), brepscope(['graph-ml', wedge, '--uv-samples', '3', '--edge-samples', '2'])]);
    expect(exported.code).toBe(0);
    expect(exported.json()).toMatchObject({ output: sqlite, schemaVersion: 1, counts: { solids: 1, faces: 6, edges: 12, vertices: 8, coedges: 24 } });
    const query = await brepscope(['graph-query', sqlite]);
    expect(query.code).toBe(0);
    expect(query.json()).toMatchObject({ summary: { faces: 6, edges: 12, vertices: 8, boundaryEdges: 0 }, valence: { face: { max: 4, mean: 4, count: 6 } } });

    expect(ml.code).toBe(0);
    const local = (await createNodeEngine().run('graph_ml', { path: wedge, uvSamples: 3, edgeSamples: 2 })).result;
    expect(ml.json()).toEqual(JSON.parse(JSON.stringify(local)));
  });

  it('tool compute_metrics --body b=bottle.brep: exit 0, the in-process engine\'s figures; kernel chatter stays off stdout', async () => {
    // hammer.iges makes the IGES reader print "Total number of loaded entities": stdout must still be one JSON value.
    const r = await brepscope(['tool', 'compute_metrics', '--body', `b=${BOTTLE}`, '--body', `h=${dataPath('occt/hammer.iges')}`, '--args', '{"bodyId":"b"}']);
    expect(r.code).toBe(0);
    const cli = r.json() as MetricsResult;
    expect(r.stderr).toMatch(/loaded entities/);

    const engine = createNodeEngine();
    await engine.run('import_file', { path: BOTTLE, bodyId: 'b' });
    const local = (await engine.run('compute_metrics', { bodyId: 'b' })).result as MetricsResult;
    expect(local.volume).toBeGreaterThan(0);
    expect(Math.abs(cli.volume! - local.volume!)).toBeLessThanOrEqual(1e-12 * local.volume!);
    expect(Math.abs(cli.surfaceArea! - local.surfaceArea!)).toBeLessThanOrEqual(1e-12 * local.surfaceArea!);
    expect(cli.boundingBox).toEqual(local.boundingBox);
    expect(Object.keys(cli).sort()).toEqual(Object.keys(local).sort());
  });

  it('--invalid-body loads an invalid BREP (valid: false) beside a valid one', async () => {
    const r = await brepscope(['tool', 'list_bodies', '--body', `ok=${dataPath('occt/wedge_ok.brep')}`, '--invalid-body', `bad=${brokenPath}`]);
    expect(r.code).toBe(0);
    const { bodies } = r.json() as { bodies: BodySummary[] };
    expect(bodies.map((b) => [b.bodyId, b.kind, b.valid])).toEqual([
      ['ok', 'brep', true],
      ['bad', 'brep', false],
    ]);
    expect(bodies[1]).toMatchObject({ solids: 1, faces: 6 });
  });
});
