// The low-level Server (not McpServer) because our tools already carry JSON Schemas: McpServer would
// want each one re-declared as a zod shape, a second copy of every schema.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type ImageContent,
  type TextContent,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import packageJson from '../../package.json' with { type: 'json' };
import { resultJson, toErrorPayload, type Engine, type OutputFile, type RunOptions } from '../engine';
import { createNodeEngine, processMeshWorkers } from '../node/nodeEngine';

const INSTRUCTIONS = [
  'brepscope inspects CAD geometry with an exact OCCT kernel.',
  'Load files into the scene first (import_file for BREP/STEP/IGES/XBF, STL/PLY/OBJ/3MF meshes and point clouds (PLY without faces, XYZ/PTS/TXT/CSV), read_brep for BREP with validity control), using absolute paths;',
  'each body gets a bodyId, which the scene tools take. list_bodies shows the scene, remove_body frees a body.',
  'Results are JSON; errors are JSON {code, message} with a stable code. Lengths are in model units (mm for most CAD files).',
].join(' ');

/** More would flood an agent's context; the JSON result still names every written file. */
export const MAX_IMAGES = 16;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * An MCP server over one engine: every registry tool, listed from the registry at each request so a
 * tool added to the registry needs nothing here. Calls run one at a time because they share one
 * scene and one single-threaded kernel.
 */
export function createMcpServer(engine: Engine): Server {
  const server = new Server({ name: 'brepscope', version: packageJson.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: engine.tools().map((t): Tool => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as Tool['inputSchema'] })),
  }));

  let queue: Promise<unknown> = Promise.resolve();
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    const progressToken = extra._meta?.progressToken;
    const progress =
      progressToken === undefined
        ? undefined
        : (fraction: number, message?: string): void => {
            const params = message === undefined ? { progressToken, progress: fraction, total: 1 } : { progressToken, progress: fraction, total: 1, message };
            extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
          };
    const call = queue.then(() => callTool(engine, name, args, progress === undefined ? { signal: extra.signal } : { signal: extra.signal, progress }));
    queue = call.catch(() => undefined);
    return call;
  });

  return server;
}

async function callTool(engine: Engine, name: string, args: Record<string, unknown>, options: RunOptions): Promise<CallToolResult> {
  try {
    // A call cancelled while it waited in the queue does not start.
    options.signal?.throwIfAborted();
    const { result, outputs } = await engine.runJson(name, args, options);
    const text: TextContent = { type: 'text', text: resultJson(result) };
    return { content: [text, ...imageContents(outputs)] };
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

/** Serves MCP on stdin/stdout until stdin closes. */
export async function serveMcpStdio(): Promise<void> {
  // stdout carries protocol messages only. bin/brepscope.js already sends console.log/info/debug to
  // stderr before the kernel loads; repeated here for any other entry point that loads the kernel later.
  for (const level of ['log', 'info', 'debug'] as const) console[level] = console.error.bind(console);

  const server = createMcpServer(createNodeEngine({ meshWorkers: processMeshWorkers() }));
  // A malformed message gets no reply (it has no id to answer); say why on stderr for whoever debugs the client.
  server.onerror = (e) => console.error(`brepscope mcp: ${e.message}`);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    server.onclose = done;
    process.stdin.once('end', done);
    process.stdin.once('close', done);
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
