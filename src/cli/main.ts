import { Command, CommanderError } from 'commander';
import { BrepscopeError, jsonChunks, resultJson, toErrorPayload, type ErrorPayload } from '../engine';
import { createNodeEngine, processMeshWorkers } from '../node/nodeEngine';
import { GRAPH_COMMANDS } from './graphCommands';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const defaultIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
};

/** Exit codes: 0 success, 2 bad input, 1 internal failure. */
const INTERNAL_CODES = new Set(['INTERNAL_ERROR', 'KERNEL_ERROR', 'KERNEL_ABORTED', 'KERNEL_UNAVAILABLE', 'WRITE_FAILED']);


/** Runs the command line; prints one JSON value on stdout and returns the exit code. */
export async function main(argv: string[], io: CliIo = defaultIo): Promise<number> {
  let exitCode = 0;
  const printJson = (value: unknown): void => io.stdout(resultJson(value, 2) + '\n');
  const fail = (payload: ErrorPayload): void => {
    printJson({ error: payload });
    exitCode = INTERNAL_CODES.has(payload.code) ? 1 : 2;
  };

  const program = new Command('brepscope')
    .description('Inspect CAD geometry: exact metrics, topology, deviation; topology-graph commands on BREP files')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  program
    .command('tools')
    .description("every tool's name, description and JSON Schema")
    .action(() => printJson(createNodeEngine().tools()));

  program
    .command('tool')
    .description('run one scene tool on bodies loaded from files')
    .argument('<tool_name>', 'tool to run, e.g. compute_metrics')
    .option('--body <id=path>', 'load a file as a body (repeatable)', collect, [])
    .option('--invalid-body <id=path>', 'load a BREP that may be invalid (allowInvalid)', collect, [])
    .option('--args <json>', 'the tool arguments as one JSON object', '{}')
    .action(async (toolName: string, opts: { body: string[]; invalidBody: string[]; args: string }) => {
      const meshWorkers = processMeshWorkers();
      const engine = createNodeEngine({ meshWorkers });
      const args = parseJsonArgs(opts.args);
      engine.validate(toolName, args);
      // The threads load their code while the bodies are read (measure_deviation is the tool that uses them).
      if (toolName === 'measure_deviation') meshWorkers?.warm();
      // Bodies are loaded without a summary (nobody prints it), so a mesh's topology report is never computed for nothing.
      for (const spec of opts.body) {
        const { id, path } = parseBodySpec(spec, '--body');
        await engine.load({ path, bodyId: id });
      }
      for (const spec of opts.invalidBody) {
        const { id, path } = parseBodySpec(spec, '--invalid-body');
        await engine.load({ path, bodyId: id, format: 'brep' });
      }
      printJson((await engine.runJson(toolName, args)).result);
    });

  program
    .command('mcp')
    .description('serve every tool to AI agents over the Model Context Protocol on stdio (docs/mcp.md)')
    .action(async () => {
      // Loaded on demand: the MCP SDK is not needed by any other command.
      const { serveMcpStdio } = await import('../mcp/server');
      await serveMcpStdio();
    });

  for (const graph of GRAPH_COMMANDS) {
    const cmd = program.command(graph.name).description(graph.description);
    graph.configure(cmd);
    cmd.action(async () => {
      const { tool, args } = graph.call(cmd.args, cmd.opts());
      const { result: value } = await createNodeEngine().runJson(tool, args);
      if (!graph.stream) return printJson(value);
      for (const chunk of jsonChunks(value)) io.stdout(chunk);
      io.stdout('\n');
    });
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.exitCode === 0) return 0; // --help, --version
      fail({ code: 'INVALID_ARGUMENT', message: e.message.replace(/^error: /, '') });
    } else {
      fail(toErrorPayload(e));
    }
  }
  return exitCode;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parseBodySpec(spec: string, flag: string): { id: string; path: string } {
  const eq = spec.indexOf('=');
  if (eq <= 0 || eq === spec.length - 1) throw new BrepscopeError('INVALID_ARGUMENT', `${flag} ${spec}: expected <id>=<path>`);
  return { id: spec.slice(0, eq), path: spec.slice(eq + 1) };
}

function parseJsonArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new BrepscopeError('INVALID_ARGUMENT', `--args: not valid JSON (${(e as Error).message})`);
  }
}
