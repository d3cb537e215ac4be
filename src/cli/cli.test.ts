import { execFile, spawnSync } from 'node:child_process';
import { strToU8, zipSync } from 'fflate';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BodySummary } from '../engine/scene/describeBody';
import type { MetricsResult } from '../engine/tools/computeMetrics';
import type { AlignResult } from '../engine/tools/alignBodies';
import type { DeviationResult } from '../engine/tools/measureDeviation';
import { TOOLS } from '../engine/tools/registry';
import { applyToPoints, compose, fromMatrix4, rotationDistance, type Rigid } from '../engine/math/rigid';
import { uvSphere } from '../engine/mesh/generators';
import { readBrepShape } from '../engine/scene/import/brep';
import { writeBinaryStl } from '../engine/scene/import/stl';
import { movedMesh, randomMotion } from '../test/alignFixture';
import { cloudOfPart, scanOfPart } from '../test/scanFixture';
import { nodeKernel } from '../node/nodeEngine';
import { testEngine, testRoot } from '../test/testEngine';
import { dataPath } from '../test/data';
import { fuzzSources, INTERNAL_CODES } from '../test/fuzzCorpus';
import { mutant } from '../test/mutate';
import { brokenWedgeBrep } from '../test/invalidBrep';
import { box } from '../engine/mesh/generators';
import { writePly, writePointText } from '../test/meshWriters';
import { brepBytes, makeDrilledBlock } from '../test/kernelShapes';
import { planarFaceIds } from '../test/flangeParts';
import { exactGeometryOf } from '../engine/deviation/structures';
import { addShapeBody } from '../engine/scene/addShapeBody';
import type { BrepBody } from '../engine/scene/Body';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The binary, run from testRoot(): a relative path a run writes lands there, never in the checkout. */
const BIN = join(ROOT, 'bin', 'brepscope.js');

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON value (the CLI contract); parsing throws if it is anything else. */
  json: () => unknown;
  /** Wall-clock time of the whole process. */
  ms: number;
}

/** Runs the real binary, `node bin/brepscope.js ...`, from the repo root. */
function brepscope(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, ...args], { cwd: testRoot(), timeout: 120_000, maxBuffer: 64 * 2 ** 20, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') {
        reject(new Error(`brepscope ${args.join(' ')} did not exit normally: ${error.message}\n${stderr}`));
        return;
      }
      resolve({ code: error ? (error.code as number) : 0, stdout, stderr, json: () => JSON.parse(stdout) as unknown, ms: performance.now() - t0 });
    });
  });
}

/** The error payload of a failed run (exit 2 or 1, one JSON value on stdout). */
function errorOf(r: CliRun): { code: string; message: string } {
  return (r.json() as { error: { code: string; message: string } }).error;
}

const BOTTLE = dataPath('occt/bottle.brep');
let dir: string;
let brokenPath: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'brepscope-cli-'));
  brokenPath = join(dir, 'broken.brep');
  writeFileSync(brokenPath, brokenWedgeBrep());
  writeFileSync(join(dir, 'truncated.stl'), writeBinaryStl(box([0, 0, 0], [1, 1, 1])).subarray(0, 150));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('brepscope CLI without the kernel (fast)', () => {
  it('measure_deviation of two STL files: the same JSON from the mesh worker threads (default) and from the main thread', async () => {
    const scan = join(dir, 'scan.stl'), part = join(dir, 'part.stl');
    writeFileSync(scan, writeBinaryStl(uvSphere(50, 160, 80)));
    writeFileSync(part, writeBinaryStl(uvSphere(50.1, 96, 48)));
    const args = ['tool', 'measure_deviation', '--body', `scan=${scan}`, '--body', `part=${part}`, '--args', JSON.stringify({ fromBodyId: 'part', toBodyId: 'scan' })];
    const [threads, serial] = await Promise.all([brepscope(args, { BREPSCOPE_MESH_WORKERS: '1' }), brepscope(args, { BREPSCOPE_MESH_WORKERS: '0' })]);
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

  it('the same STL path as two bodies (--body a=X.stl --body b=X.stl) loads two bodies and answers (it hung: issue 34)', async () => {
    const path = join(dir, 'same.stl');
    writeFileSync(path, writeBinaryStl(box([0, 0, 0], [1, 2, 3])));
    const r = await brepscope(['tool', 'measure_deviation', '--body', `a=${path}`, '--body', `b=${path}`, '--args', '{"fromBodyId":"a","toBodyId":"b"}', '--deadline', '60']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const result = r.json() as { fromToTo: { max: number; samples: number } };
    // A mesh against itself: every sample lies on the reference.
    expect(result.fromToTo.max).toBe(0);
    expect(result.fromToTo.samples).toBeGreaterThan(0);
    const b = await brepscope(['tool', 'compute_metrics', '--body', `a=${path}`, '--body', `b=${path}`, '--args', '{"bodyId":"b","metrics":["volume"]}', '--deadline', '60']);
    expect(b.code, b.stdout).toBe(0);
    expect((b.json() as { volume: number }).volume).toBeCloseTo(6, 9);
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
    { what: 'an --align without =', args: () => ['tool', 'list_bodies', '--align', 'scan'], code: 'INVALID_ARGUMENT' },
    { what: 'an unknown option', args: () => ['tool', 'list_bodies', '--frobnicate'], code: 'INVALID_ARGUMENT' },
    { what: 'a --unit for no --body', args: () => ['tool', 'list_bodies', '--unit', 'scan=inch'], code: 'INVALID_ARGUMENT' },
    { what: 'an unknown --unit', args: () => ['tool', 'list_bodies', '--body', `b=${BOTTLE}`, '--unit', 'b=furlong'], code: 'INVALID_ARGUMENT' },
    { what: 'a --unit for a BREP', args: () => ['tool', 'list_bodies', '--body', `b=${BOTTLE}`, '--unit', 'b=inch'], code: 'INVALID_ARGUMENT' },
    { what: 'missing file', args: () => ['tool', 'list_bodies', '--body', `b=${join(dir, 'missing.step')}`], code: 'FILE_NOT_FOUND' },
    // STL files are read and parsed before the engine is up (earlyStl.ts); failures still come from the engine.
    { what: 'missing STL file', args: () => ['tool', 'list_bodies', '--body', `b=${join(dir, 'missing.stl')}`], code: 'FILE_NOT_FOUND' },
    { what: 'a truncated STL', args: () => ['tool', 'list_bodies', `--body=b=${join(dir, 'truncated.stl')}`], code: 'PARSE_FAILED' },
    { what: 'a body that was not loaded', args: () => ['tool', 'compute_metrics', '--args', '{"bodyId":"b"}'], code: 'BODY_NOT_FOUND' },
    { what: 'graph-select without its selector', args: () => ['graph-select', BOTTLE, '--query', 'face-neighbors'], code: 'INVALID_ARGUMENT', details: { missing: '--face' } },
    { what: 'graph-select with an unknown class', args: () => ['graph-select', BOTTLE, '--query', 'edges-class', '--class', 'sharp'], code: 'INVALID_ARGUMENT' },
    { what: 'graph-ml --uv-samples 0', args: () => ['graph-ml', BOTTLE, '--uv-samples', '0'], code: 'INVALID_ARGUMENT' },
    { what: 'graph-compact without its output path', args: () => ['graph-compact', BOTTLE], code: 'INVALID_ARGUMENT' },
    { what: 'graph-query on a file that is not SQLite', args: () => ['graph-query', BOTTLE], code: 'PARSE_FAILED' },
    { what: 'graph-validate on a missing file', args: () => ['graph-validate', join(dir, 'missing.brep')], code: 'FILE_NOT_FOUND' },
    { what: 'a --max-memory below the kernel\'s start', args: () => ['tool', 'list_bodies', '--max-memory', '64'], code: 'INVALID_ARGUMENT' },
    { what: 'a --deadline that is not a number', args: () => ['graph-validate', BOTTLE, '--deadline', 'soon'], code: 'INVALID_ARGUMENT' },
  ];

  it('--unit scan=inch scales a scan file to millimetres', async () => {
    const path = join(dir, 'inch-box.stl');
    writeFileSync(path, writeBinaryStl(box([0, 0, 0], [1, 2, 4], 1)));
    const r = await brepscope(['tool', 'compute_metrics', '--body', `scan=${path}`, '--unit', 'scan=inch', '--args', '{"bodyId":"scan","metrics":["volume"]}']);
    expect(r.code, r.stderr).toBe(0);
    // The STL's float32 coordinates, scaled and kept float32: within float32 rounding of the scaled box.
    expect(Math.abs((r.json() as { volume: number }).volume / (8 * 25.4 ** 3) - 1)).toBeLessThan(3e-7);
  });

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
    const D = d.toToFrom.maxDistance;
    const band = 10.25 - Math.sqrt(D * D - 1) <= 0 ? 10 : 10 - (10.25 - Math.sqrt(D * D - 1));
    // `samples` counts the covered samples: the share of no data is of all of them.
    expect(d.toToFrom.noDataSamples / (d.toToFrom.samples + d.toToFrom.noDataSamples)).toBeCloseTo((500 - 4 * 10 * band) / 600, 1);
  });

  it.each(errorCases)('$what -> exit 2 with code $code', async ({ args, code, details }) => {
    const r = await brepscope(args());
    expect(r.code).toBe(2);
    expect(r.json()).toEqual({ error: details === undefined ? { code, message: expect.any(String) } : { code, message: expect.any(String), details } });
  });

  it('limits from the environment: a bad BREPSCOPE_DEADLINE is INVALID_ARGUMENT naming the variable', async () => {
    const r = await brepscope(['tool', 'list_bodies'], { BREPSCOPE_DEADLINE: 'soon' });
    expect(r.code).toBe(2);
    expect(errorOf(r)).toEqual({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('BREPSCOPE_DEADLINE=soon') });
  });

  it('a FIFO given as --body (with and without --deadline) is refused at once: exit 2, INVALID_ARGUMENT naming it; nothing waits for a writer', async () => {
    const fifo = join(dir, 'pipe.stl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    for (const limits of [[], ['--deadline', '10']]) {
      const r = await brepscope(['tool', 'list_bodies', '--body', `b=${fifo}`, ...limits]);
      expect(r.code, limits.join(' ')).toBe(2);
      expect(errorOf(r)).toEqual({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(`${fifo}: is a FIFO`) });
    }
  });

  it('a 3MF placing each object twice, 40 deep (2^40 triangles from under 1 KB), is FILE_TOO_LARGE against --max-memory before anything is allocated', async () => {
    const triangle = '<object id="1"><mesh><vertices><vertex x="0" y="0" z="0"/><vertex x="1" y="0" z="0"/><vertex x="0" y="1" z="0"/></vertices><triangles><triangle v1="0" v2="1" v3="2"/></triangles></mesh></object>';
    let resources = triangle;
    for (let k = 2; k <= 41; k++) resources += `<object id="${k}"><components><component objectid="${k - 1}"/><component objectid="${k - 1}" transform="1 0 0 0 1 0 0 0 1 1 0 0"/></components></object>`;
    const path = join(dir, 'fan.3mf');
    writeFileSync(path, zipSync({ '3D/3dmodel.model': strToU8(`<model><resources>${resources}</resources><build><item objectid="41"/></build></model>`) }));
    const r = await brepscope(['tool', 'list_bodies', '--body', `b=${path}`, '--max-memory', '512']);
    expect(r.code).toBe(2);
    expect(errorOf(r)).toEqual({ code: 'FILE_TOO_LARGE', message: expect.stringContaining(`${2 ** 40} triangles`) });
    expect(errorOf(r).message).toContain('over the 512 MiB memory ceiling');
  });

  it('graph-compact and graph-dedup refuse out == in (however spelt) and leave the input as it was', async () => {
    const input = join(dir, 'wedge.brep');
    copyFileSync(dataPath('occt/wedge_ok.brep'), input);
    const before = readFileSync(input);
    for (const command of ['graph-compact', 'graph-dedup']) {
      for (const out of [input, join(dir, '.', 'wedge.brep'), join(dir, 'sub', '..', 'wedge.brep')]) {
        const r = await brepscope([command, input, out, '--overwrite']);
        expect(r.code, `${command} ${out}`).toBe(2);
        expect(errorOf(r)).toEqual({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('is the input file') });
      }
    }
    expect(readFileSync(input).equals(before)).toBe(true);
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
    const local = (await testEngine().run('graph_ml', { path: wedge, uvSamples: 3, edgeSamples: 2 })).result;
    expect(ml.json()).toEqual(JSON.parse(JSON.stringify(local)));
  });

  it('tool compute_metrics --body b=bottle.brep: exit 0, the in-process engine\'s figures; kernel chatter stays off stdout', async () => {
    // hammer.iges makes the IGES reader print "Total number of loaded entities": stdout must still be one JSON value.
    const r = await brepscope(['tool', 'compute_metrics', '--body', `b=${BOTTLE}`, '--body', `h=${dataPath('occt/hammer.iges')}`, '--args', '{"bodyId":"b"}']);
    expect(r.code).toBe(0);
    const cli = r.json() as MetricsResult;
    expect(r.stderr).toMatch(/loaded entities/);

    const engine = testEngine();
    await engine.run('import_file', { path: BOTTLE, bodyId: 'b' });
    const local = (await engine.run('compute_metrics', { bodyId: 'b' })).result as MetricsResult;
    expect(local.volume).toBeGreaterThan(0);
    expect(Math.abs(cli.volume! - local.volume!)).toBeLessThanOrEqual(1e-12 * local.volume!);
    expect(Math.abs(cli.surfaceArea! - local.surfaceArea!)).toBeLessThanOrEqual(1e-12 * local.surfaceArea!);
    expect(cli.boundingBox).toEqual(local.boundingBox);
    expect(Object.keys(cli).sort()).toEqual(Object.keys(local).sort());
  });

  it('tool read_pmi --body p=NIST CTC 1: exit 0, the file\'s 3 datums (A|B|C), 6 tolerances and 12 dimensions (issue 30)', async () => {
    const r = await brepscope(['tool', 'read_pmi', '--body', `p=${dataPath('nist/nist_ctc_01_asme1_ap242-e1.stp')}`, '--args', '{"bodyId":"p"}']);
    expect(r.code).toBe(0);
    const pmi = r.json() as { datums: { label: string }[]; tolerances: { kind: string; value: number }[]; dimensions: unknown[] };
    expect(pmi.datums.map((d) => d.label)).toEqual(['A', 'B', 'C']);
    expect(pmi.tolerances.map((t) => [t.kind, t.value])).toEqual([
      ['position', 0.75],
      ['position', 0.75],
      ['surfaceProfile', 1.25],
      ['surfaceProfile', 0.5],
      ['perpendicularity', 1.5],
      ['flatness', 0.2],
    ]);
    expect(pmi.dimensions).toHaveLength(12);
  });

  it('an output that exists is refused (FILE_EXISTS) and kept; --overwrite replaces it', async () => {
    const out = join(dir, 'exists.sqlite');
    writeFileSync(out, 'not mine');
    const refused = await brepscope(['graph-export', dataPath('occt/wedge_ok.brep'), out]);
    expect(refused.code).toBe(2);
    expect(errorOf(refused)).toEqual({ code: 'FILE_EXISTS', message: expect.stringContaining('overwrite') });
    expect(readFileSync(out, 'utf8')).toBe('not mine');
    const replaced = await brepscope(['graph-export', dataPath('occt/wedge_ok.brep'), out, '--overwrite']);
    expect(replaced.code).toBe(0);
    expect(readFileSync(out).subarray(0, 15).toString()).toBe('SQLite format 3');
  });

  it('a kernel hang (BRepMesh at 1e-5) stops at --deadline (the engine\'s start not counted): exit 2, TIMEOUT naming the command\'s deadline', async () => {
    const r = await brepscope([
      'tool',
      'measure_deviation',
      '--body',
      `scan=${dataPath('occt/sh1.stl')}`,
      '--body',
      `bottle=${BOTTLE}`,
      '--args',
      '{"fromBodyId":"scan","toBodyId":"bottle","deflection":1e-5}',
      '--deadline',
      '20',
    ]);
    expect(r.code).toBe(2);
    expect(errorOf(r)).toEqual({ code: 'TIMEOUT', message: expect.stringMatching(/stopped at the command's 20 s deadline \(not counting the engine's start, [\d.]+ s\)/) });
    // The engine's start (its thread, then the kernel while bottle.brep loads) is not counted: the command ends that much later.
    const startupMs = 1000 * Number(/engine's start, ([\d.]+) s/.exec(errorOf(r).message)![1]);
    expect(r.ms).toBeGreaterThanOrEqual(20_000 + startupMs);
  });

  it('hostile files: 13 fuzz mutants (one per format) through the binary each end as in-process: exit 0 with a result, or exit 2 with the same coded bad-input error, in bounded time; then a good file works', async () => {
    const oc = await nodeKernel();
    const sources = fuzzSources(oc);
    const engine = testEngine();
    const cases = sources.map((_, i) => {
      // Seeds 14..26 take each source once (seed % sources), with mutations other than seeds 1..13's.
      const m = mutant(sources, sources.length + 1 + i);
      const path = join(dir, `fuzz${m.seed}-${m.fileName}`);
      writeFileSync(path, m.bytes);
      return { m, path };
    });
    const expected: string[] = [];
    for (const { path } of cases) {
      const local = await engine
        .load({ path, bodyId: 'm' })
        .then(() => engine.run('compute_metrics', { bodyId: 'm', metrics: ['boundingBox', 'surfaceArea'] }))
        .then(
          () => 'result',
          (e: { code: string }) => e.code,
        );
      if (engine.scene.has('m')) await engine.run('remove_body', { bodyId: 'm' });
      expected.push(local);
    }
    // Two processes at a time (each may load the kernel).
    const runs: CliRun[] = [];
    for (let i = 0; i < cases.length; i += 2) {
      runs.push(
        ...(await Promise.all(
          cases.slice(i, i + 2).map(({ path }) => brepscope(['tool', 'compute_metrics', '--body', `m=${path}`, '--args', '{"bodyId":"m","metrics":["boundingBox","surfaceArea"]}', '--deadline', '60'])),
        )),
      );
    }
    runs.forEach((r, i) => {
      const { m, path } = cases[i]!;
      const what = `seed ${m.seed} (${m.source}, ${m.mutation})`;
      if (expected[i] === 'result') {
        expect(r.code, what).toBe(0);
      } else {
        expect(r.code, `${what}: ${r.stdout}`).toBe(2);
        expect(errorOf(r).code, what).toBe(expected[i]);
        expect(errorOf(r).message, what).toContain(basename(path).replace(/\.[^.]+$/, ''));
      }
      expect(INTERNAL_CODES.has(expected[i]!), `${what}: ${expected[i]}`).toBe(false);
    });
    expect(expected.filter((c) => c !== 'result').length).toBeGreaterThan(cases.length / 2);

    // Then a good file: exit 0 and the in-process engine's figures.
    const wedge = dataPath('occt/wedge_ok.brep');
    const good = await brepscope(['tool', 'compute_metrics', '--body', `w=${wedge}`, '--args', '{"bodyId":"w","metrics":["volume","surfaceArea"]}']);
    expect(good.code, good.stdout).toBe(0);
    await engine.load({ path: wedge, bodyId: 'w' });
    const local = (await engine.run('compute_metrics', { bodyId: 'w', metrics: ['volume', 'surfaceArea'] })).result;
    expect(good.json()).toEqual(JSON.parse(JSON.stringify(local)));
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

  it('--align scan=part chains align_bodies before the tool: the deviation of a moved scan is that of the aligned scan; align_bodies itself returns the motion', async () => {
    const CRANK = dataPath('occt/CrankArm.brep');
    const oc = await nodeKernel();
    const crank = readBrepShape(oc, readFileSync(CRANK), 'CrankArm');
    const scanPath = join(dir, 'scan.stl');
    const truth = randomMotion(5, 150, 100);
    writeFileSync(scanPath, writeBinaryStl(movedMesh(scanOfPart(oc, crank, { deflection: 0.35, offset: 0, sigma: 0.05, seed: 1 }), truth)));
    crank.delete();
    const bodies = ['--body', `part=${CRANK}`, '--body', `scan=${scanPath}`];
    const args = ['--args', '{"fromBodyId":"scan","toBodyId":"part"}'];
    // (Without --align the deviation of this scan is that of a part 70 degrees off: far slower, not run.)
    const [aligned, direct] = await Promise.all([
      brepscope(['tool', 'measure_deviation', ...bodies, '--align', 'scan=part', ...args]),
      brepscope(['tool', 'align_bodies', ...bodies, '--args', '{"movingBodyId":"scan","fixedBodyId":"part"}']),
    ]);
    expect(aligned.code).toBe(0);
    const said = /align scan to part: rotation [\d.]+ deg, RMS [\d.]+ -> ([\d.]+), converged\n/.exec(aligned.stderr);
    expect(said).not.toBeNull();
    // Noise sigma 0.05 (the scan's facet edges and float32 coordinates add a little).
    expect(Number(said![1])).toBeLessThan(0.08);
    const d = aligned.json() as DeviationResult;
    expect(d.fromToTo.rms).toBeLessThan(0.08);
    expect(Math.abs(d.fromToTo.signedMean!)).toBeLessThan(0.05);
    expect(direct.code).toBe(0);
    const a = direct.json() as AlignResult;
    const found = compose(fromMatrix4(a.transform) as Rigid, truth);
    expect((rotationDistance(found.r, [1, 0, 0, 0, 1, 0, 0, 0, 1]) * 180) / Math.PI).toBeLessThan(0.05);
    expect(a.applied).toBe(false);
  }, 400_000);

  it('--align scan=block:3-2-1:face[a],face[b],face[c]: a datum alignment before the tool (issue 28), said on stderr; an unknown face is SELECTION_NOT_FOUND', async () => {
    const oc = await nodeKernel();
    // A block drilled off-centre (no symmetry for the best fit to hesitate over), scanned without
    // noise and moved by a known motion: the datum alignment on three of its planes undoes it.
    const blockPath = join(dir, 'block.brep');
    writeFileSync(blockPath, brepBytes(oc, makeDrilledBlock(oc, 3, 10, 8)));
    const engine = testEngine();
    const block = makeDrilledBlock(oc, 3, 10, 8);
    addShapeBody(oc, engine.scene, 'block', block);
    const ids = planarFaceIds(exactGeometryOf(oc, engine.scene.get('block') as BrepBody).geometry);
    const truth = randomMotion(7, 30, 5);
    const scanPath = join(dir, 'drilled.stl');
    writeFileSync(scanPath, writeBinaryStl(movedMesh(scanOfPart(oc, block, { deflection: 0.2, offset: 0, sigma: 0, seed: 1 }), truth)));
    const datums = [ids['-z@0'], ids['-x@0'], ids['-y@0']].join(',');
    const r = await brepscope(['tool', 'list_bodies', '--body', `block=${blockPath}`, '--body', `scan=${scanPath}`, '--align', `scan=block:3-2-1:${datums}`]);
    expect(r.code).toBe(0);
    const said = /align scan to block \(3-2-1\): rotation ([\d.]+) deg/.exec(r.stderr);
    expect(said).not.toBeNull();
    expect(Number(said![1])).toBeCloseTo((Math.acos((truth.r[0]! + truth.r[4]! + truth.r[8]! - 1) / 2) * 180) / Math.PI, 2);
    const bad = await brepscope(['tool', 'list_bodies', '--body', `block=${blockPath}`, '--body', `scan=${scanPath}`, '--align', 'scan=block:3-2-1:face[99]']);
    expect(bad.code).toBe(2);
    expect(bad.json()).toMatchObject({ error: { code: 'SELECTION_NOT_FOUND' } });
  }, 400_000);

  it('--align cloud=part with a point cloud (.xyz, and .ply without faces) as the moving body: the deviation of the aligned cloud; a cloud as the fixed body is refused with POINT_CLOUD_REFERENCE', async () => {
    const CRANK = dataPath('occt/CrankArm.brep');
    const oc = await nodeKernel();
    const crank = readBrepShape(oc, readFileSync(CRANK), 'CrankArm');
    const truth = randomMotion(7, 180, 150);
    const points = applyToPoints(truth, cloudOfPart(oc, crank, { deflection: 0.35, count: 20000, offset: 0, sigma: 0.05, seed: 2 }));
    crank.delete();
    const xyz = join(dir, 'cloud.xyz'), ply = join(dir, 'cloud.ply');
    writeFileSync(xyz, writePointText(points));
    writeFileSync(ply, writePly({ positions: points, indices: new Uint32Array(0) }, { encoding: 'binary_little_endian', faces: false }));
    const [aligned, direct, refused] = await Promise.all([
      brepscope(['tool', 'measure_deviation', '--body', `part=${CRANK}`, '--body', `cloud=${xyz}`, '--align', 'cloud=part', '--args', '{"fromBodyId":"cloud","toBodyId":"part"}']),
      brepscope(['tool', 'align_bodies', '--body', `part=${CRANK}`, '--body', `cloud=${ply}`, '--args', '{"movingBodyId":"cloud","fixedBodyId":"part"}']),
      brepscope(['tool', 'list_bodies', '--body', `part=${CRANK}`, '--body', `cloud=${xyz}`, '--align', 'part=cloud']),
    ]);
    expect(aligned.code).toBe(0);
    const said = /align cloud to part: rotation ([\d.]+) deg, RMS [\d.]+ -> ([\d.]+), converged\n/.exec(aligned.stderr);
    expect(said).not.toBeNull();
    expect(Math.abs(Number(said![1]) - (Math.acos((truth.r[0]! + truth.r[4]! + truth.r[8]! - 1) / 2) * 180) / Math.PI)).toBeLessThan(0.05);
    // Noise sigma 0.05 (float32 coordinates in the file add a little).
    expect(Number(said![2])).toBeLessThan(0.06);
    const d = aligned.json() as DeviationResult;
    expect(Math.abs(d.fromToTo.signedMean!)).toBeLessThan(0.05);
    expect(d.fromToTo.rms).toBeLessThan(0.06);
    expect(direct.code).toBe(0);
    const a = direct.json() as AlignResult;
    const found = compose(fromMatrix4(a.transform) as Rigid, truth);
    expect((rotationDistance(found.r, [1, 0, 0, 0, 1, 0, 0, 0, 1]) * 180) / Math.PI).toBeLessThan(0.05);
    expect(Math.hypot(...found.t)).toBeLessThan(0.175);
    const n = points.length / 3;
    expect(a.samples).toBe(Math.ceil(n / Math.ceil(n / 5000)));
    expect(refused.code).not.toBe(0);
    expect(errorOf(refused)).toMatchObject({ code: 'POINT_CLOUD_REFERENCE', message: expect.stringContaining('Swap the roles') });
  }, 400_000);
});
