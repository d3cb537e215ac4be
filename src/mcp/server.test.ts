import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withKernel } from '../engine/kernel';
import { createSurface } from '../engine/render/canvas';
import { takeKernelFile, uniqueKernelPath } from '../engine/scene/import/kernelFile';
import { TOOLS } from '../engine/tools/registry';
import { nodeKernel } from '../node/nodeEngine';
import { testEngine, testRoot } from '../test/testEngine';
import { dataPath, TEST_DATA_DIR } from '../test/data';
import { fuzzSources, INTERNAL_CODES } from '../test/fuzzCorpus';
import { makeBox } from '../test/kernelShapes';
import { mutant } from '../test/mutate';
import { MAX_IMAGES, imageContents } from './server';
import { box } from '../engine/mesh/generators';
import { writeBinaryStl } from '../engine/scene/import/stl';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The binary, run from testRoot(): a relative path a run writes lands there, never in the checkout. */
const BIN = join(ROOT, 'bin', 'brepscope.js');

let dir: string;
let boxPath: string;
let client: Client;
let stderrOf: () => string;
/** Anything on the server's stdout that is not a protocol message lands here (the transport reports it). */
const transportErrors: Error[] = [];

/** The kernel writes the box's BREP, so the expected figures are those of a shape OCCT made itself. */
async function writeBoxBrep(path: string): Promise<void> {
  const oc = await nodeKernel();
  const bytes = withKernel(oc, (own) => {
    const shape = own(makeBox(oc, 30, 20, 10, [7, -3, 2]));
    const kernelPath = uniqueKernelPath('brep');
    if (!oc.BRepTools.Write_3(shape, kernelPath, own(new oc.Message_ProgressRange_1()))) throw new Error('BRepTools.Write failed');
    return takeKernelFile(oc, kernelPath);
  });
  writeFileSync(path, bytes);
}

interface Served {
  client: Client;
  stderr: () => string;
}
const served: Client[] = [];

/** `node bin/brepscope.js mcp <args>` with an SDK client; `roots`: the client offers these (file URLs). */
async function serve(args: string[], roots?: () => string[]): Promise<Served> {
  let err = '';
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], cwd: testRoot(), stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const c = new Client({ name: 'brepscope-test', version: '0.0.0' }, roots ? { capabilities: { roots: { listChanged: true } } } : {});
  if (roots) c.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots().map((d) => ({ uri: pathToFileURL(d).href, name: d })) }));
  c.onerror = (e) => transportErrors.push(e);
  await c.connect(transport);
  served.push(c);
  return { client: c, stderr: () => err };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brepscope-mcp-'));
  boxPath = join(dir, 'box.brep');
  await writeBoxBrep(boxPath);
  // Roots: the temporary folder and test-data (read only by the tests).
  const main = await serve(['--root', dir, '--root', TEST_DATA_DIR]);
  client = main.client;
  stderrOf = main.stderr;
});

afterAll(async () => {
  await Promise.all(served.map((c) => c.close()));
  rmSync(dir, { recursive: true, force: true });
});

function call(name: string, args: Record<string, unknown>, on: Client = client): Promise<CallToolResult> {
  return on.callTool({ name, arguments: args }, undefined, { timeout: 300_000 }) as Promise<CallToolResult>;
}

/** The one JSON text content of a result, parsed. */
function json(result: CallToolResult): unknown {
  const texts = result.content.filter((c) => c.type === 'text');
  expect(texts).toHaveLength(1);
  return JSON.parse(texts[0]!.text) as unknown;
}

function expectError(result: CallToolResult, code: string): void {
  expect(result.isError).toBe(true);
  expect(json(result)).toEqual({ code, message: expect.any(String) });
}

function errorOf(result: CallToolResult): { code: string; message: string; details?: unknown } {
  expect(result.isError).toBe(true);
  return json(result) as { code: string; message: string };
}

describe('brepscope MCP server over stdio', () => {
  it('identifies itself and lists exactly the registry tools, each with a valid JSON Schema', async () => {
    expect(client.getServerVersion()?.name).toBe('brepscope');
    const { tools } = await client.listTools();
    const engineTools = testEngine().tools();
    expect(tools.map((t) => t.name)).toEqual(engineTools.map((t) => t.name));
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const name of ['import_file', 'read_brep', 'list_bodies', 'remove_body', 'compute_metrics']) expect(tools.map((t) => t.name)).toContain(name);

    // Strict: an unknown keyword or a malformed one fails, not only a schema that breaks the meta-schema.
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    for (const tool of tools) {
      const mine = engineTools.find((t) => t.name === tool.name)!;
      expect(tool.description).toBe(mine.description);
      expect(tool.inputSchema).toEqual(mine.inputSchema);
      expect(tool.inputSchema.type).toBe('object');
      expect(ajv.validateSchema(tool.inputSchema), `${tool.name}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
    }

    // The schemas as a client sees them say what the engine enforces.
    const metrics = ajv.compile(tools.find((t) => t.name === 'compute_metrics')!.inputSchema);
    expect(metrics({ bodyId: 'b' })).toBe(true);
    expect(metrics({ bodyId: 7 })).toBe(false);
    expect(metrics({})).toBe(false);
  });

  it('import_file then compute_metrics gives the exact figures of a kernel-made 30 x 20 x 10 box', async () => {
    const imported = await call('import_file', { path: boxPath, bodyId: 'box' });
    expect(imported.isError).toBeFalsy();
    expect(json(imported)).toMatchObject({ bodyId: 'box', kind: 'brep', sourceFormat: 'brep', valid: true, solids: 1, faces: 6, edges: 12, vertices: 8 });

    const metrics = await call('compute_metrics', { bodyId: 'box', metrics: ['volume', 'surfaceArea', 'centerOfMass'] });
    expect(metrics.isError).toBeFalsy();
    expect(metrics.content.filter((c) => c.type === 'image')).toHaveLength(0);
    const m = json(metrics) as { volume: number; surfaceArea: number; centerOfMass: number[] };
    expect(m.volume).toBeCloseTo(6000, 6);
    expect(m.surfaceArea).toBeCloseTo(2 * (600 + 300 + 200), 6);
    m.centerOfMass.forEach((c, i) => expect(c).toBeCloseTo([22, 7, 7][i]!, 6));
  });

  it('the same file imported as two bodies gives two bodies at once, each with the box\'s exact volume (issue 34)', async () => {
    const stl = join(dir, 'same.stl');
    writeFileSync(stl, writeBinaryStl(box([0, 0, 0], [1, 2, 3])));
    for (const bodyId of ['same1', 'same2']) expect((await call('import_file', { path: stl, bodyId })).isError, bodyId).toBeFalsy();
    for (const bodyId of ['same1', 'same2']) expect((json(await call('compute_metrics', { bodyId, metrics: ['volume'] })) as { volume: number }).volume).toBeCloseTo(6, 9);
    const deviation = json(await call('measure_deviation', { fromBodyId: 'same1', toBodyId: 'same2' })) as { fromToTo: { max: number } };
    expect(deviation.fromToTo.max).toBe(0);
    for (const bodyId of ['same1', 'same2']) await call('remove_body', { bodyId });
  });

  it('import_file takes a text point cloud (CSV with a header); the cloud measures against the box, and as a reference is refused', async () => {
    // Points 0.2 above the box's top face (z = 12), inside its edges.
    const rows = ['x,y,z'];
    for (let x = 10; x <= 34; x += 2) for (let y = 0; y <= 14; y += 2) rows.push(`${x},${y},12.2`);
    const cloudPath = join(dir, 'top.csv');
    writeFileSync(cloudPath, rows.join('\n') + '\n');
    const imported = await call('import_file', { path: cloudPath, bodyId: 'top' });
    expect(imported.isError).toBeFalsy();
    expect(json(imported)).toMatchObject({ bodyId: 'top', kind: 'points', sourceFormat: 'xyz', points: rows.length - 1, hasNormals: false });
    const box = await call('import_file', { path: boxPath, bodyId: 'boxForCloud' });
    expect(box.isError).toBeFalsy();
    const d = await call('measure_deviation', { fromBodyId: 'top', toBodyId: 'boxForCloud' });
    expect(d.isError).toBeFalsy();
    expect((json(d) as { fromToTo: { signedMean: number } }).fromToTo.signedMean).toBeCloseTo(0.2, 9);
    const refused = await call('measure_deviation', { fromBodyId: 'boxForCloud', toBodyId: 'top' });
    expect(refused.isError).toBe(true);
    expect(json(refused)).toMatchObject({ code: 'POINT_CLOUD_REFERENCE', message: expect.stringMatching(/Swap the roles/) });
  });

  it('bad arguments give INVALID_ARGUMENT as an error result, before anything runs', async () => {
    expectError(await call('compute_metrics', { bodyId: 7 }), 'INVALID_ARGUMENT');
    expectError(await call('compute_metrics', {}), 'INVALID_ARGUMENT');
    expectError(await call('compute_metrics', { bodyId: 'box', frobnicate: true }), 'INVALID_ARGUMENT');
    expectError(await call('import_file', { path: boxPath, bytes: 'AAAA' }), 'INVALID_ARGUMENT');
    expectError(await call('no_such_tool', {}), 'UNKNOWN_TOOL');
    expectError(await call('compute_metrics', { bodyId: 'missing' }), 'BODY_NOT_FOUND');
    expectError(await call('import_file', { path: join(dir, 'missing.step') }), 'FILE_NOT_FOUND');
  });

  it('tools/call params that are not {name, arguments: object}: invalid params (-32602) coded INVALID_ARGUMENT; the session goes on', async () => {
    for (const params of [
      { name: 'compute_metrics', arguments: [1, 2] },
      { name: 'compute_metrics', arguments: 'box' },
      { name: 'compute_metrics', arguments: null },
      { arguments: {} },
      { name: 7, arguments: {} },
    ]) {
      const answer = client.request({ method: 'tools/call', params: params as never }, CallToolResultSchema);
      await expect(answer, JSON.stringify(params)).rejects.toMatchObject({ code: -32602, data: { code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^tools\/call: params\.(arguments|name): /) } });
    }
    expectError(await call('compute_metrics', { bodyId: 'missing' }), 'BODY_NOT_FOUND');
  });

  it('a corrupt file gives PARSE_FAILED, changes nothing, and the next calls still work', async () => {
    const corrupt = join(dir, 'corrupt.brep');
    writeFileSync(corrupt, 'DBRep_DrawableShape\n\nCASCADE Topology V1, (c) Matra-Datavision\nLocations 1\nthis is not a shape\n');
    expectError(await call('import_file', { path: corrupt, bodyId: 'corrupt' }), 'PARSE_FAILED');

    const garbageStep = join(dir, 'garbage.step');
    writeFileSync(garbageStep, 'ISO-10303-21;\nHEADER;\nnot step at all\n');
    expectError(await call('import_file', { path: garbageStep, bodyId: 'garbage' }), 'PARSE_FAILED');

    const bodies = json(await call('list_bodies', {})) as unknown;
    expect(JSON.stringify(bodies)).not.toMatch(/corrupt|garbage/);
    expect(JSON.stringify(bodies)).toContain('"box"');

    const again = await call('import_file', { path: boxPath, bodyId: 'box2' });
    expect(again.isError).toBeFalsy();
    const m = json(await call('compute_metrics', { bodyId: 'box2', metrics: ['volume'] })) as { volume: number };
    expect(m.volume).toBeCloseTo(6000, 6);
    expect(json(await call('remove_body', { bodyId: 'box2' }))).toBeTruthy();
    expectError(await call('compute_metrics', { bodyId: 'box2' }), 'BODY_NOT_FOUND');
  });

  it('a tool that writes a PNG returns it as image content after the JSON (deviation_histogram outputPath)', async () => {
    for (const [bodyId, file] of [['sh1', 'sh1.stl'], ['shape', 'shape.stl']]) {
      expect((await call('import_file', { path: dataPath(`occt/${file}`), bodyId })).isError).toBeFalsy();
    }
    const outputPath = join(dir, 'histogram.png');
    const result = await call('deviation_histogram', { fromBodyId: 'sh1', referenceBodyId: 'shape', outputPath });
    expect(result.isError).toBeFalsy();
    expect(result.content.map((c) => c.type)).toEqual(['text', 'image']);
    const image = result.content[1]!;
    if (image.type !== 'image') throw new Error('expected image content');
    expect(image.mimeType).toBe('image/png');
    expect(Buffer.from(image.data, 'base64').equals(readFileSync(outputPath))).toBe(true);
    expect((json(result) as { signedSamples: number }).signedSamples).toBeGreaterThan(0);
  });

  it('signed_deviation_heatmap returns each view as image content after the JSON; inspection_report names its HTML file', async () => {
    // sh1 and shape are loaded by the histogram test above.
    const outputPath = join(dir, 'heat.png');
    const result = await call('signed_deviation_heatmap', { fromBodyId: 'sh1', referenceBodyId: 'shape', outputPath, views: ['iso', 'top'], size: 320, labels: { count: 2 } });
    expect(result.isError).toBeFalsy();
    expect(result.content.map((c) => c.type)).toEqual(['text', 'image', 'image']);
    const r = json(result) as { images: { path: string }[]; labels: unknown[] };
    expect(r.labels).toHaveLength(2);
    r.images.forEach((image, i) => {
      const content = result.content[i + 1]!;
      if (content.type !== 'image') throw new Error('expected image content');
      expect(Buffer.from(content.data, 'base64').equals(readFileSync(image.path))).toBe(true);
    });
    const report = await call('inspection_report', { fromBodyId: 'sh1', referenceBodyId: 'shape', outputPath: join(dir, 'report.html'), views: ['iso'], size: 320, maxSamples: 2000 });
    expect(report.isError).toBeFalsy();
    expect(report.content.map((c) => c.type)).toEqual(['text']);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/);
  });

  it('stdout carries protocol messages only, even when the kernel prints (IGES import)', async () => {
    const hammer = await call('import_file', { path: dataPath('occt/hammer.iges'), bodyId: 'hammer' });
    expect(hammer.isError).toBeFalsy();
    // A stray stdout line reaches the client transport's onerror; the kernel did print, to stderr.
    expect(transportErrors.map((e) => e.message)).toEqual([]);
    expect(stderrOf()).toMatch(/Total number of loaded entities/);
    expect((await client.listTools()).tools.length).toBe(TOOLS.length);
  });

  it('hostile files: 26 fuzz mutants through tools/call each end as in-process (a result or the same coded bad-input error); then a good call works', async () => {
    const oc = await nodeKernel();
    const sources = fuzzSources(oc);
    const engine = testEngine();
    const outcomes: string[] = [];
    for (let seed = 1; seed <= 2 * sources.length; seed++) {
      const m = mutant(sources, seed);
      const path = join(dir, `m${seed}-${m.fileName}`);
      writeFileSync(path, m.bytes);
      const local = await engine.run('import_file', { path, bodyId: 'local' }).then(
        () => 'result',
        (e: { code: string }) => e.code,
      );
      if (local === 'result') await engine.run('remove_body', { bodyId: 'local' });
      const served = await call('import_file', { path, bodyId: `m${seed}` });
      const code = served.isError ? errorOf(served).code : 'result';
      expect(code, `seed ${seed} (${m.source}, ${m.mutation})`).toBe(local);
      expect(INTERNAL_CODES.has(code), `seed ${seed}: ${code}`).toBe(false);
      if (served.isError) expect(errorOf(served).message).toContain(`m${seed}-`);
      else await call('remove_body', { bodyId: `m${seed}` });
      outcomes.push(code);
    }
    // The corpus is hostile: most are refused, some still read (a mutation that leaves a readable
    // file); since this round's reader changes every refusal of these 26 is PARSE_FAILED.
    expect(outcomes.filter((c) => c !== 'result').length).toBeGreaterThan(outcomes.length / 2);
    expect(outcomes).toContain('result');
    expect(outcomes).toContain('PARSE_FAILED');
    const again = await call('import_file', { path: boxPath, bodyId: 'after_fuzz' });
    expect(again.isError).toBeFalsy();
    expect((json(await call('compute_metrics', { bodyId: 'after_fuzz', metrics: ['volume'] })) as { volume: number }).volume).toBeCloseTo(6000, 6);
  });

  it('writes: an existing file needs overwrite: true (FILE_EXISTS); a loaded file is never written (FILE_IN_USE); outside the roots nothing is read or written', async () => {
    const stl = join(dir, 'loaded.stl');
    writeFileSync(stl, readFileSync(dataPath('occt/shape.stl')));
    expect((await call('import_file', { path: stl, bodyId: 'loaded' })).isError).toBeFalsy();
    const png = join(dir, 'exists.png');
    writeFileSync(png, 'not mine');
    const histogram = { fromBodyId: 'loaded', referenceBodyId: 'loaded', outputPath: png, maxSamples: 500 };
    expect(errorOf(await call('deviation_histogram', histogram)).code).toBe('FILE_EXISTS');
    expect(readFileSync(png, 'utf8')).toBe('not mine');
    expect((await call('deviation_histogram', { ...histogram, overwrite: true })).isError).toBeFalsy();
    expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');

    const before = readFileSync(stl);
    for (const overwrite of [false, true]) {
      const refused = errorOf(await call('deviation_histogram', { ...histogram, outputPath: stl, overwrite }));
      expect(refused.code).toBe('FILE_IN_USE');
      expect(refused.message).toContain("'loaded'");
    }
    expect(readFileSync(stl).equals(before)).toBe(true);

    const outside = join(tmpdir(), `brepscope-outside-${process.pid}.png`);
    const refused = errorOf(await call('deviation_histogram', { ...histogram, outputPath: outside }));
    expect(refused).toMatchObject({ code: 'PATH_OUTSIDE_ROOTS', details: { roots: expect.arrayContaining([TEST_DATA_DIR.replace(/\/$/, '')]) } });
    expect(errorOf(await call('import_file', { path: '/etc/hostname' })).code).toBe('PATH_OUTSIDE_ROOTS');
    expect(errorOf(await call('graph_export', { bodyId: 'loaded', outputPath: join(dir, '..', 'escape.sqlite') })).code).toBe('PATH_OUTSIDE_ROOTS');
  });

  it('a FIFO as a path is refused at once (INVALID_ARGUMENT), five times over (more than the file-system threads), and later calls are answered', async () => {
    const fifo = join(dir, 'pipe.stl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    for (let i = 0; i < 5; i++) {
      const refused = errorOf(await call('import_file', { path: fifo, bodyId: `pipe${i}` }));
      expect(refused.code).toBe('INVALID_ARGUMENT');
      expect(refused.message).toContain('is a FIFO');
    }
    expect((await call('import_file', { path: boxPath, bodyId: 'after_fifo' })).isError).toBeFalsy();
    expect((json(await call('compute_metrics', { bodyId: 'after_fifo', metrics: ['volume'] })) as { volume: number }).volume).toBeCloseTo(6000, 6);
  });
});

describe('imageContents (PNG outputs as image content)', () => {
  it('attaches the PNGs a call wrote (its outputs), skipping files that are not PNGs', async () => {
    testEngine(); // installs the Node drawing surface
    const surface = createSurface(8, 4);
    surface.context.fillStyle = '#c00';
    surface.context.fillRect(0, 0, 8, 4);
    const png = await surface.toPng();
    const output = (path: string, bytes: Uint8Array) => ({ path: join(dir, path), bytes, mimeType: 'image/png' });

    const images = imageContents([output('hist.png', png), output('section-1.png', png), output('note.png', new TextEncoder().encode('not an image'))]);
    expect(images).toHaveLength(2);
    for (const image of images) {
      expect(image.mimeType).toBe('image/png');
      expect(Buffer.from(image.data, 'base64').equals(Buffer.from(png))).toBe(true);
    }
    expect(imageContents([])).toEqual([]);

    const many = Array.from({ length: MAX_IMAGES + 3 }, (_, i) => output(`many-${i}.png`, png));
    expect(imageContents(many)).toHaveLength(MAX_IMAGES);
  });
});

describe('brepscope MCP server: roots from the client', () => {
  it("without --root, the client's roots replace the working directory; a roots/list_changed notification moves them", async () => {
    const a = mkdtempSync(join(tmpdir(), 'brepscope-root-a-'));
    const b = mkdtempSync(join(tmpdir(), 'brepscope-root-b-'));
    try {
      for (const d of [a, b]) writeFileSync(join(d, 'shape.stl'), readFileSync(dataPath('occt/shape.stl')));
      let offered = [a];
      const { client: rooted } = await serve([], () => offered);
      expect((await call('import_file', { path: join(a, 'shape.stl'), bodyId: 'a' }, rooted)).isError).toBeFalsy();
      expect(errorOf(await call('import_file', { path: join(b, 'shape.stl'), bodyId: 'b' }, rooted)).code).toBe('PATH_OUTSIDE_ROOTS');
      // The working directory (the checkout) is not a root once the client has roots.
      expect(errorOf(await call('import_file', { path: dataPath('occt/sh1.stl') }, rooted)).code).toBe('PATH_OUTSIDE_ROOTS');

      offered = [b];
      await rooted.sendRootsListChanged();
      await expect.poll(async () => (await call('import_file', { path: join(b, 'shape.stl'), bodyId: 'b' }, rooted)).isError ?? false).toBe(false);
      expect(errorOf(await call('import_file', { path: join(a, 'shape.stl'), bodyId: 'a2' }, rooted)).code).toBe('PATH_OUTSIDE_ROOTS');
    } finally {
      for (const d of [a, b]) rmSync(d, { recursive: true, force: true });
    }
  });
});

describe('brepscope MCP server: --max-memory', () => {
  it('a call that takes the kernel past the ceiling gives OUT_OF_MEMORY; the next call works on the scene loaded back', async () => {
    const { client: small, stderr } = await serve(['--root', TEST_DATA_DIR, '--max-memory', '200']);
    expect((await call('import_file', { path: dataPath('occt/sh1.stl'), bodyId: 'scan' }, small)).isError).toBeFalsy();
    expect((await call('import_file', { path: dataPath('occt/bottle.brep'), bodyId: 'bottle' }, small)).isError).toBeFalsy();
    const volume = (json(await call('compute_metrics', { bodyId: 'bottle', metrics: ['volume'] }, small)) as { volume: number }).volume;
    // BRepMesh at a 1e-5 deflection: the kernel heap jumps from 100 to about 250 MiB.
    const failed = errorOf(await call('measure_deviation', { fromBodyId: 'scan', toBodyId: 'bottle', deflection: 1e-5 }, small));
    expect(failed.code).toBe('OUT_OF_MEMORY');
    expect(failed.message).toMatch(/200 MiB ceiling/);
    expect((json(await call('compute_metrics', { bodyId: 'bottle', metrics: ['volume'] }, small)) as { volume: number }).volume).toBe(volume);
    const { bodies } = json(await call('list_bodies', {}, small)) as { bodies: { bodyId: string }[] };
    expect(bodies.map((b) => b.bodyId)).toEqual(['scan', 'bottle']);
    expect(stderr()).toMatch(/the engine was replaced after OUT_OF_MEMORY; bodies loaded back: scan, bottle/);
  });
});
