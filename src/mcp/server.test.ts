import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withKernel } from '../engine/kernel';
import { createSurface } from '../engine/render/canvas';
import { takeKernelFile, uniqueKernelPath } from '../engine/scene/import/kernelFile';
import { TOOLS } from '../engine/tools/registry';
import { createNodeEngine, nodeKernel } from '../node/nodeEngine';
import { dataPath } from '../test/data';
import { makeBox } from '../test/kernelShapes';
import { MAX_IMAGES, imageContents } from './server';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let dir: string;
let boxPath: string;
let client: Client;
let stderr = '';
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

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brepscope-mcp-'));
  boxPath = join(dir, 'box.brep');
  await writeBoxBrep(boxPath);

  const transport = new StdioClientTransport({ command: process.execPath, args: ['bin/brepscope.js', 'mcp'], cwd: ROOT, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: 'brepscope-test', version: '0.0.0' });
  client.onerror = (e) => transportErrors.push(e);
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
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

describe('brepscope MCP server over stdio', () => {
  it('identifies itself and lists exactly the registry tools, each with a valid JSON Schema', async () => {
    expect(client.getServerVersion()?.name).toBe('brepscope');
    const { tools } = await client.listTools();
    const engineTools = createNodeEngine().tools();
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

  it('stdout carries protocol messages only, even when the kernel prints (IGES import)', async () => {
    const hammer = await call('import_file', { path: dataPath('occt/hammer.iges'), bodyId: 'hammer' });
    expect(hammer.isError).toBeFalsy();
    // A stray stdout line reaches the client transport's onerror; the kernel did print, to stderr.
    expect(transportErrors.map((e) => e.message)).toEqual([]);
    expect(stderr).toMatch(/Total number of loaded entities/);
    expect((await client.listTools()).tools.length).toBe(TOOLS.length);
  });
});

describe('imageContents (PNG outputs as image content)', () => {
  it('attaches the PNGs a call wrote (its outputs), skipping files that are not PNGs', async () => {
    createNodeEngine(); // installs the Node drawing surface
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
