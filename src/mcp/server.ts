// The low-level Server (not McpServer) because our tools already carry JSON Schemas: McpServer would
// want each one re-declared as a zod shape, a second copy of every schema.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
  type CallToolResult,
  type ImageContent,
  type JSONRPCMessage,
  type ResourceLink,
  type TextContent,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import packageJson from '../../package.json' with { type: 'json' };
import type { OutputFile } from '../engine';
import { resultJson, toErrorPayload, type ErrorPayload } from '../engine/hostFacts';
import { rootDirs } from '../node/confinedFiles';
import { EngineHost, type CallOptions, type EngineLimits, type RestartEvent } from '../node/EngineHost';
import { BoundedStdioTransport } from './boundedStdio';
import { spillFiles, type SpillLimits } from './spillFiles';

const INSTRUCTIONS = [
  'brepscope inspects CAD geometry with an exact OCCT kernel.',
  'Load files into the scene first (import_file for BREP/STEP/IGES/XBF, STL/PLY/OBJ/3MF meshes and point clouds (PLY without faces, XYZ/PTS/TXT/CSV), read_brep for BREP with validity control), using absolute paths',
  "inside the server's roots (its --root directories and the client's roots; PATH_OUTSIDE_ROOTS otherwise);",
  'each body gets a bodyId, which the scene tools take. list_bodies shows the scene, remove_body frees a body.',
  'Tools that write files never replace an existing file unless called with overwrite: true, and never a file loaded in the scene.',
  'Results are JSON; errors are JSON {code, message} with a stable code. Lengths are in model units (mm for most CAD files).',
].join(' ');

/** More would flood an agent's context; the JSON result still names every written file. */
export const MAX_IMAGES = 16;

/**
 * A result's JSON longer than this is written to a file and returned in `outputs` instead of inline:
 * a client's stdio transport drops a message over 10 MiB (the SDK's limit), and with it the session.
 */
export const MAX_INLINE_RESULT_BYTES = 4 * 2 ** 20;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export interface McpServerOptions {
  /** The --root directories; the client's roots are added to them. None given: the working directory, unless the client offers roots. */
  roots?: readonly string[] | undefined;
  /** Logs (stderr in the stdio server). */
  log?: (message: string) => void;
  /** Where results too large to send inline are written (a new directory in it); default the system's temporary directory. */
  spillDir?: string | undefined;
  /** How many such files, and how many bytes of them, are kept at once (default MAX_SPILL_FILES, MAX_SPILL_BYTES). */
  spillLimits?: SpillLimits | undefined;
  /** Told after every tool call (--log-calls); the call's answer waits for it. */
  onCall?: ((call: CallRecord) => void | Promise<void>) | undefined;
}

/** One tool call as --log-calls reports it. */
export interface CallRecord {
  /** 1 for the server's first call. */
  n: number;
  tool: string;
  ms: number;
  /** The error code, or null for a result. */
  code: string | null;
}

/**
 * An MCP server over one engine host: every registry tool, listed from the registry so a tool added
 * to it needs nothing here. The host runs the calls one at a time (they share one scene and one
 * single-threaded kernel), stops one that passes its deadline or memory ceiling, and gives the next
 * call a new engine with the scene loaded back.
 */
export function createMcpServer(host: EngineHost, options: McpServerOptions = {}): Server {
  const server = new Server({ name: 'brepscope', version: packageJson.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const configured = options.roots ?? [];
  // Asked now, first in the engine's line: tools/list is then answered at once, even while a call runs.
  host.tools().catch(() => undefined);

  // The client's roots, once it says it has some: calls wait for the first answer.
  let rootsKnown: Promise<void> = Promise.resolve();
  const refreshRoots = async (): Promise<void> => {
    let offered: string[] = [];
    try {
      const { roots } = await server.listRoots();
      offered = roots.flatMap((r) => (r.uri.startsWith('file://') ? [fileURLToPath(r.uri)] : []));
    } catch (e) {
      options.log?.(`the client's roots could not be read: ${(e as Error).message}`);
    }
    const usable = offered.filter((dir) => existsSync(dir));
    const dirs = configured.length || usable.length ? [...configured, ...usable] : [process.cwd()];
    await host.setRoots(rootDirs(dirs));
  };
  server.oninitialized = () => {
    if (server.getClientCapabilities()?.roots) rootsKnown = refreshRoots();
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    rootsKnown = refreshRoots();
    await rootsKnown;
  });

  let calls = 0;
  // Results too large to send inline go to files in a directory of this server's own (created on
  // first use, only this user may read it): never into the user's roots, where a name could be taken.
  // The oldest go beyond a count or a size; all of them when the session closes (spillFiles.ts).
  const spills = spillFiles(options.spillDir, options.spillLimits);
  const spill = (json: string, file: string): string => spills.write(file, json);
  // A tools/call whose params are not {name: string, arguments?: object} failed the SDK's schema as an
  // "internal error" (-32603) carrying zod's raw issues: it is refused here as invalid params, coded.
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const refusal = refusedToolCall(message);
      if (refusal) void transport.send(refusal);
      else deliver?.(message, extra);
    };
  };
  const close = server.close.bind(server);
  server.close = async () => {
    try {
      await close();
    } finally {
      spills.dispose();
    }
  };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await host.tools()).map((t): Tool => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as Tool['inputSchema'] })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    const progressToken = extra._meta?.progressToken;
    const progress =
      progressToken === undefined
        ? undefined
        : (fraction: number, message?: string): void => {
            const params = message === undefined ? { progressToken, progress: fraction, total: 1 } : { progressToken, progress: fraction, total: 1, message };
            extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
          };
    await rootsKnown;
    const n = ++calls;
    const t0 = performance.now();
    const result = await callTool(host, name, args, { signal: extra.signal, progress }, (json) => spill(json, `call-${n}-${name}.json`));
    const code = result.isError ? (JSON.parse((result.content[0] as TextContent).text) as ErrorPayload).code : null;
    await options.onCall?.({ n, tool: name, ms: Math.round(performance.now() - t0), code });
    return result;
  });

  return server;
}

/** A JSON-RPC "invalid params" answer to a tools/call request whose params are malformed, else undefined. */
export function refusedToolCall(message: JSONRPCMessage): JSONRPCMessage | undefined {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return undefined;
  const parsed = CallToolRequestSchema.safeParse(message);
  if (parsed.success) return undefined;
  const problems = parsed.error.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ');
  const text = `tools/call: ${problems} (params must be {name: string, arguments?: object})`;
  return { jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: text, data: { code: 'INVALID_ARGUMENT', message: text } } };
}

async function callTool(host: EngineHost, name: string, args: Record<string, unknown>, options: CallOptions, spillJson: (json: string) => string): Promise<CallToolResult> {
  try {
    const { result, outputs } = await host.runJson(name, args, options);
    const json = resultJson(result);
    if (Buffer.byteLength(json) <= MAX_INLINE_RESULT_BYTES) return { content: [{ type: 'text', text: json }, ...imageContents(outputs)] };
    const path = spillJson(json);
    const bytes = Buffer.byteLength(json);
    const text: TextContent = {
      type: 'text',
      text: JSON.stringify({
        resultFile: path,
        resultBytes: bytes,
        note: `the result (${bytes} bytes of JSON) is over the ${MAX_INLINE_RESULT_BYTES / 2 ** 20} MiB inline limit: it is in resultFile, the last of outputs`,
        outputs: [...outputs.map((o) => o.path), path],
      }),
    };
    const link: ResourceLink = { type: 'resource_link', uri: pathToFileURL(path).href, name: basename(path), mimeType: 'application/json', size: bytes };
    return { content: [text, link, ...imageContents(outputs)] };
  } catch (e) {
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(toErrorPayload(e)) }] };
  }
}

/**
 * The PNGs a call wrote (its outputs, as the engine returns them), as image content: a new
 * image-writing tool needs nothing here.
 */
export function imageContents(outputs: readonly OutputFile[]): ImageContent[] {
  return outputs
    .filter((o) => PNG_SIGNATURE.every((b, i) => o.bytes[i] === b))
    .slice(0, MAX_IMAGES)
    .map((o) => ({ type: 'image', data: Buffer.from(o.bytes).toString('base64'), mimeType: 'image/png' }));
}

/** How a replaced engine is reported on stderr: why, and which bodies came back. */
export function restartMessage({ reason, report }: RestartEvent): string {
  const lost = report.failed.map((f: { bodyId: string; error: ErrorPayload }) => `${f.bodyId} (${f.error.code})`);
  return `the engine was replaced after ${reason.code}; bodies loaded back: ${report.restored.join(', ') || 'none'}${lost.length ? `; lost: ${lost.join(', ')}` : ''}`;
}

/** --log-calls: one stderr line per call, with the process's resident memory and the kernel's heap (docs/mcp.md). */
export function callLine(call: CallRecord, memory: { rssBytes: number; wasmBytes: number; kernelInUseBytes: number; keptBytes: number }): string {
  const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
  return (
    `call ${call.n} ${call.tool} ${call.code ?? 'ok'} ${call.ms} ms; rss ${mib(memory.rssBytes)} MiB; ` +
    `kernel heap ${mib(memory.wasmBytes)} MiB, in use ${mib(memory.kernelInUseBytes)} MiB; kept files ${mib(memory.keptBytes)} MiB`
  );
}

/** Serves MCP on stdin/stdout until stdin closes. */

export async function serveMcpStdio(options: EngineLimits & McpServerOptions & { thread?: Worker | undefined; logCalls?: boolean } = {}): Promise<void> {
  // stdout carries protocol messages only. bin/brepscope.js already sends console.log/info/debug to
  // stderr; the engine thread's console goes to stderr through EngineHost.
  for (const level of ['log', 'info', 'debug'] as const) console[level] = console.error.bind(console);
  const log = (message: string): void => console.error(`brepscope mcp: ${message}`);

  const configured = options.roots ?? [];
  const host = EngineHost.start({
    deadlineMs: options.deadlineMs,
    maxMemoryMb: options.maxMemoryMb,
    thread: options.thread,
    roots: rootDirs(configured.length ? configured : [process.cwd()]),
    onRestart: (event) => log(restartMessage(event)),
  });
  // The heap in use is the engine thread's to measure: one more (short) call after each call.
  const onCall = options.logCalls
    ? async (call: CallRecord) => {
        // A thread that went down with this call has no figures; the line says NaN rather than fail the call.
        const { kernelInUseBytes } = await host.threadMemory().catch(() => ({ kernelInUseBytes: NaN }));
        log(callLine(call, { rssBytes: process.memoryUsage.rss(), ...host.memory(), kernelInUseBytes }));
      }
    : undefined;
  const server = createMcpServer(host, { roots: configured, log, onCall });
  // A malformed message is answered on its id when it has a readable one (boundedStdio.ts); say why on stderr for whoever debugs the client.
  server.onerror = (e) => log(e.message);
  // Not the SDK's StdioServerTransport: it closes (and the server exits, losing its scene) on a message over 10 MiB.
  const transport = new BoundedStdioTransport();
  const closed = new Promise<void>((done) => {
    server.onclose = done;
    process.stdin.once('end', done);
    process.stdin.once('close', done);
    // A client that stops the server with a signal ends the session as well: its result files go.
    process.once('SIGTERM', done);
    process.once('SIGINT', done);
  });
  await server.connect(transport);
  await closed;
  await server.close();
  await host.dispose();
}
