import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BoundedStdioTransport } from './boundedStdio';

/** The transport on in-memory pipes: what it hands the server, what it writes back, what it reports. */
async function transportOn(input: string) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new BoundedStdioTransport(stdin, stdout);
  const delivered: JSONRPCMessage[] = [];
  const errors: string[] = [];
  transport.onmessage = (m) => delivered.push(m);
  transport.onerror = (e) => errors.push(e.message);
  await transport.start();
  stdin.write(input);
  // The writes are synchronous on a PassThrough: one turn of the event loop delivers everything.
  await new Promise((done) => setImmediate(done));
  const replies = String(stdout.read() ?? '')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: unknown; error: { code: number; message: string; data: { code: string; message: string } } });
  return { delivered, errors, replies };
}

describe('MCP transport: messages that are not JSON-RPC', () => {
  it('a request cut short (not JSON) or without "jsonrpc" gets a coded error on its id; the next message still arrives', async () => {
    const { delivered, errors, replies } = await transportOn(
      [
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_bod',
        '{"id":"eight","method":"tools/list"}',
        '{"jsonrpc":"2.0","id":9,"method":"tools/list"}',
        '',
      ].join('\n'),
    );
    expect(replies.map((r) => [r.id, r.error.code, r.error.data.code])).toEqual([
      [7, -32700, 'INVALID_ARGUMENT'],
      ['eight', -32600, 'INVALID_ARGUMENT'],
    ]);
    expect(replies[0]!.error.message).toMatch(/^the message is not JSON/);
    expect(replies[1]!.error.message).toMatch(/jsonrpc/);
    expect(errors).toHaveLength(2);
    expect(delivered).toEqual([{ jsonrpc: '2.0', id: 9, method: 'tools/list' }]);
  });

  it('a malformed message without a readable id is only reported: there is no id to answer', async () => {
    const { delivered, errors, replies } = await transportOn('not json at all\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    expect(replies).toEqual([]);
    expect(errors).toEqual([expect.stringMatching(/^the message is not JSON/)]);
    expect(delivered).toEqual([{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
  });
});
