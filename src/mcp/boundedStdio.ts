import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The longest message the server reads (the SDK's stdio limit): larger ones are refused, not buffered. */
export const MAX_MESSAGE_BYTES = 10 * 2 ** 20;
/** What is kept of each end of a message over the limit, to find its id. */
const KEPT_END = 4096;
/** JSON-RPC's "Invalid Request" and "Parse error". */
const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;

/**
 * MCP over stdin/stdout, one JSON-RPC message per line, like the SDK's StdioServerTransport, except
 * for a message over MAX_MESSAGE_BYTES: the SDK's transport then closes, and the server exits with
 * its scene. Here the message is skipped to its end (only its first and last 4 KiB kept), answered
 * with a coded error when its id can be read, and the session goes on.
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pieces: Buffer[] = [];
  private pending = 0;
  /** Set while the current line is over the limit. */
  private oversized: { head: Buffer; tail: Buffer; bytes: number } | undefined;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  private readonly onStreamError = (error: Error): void => this.onerror?.(error);

  private readonly onData = (chunk: Buffer): void => {
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(10, from);
      const piece = chunk.subarray(from, newline < 0 ? chunk.length : newline);
      this.take(piece);
      if (newline < 0) return;
      this.endLine();
      from = newline + 1;
    }
  };

  private take(piece: Buffer): void {
    if (this.oversized) {
      const o = this.oversized;
      o.bytes += piece.length;
      o.tail = Buffer.concat([o.tail, piece]).subarray(-KEPT_END);
    } else if (this.pending + piece.length > this.maxBytes) {
      const all = Buffer.concat([...this.pieces, piece]);
      // Copies of the ends: the message itself is dropped here.
      this.oversized = { head: Buffer.from(all.subarray(0, KEPT_END)), tail: Buffer.from(all.subarray(-KEPT_END)), bytes: all.length };
      this.pieces = [];
      this.pending = 0;
    } else {
      this.pieces.push(piece);
      this.pending += piece.length;
    }
  }

  private endLine(): void {
    if (this.oversized) {
      const o = this.oversized;
      this.oversized = undefined;
      this.refuse(o.head.toString('utf8'), o.tail.toString('utf8'), o.bytes);
      return;
    }
    const line = Buffer.concat(this.pieces).toString('utf8').replace(/\r$/, '');
    this.pieces = [];
    this.pending = 0;
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      this.malformed(line, PARSE_ERROR, `the message is not JSON (${(e as Error).message})`);
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(json);
    if (!message.success) {
      this.malformed(line, INVALID_REQUEST, `the message is not a JSON-RPC 2.0 request, notification or response: ${requestIssues(message.error.issues)}`);
      return;
    }
    this.onmessage?.(message.data);
  }

  /**
   * A message that is not JSON-RPC: answered with a coded error when its id can be read, so the client
   * waiting on that id hears why instead of waiting for ever; otherwise only reported.
   */
  private malformed(line: string, rpcCode: number, text: string): void {
    this.onerror?.(new Error(text));
    const id = topLevelId(line.slice(0, KEPT_END), line.slice(-KEPT_END));
    if (id === undefined) return;
    void this.send({ jsonrpc: '2.0', id, error: { code: rpcCode, message: text, data: { code: 'INVALID_ARGUMENT', message: text } } });
  }

  /** A message over the limit: answered with INVALID_ARGUMENT when it is a request whose id can be read. */
  private refuse(head: string, tail: string, bytes: number): void {
    const text = `a message of ${bytes} bytes is over the transport limit of ${this.maxBytes} bytes (${this.maxBytes / 2 ** 20} MiB); it was skipped`;
    this.onerror?.(new Error(text));
    const id = topLevelId(head, tail);
    if (id === undefined) return;
    void this.send({ jsonrpc: '2.0', id, error: { code: INVALID_REQUEST, message: text, data: { code: 'INVALID_ARGUMENT', message: text } } });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((done) => {
      if (this.stdout.write(JSON.stringify(message) + '\n')) done();
      else this.stdout.once('drain', done);
    });
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.pieces = [];
    this.oversized = undefined;
    this.onclose?.();
  }
}

const ID_VALUE = String.raw`(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")`;
/** The id as the top-level object's first member (or second, after "jsonrpc"): where most writers put it. */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_VALUE}`);
/** The id as the last member, just before the final brace (the SDK's client writes it there). */
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

/**
 * The id of a JSON-RPC message known only by its ends: as the first or the last member of the
 * top-level object, the only places where an "id" cannot belong to a nested object.
 */
export function topLevelId(head: string, tail: string): string | number | undefined {
  const match = ID_FIRST.exec(head) ?? ID_LAST.exec(tail.replace(/\r$/, ''));
  if (!match) return undefined;
  const raw = match[1]!;
  try {
    return JSON.parse(raw) as string | number;
  } catch {
    return undefined;
  }
}

interface Issue {
  path: PropertyKey[];
  message: string;
  errors?: Issue[][];
}

/** What is wrong with it as a request: the first branch of the message union, as "path: problem". */
function requestIssues(issues: readonly Issue[]): string {
  const asRequest = issues.length === 1 && issues[0]!.errors?.[0] ? issues[0]!.errors[0] : issues;
  return asRequest.map((i) => `${i.path.map(String).join('.') || 'message'}: ${i.message}`).join('; ');
}
