import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uvSphere } from '../engine/mesh/generators';
import { writeBinaryStl } from '../engine/scene/import/stl';
import { dataPath } from '../test/data';
import { topLevelId } from './boundedStdio';
import { MAX_INLINE_RESULT_BYTES } from './server';

// Issue 35: results too large to send inline come back as a file; a request over the transport
// limit gets a coded error and the session (and its scene) stays; tools/list never waits behind a call.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
const clients: Client[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'brepscope-mcp-limits-'));
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function serve(args: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['bin/brepscope.js', 'mcp', '--root', dir, '--root', ROOT, ...args], cwd: ROOT, stderr: 'pipe' });
  const client = new Client({ name: 'brepscope-limits-test', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 }) as Promise<CallToolResult>;
}

function json(result: CallToolResult): unknown {
  const text = result.content.find((c) => c.type === 'text');
  return JSON.parse((text as { text: string }).text) as unknown;
}

describe('MCP: results over the inline limit', () => {
  it('display_mesh of a 409,600-triangle STL returns a JSON file in outputs (and a resource link), not 10+ MiB inline; the file holds the whole mesh and goes when the session ends', async () => {
    const mesh = uvSphere(10, 640, 321);
    const triangles = mesh.indices.length / 3;
    expect(triangles).toBe(409_600);
    const stl = join(dir, 'big.stl');
    writeFileSync(stl, writeBinaryStl(mesh));
    const client = await serve();
    expect((await call(client, 'import_file', { path: stl, bodyId: 'big' })).isError).toBeFalsy();
    const result = await call(client, 'display_mesh', { bodyId: 'big' });
    expect(result.isError).toBeFalsy();
    const answer = json(result) as { resultFile: string; resultBytes: number; outputs: string[] };
    expect(answer.outputs).toEqual([answer.resultFile]);
    expect(answer.resultBytes).toBeGreaterThan(MAX_INLINE_RESULT_BYTES);
    expect(statSync(answer.resultFile).size).toBe(answer.resultBytes);
    expect(result.content[1]).toMatchObject({ type: 'resource_link', mimeType: 'application/json' });
    const full = JSON.parse(readFileSync(answer.resultFile, 'utf8')) as { indices: number[]; positions: number[] };
    expect(full.indices.length).toBe(3 * triangles);
    expect(full.indices.reduce((m, i) => Math.max(m, i), 0)).toBe(full.positions.length / 3 - 1);
    // A small result is still inline.
    expect(json(await call(client, 'list_bodies', {}))).toMatchObject({ bodies: [{ bodyId: 'big', triangles }] });
    expect(existsSync(answer.resultFile)).toBe(true);
    // The session ends (the client closes the server's stdin and waits for it to exit): the file and its directory are gone.
    await client.close();
    expect(existsSync(dirname(answer.resultFile))).toBe(false);
  });
});

describe('MCP: a request over the transport limit', () => {
  it('an 11 MiB tools/call is refused with a coded error (INVALID_ARGUMENT); the session and its scene stay', async () => {
    const client = await serve();
    expect((await call(client, 'import_file', { path: dataPath('occt/sh1.stl'), bodyId: 'scan' })).isError).toBeFalsy();
    let refused: unknown;
    try {
      await call(client, 'import_file', { path: 'x'.repeat(11 * 2 ** 20), bodyId: 'huge' });
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(-32600);
    expect((refused as McpError).data).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('over the transport limit of 10485760 bytes') });
    const after = json(await call(client, 'list_bodies', {})) as { bodies: { bodyId: string }[] };
    expect(after.bodies.map((b) => b.bodyId)).toEqual(['scan']);
  });

  it('the id of a message known by its ends: first or last member of the top-level object only', () => {
    expect(topLevelId('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x":"', '"}}')).toBe(7);
    expect(topLevelId('{"method":"tools/call","params":{"arguments":{"id":3,"p":"', 'xx"}},"jsonrpc":"2.0","id":"a-1"}')).toBe('a-1');
    // A nested "id" at either end is not the message's.
    expect(topLevelId('{"method":"x","params":{"id":3,"p":"', 'xx","id":4}}')).toBeUndefined();
  });
});

describe('MCP: tools/list while a call runs', () => {
  it("the first tools/list is answered before a running call ends (BRepMesh of the bottle at 1e-5, stopped by the deadline)", async () => {
    const client = await serve(['--deadline', '20']);
    expect((await call(client, 'import_file', { path: dataPath('occt/sh1.stl'), bodyId: 'scan' })).isError).toBeFalsy();
    expect((await call(client, 'import_file', { path: dataPath('occt/bottle.brep'), bodyId: 'bottle' })).isError).toBeFalsy();
    const order: string[] = [];
    const hang = call(client, 'measure_deviation', { fromBodyId: 'scan', toBodyId: 'bottle', deflection: 1e-5 }).then((r) => {
      order.push(`call ${(json(r) as { code?: string }).code ?? 'ok'}`);
    });
    // Sent after the call, so the server has it running (calls are answered in order of arrival).
    const listed = client.listTools().then((r) => order.push(`tools ${r.tools.length}`));
    await Promise.all([hang, listed]);
    expect(order[0]).toMatch(/^tools \d+$/);
    expect(order[1]).toBe('call TIMEOUT');
  });
});
