import { Command, CommanderError } from 'commander';
import { BrepscopeError, duplicateJsonKey, jsonChunks, resultJson, SCAN_UNIT_NAMES, toErrorPayload, type ErrorPayload, type ScanUnit } from '../engine/hostFacts';
import type { Worker } from 'node:worker_threads';
import { DEFAULT_DEADLINE_MS, EngineHost, type CallOptions } from '../node/EngineHost';
import { addBatchCommands } from './batchCommands';
import type { CliIo } from './cliIo';
import { readStlEarly } from './earlyStl';
import { GRAPH_COMMANDS } from './graphCommands';
import { engineLimits, withLimitOptions } from './limits';

// The engine runs in a worker thread (EngineHost) where a deadline and a memory ceiling can stop it;
// this thread parses the command line and prints, and never loads the engine itself (hostFacts):
// only the STL parser, to read meshes while the engine thread starts (earlyStl.ts).

export type { CliIo } from './cliIo';

const defaultIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
};

/** Exit codes: 0 success, 2 bad input (and a limit reached), 1 internal failure. */
const INTERNAL_CODES = new Set(['INTERNAL_ERROR', 'KERNEL_ERROR', 'KERNEL_ABORTED', 'KERNEL_UNAVAILABLE', 'WRITE_FAILED', 'ENGINE_CRASHED']);

interface LimitFlags {
  deadline?: number;
  maxMemory?: number;
}

/** Runs the command line; prints one JSON value on stdout and returns the exit code. */
/**
 * `engineThread`: an engine thread bin/brepscope.js started before loading this module (it loads
 * while the command line is parsed); ended if the command needs none or sets its own memory ceiling.
 * `exitsAfter`: the caller ends the process once this returns (bin/brepscope.js), so the engine
 * thread is told to stop but not waited for (tens of milliseconds to free its heaps, for nothing).
 */
export async function main(
  argv: string[],
  io: CliIo = defaultIo,
  env: NodeJS.ProcessEnv = process.env,
  engineThread?: Worker,
  options: { exitsAfter?: boolean } = {},
): Promise<number> {
  let exitCode = 0;
  let host: EngineHost | undefined;
  let started = engineThread;
  const printJson = (value: unknown): void => io.stdout(resultJson(value, 2) + '\n');
  const fail = (payload: ErrorPayload): void => {
    printJson({ error: payload });
    exitCode = INTERNAL_CODES.has(payload.code) ? 1 : 2;
  };
  /**
   * The engine for this command, and the share of the command's deadline left for each call: the
   * deadline bounds the whole command (file loads and the tool), as a user waiting for it sees it,
   * except the engine thread's and the kernel's start, which are not the command's work (EngineHost).
   */
  const startEngine = (flags: LimitFlags): { host: EngineHost; budget: () => CallOptions } => {
    const limits = engineLimits(flags, env);
    const deadlineMs = limits.deadlineMs ?? DEFAULT_DEADLINE_MS;
    const endAt = Date.now() + deadlineMs;
    host = EngineHost.start({ ...limits, keepScene: false, thread: started });
    started = undefined;
    const seconds = (ms: number): number => Number((ms / 1000).toFixed(3));
    const engine = host;
    return {
      host: engine,
      budget: () => ({
        deadlineMs: Math.max(1, endAt + engine.startupMs - Date.now()),
        deadlineLabel: `the command's ${seconds(deadlineMs)} s deadline${engine.startupMs ? ` (not counting the engine's start, ${seconds(engine.startupMs)} s)` : ''}`,
      }),
    };
  };

  const program = new Command('brepscope')
    .description('Inspect CAD geometry: exact metrics, topology, deviation; topology-graph commands on BREP files')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  withLimitOptions(program.command('tools').description("every tool's name, description and JSON Schema"), 'the command').action(async (opts: LimitFlags) =>
    printJson(await startEngine(opts).host.tools()),
  );

  withLimitOptions(
    program
      .command('tool')
      .description('run one scene tool on bodies loaded from files')
      .argument('<tool_name>', 'tool to run, e.g. compute_metrics')
      .option('--body <id=path>', 'load a file as a body (repeatable)', collect, [])
      .option('--invalid-body <id=path>', 'load a BREP that may be invalid (allowInvalid)', collect, [])
      .option('--unit <id=unit>', `the length unit of a scan file that declares none, given with --body (${SCAN_UNIT_NAMES.join(', ')}): its coordinates are scaled to millimetres, the unit STEP and IGES parts are read in (repeatable)`, collect, [])
      .option('--align <moving=fixed[:method]>', 'before the tool, align body <moving> to body <fixed> (align_bodies, applied when better than where it stands; method bestFit by default, or fixed:localBestFit:face[2],face[7] or fixed:3-2-1:face[3],face[0],face[5]; repeatable, in order)', collect, [])
      .option('--args <json>', 'the tool arguments as one JSON object (once)', once('--args'), '{}'),
    'the command (loading the files and running the tool)',
  ).action(async (toolName: string, opts: { body: string[]; invalidBody: string[]; unit: string[]; align: string[]; args: string } & LimitFlags) => {
    const args = parseJsonArgs(opts.args);
    const bodies: { id: string; path: string; format?: 'brep' }[] = [
      ...opts.body.map((spec) => parseBodySpec(spec, '--body')),
      ...opts.invalidBody.map((spec) => ({ ...parseBodySpec(spec, '--invalid-body'), format: 'brep' as const })),
    ];
    const alignments = opts.align.map((spec) => parseBodySpec(spec, '--align', '<moving>=<fixed>'));
    const units = parseUnits(opts.unit, bodies);
    const { host: engine, budget } = startEngine(opts);
    // STL files are read and parsed here while the engine thread loads its code.
    // Once per path: the early read's buffers move to the engine with the first body that uses them,
    // so a file given twice (a=X.stl b=X.stl) is read again by the engine for its second body.
    const readEarly = new Set<string>();
    const early = bodies.map(({ path, format }) => {
      if (format || readEarly.has(path)) return undefined;
      readEarly.add(path);
      return readStlEarly(path);
    });
    await engine.validate(toolName, args);
    // Bodies are loaded without a summary (nobody prints it), so a mesh's topology report is never computed for nothing.
    for (const [i, { id, path, format }] of bodies.entries()) {
      const parsed = await early[i];
      await engine.load({ path, bodyId: id, ...(format ? { format } : {}), ...(units.has(id) ? { unit: units.get(id) } : {}), ...parsed }, budget());
    }
    // Each CLI call is a fresh scene: --align places a body before the tool runs, and says on
    // stderr what it did (stdout stays the tool's one JSON value).
    for (const { id: movingBodyId, path: target } of alignments) {
      const { fixedBodyId, method } = parseAlignTarget(target);
      const { result: a } = await engine.run('align_bodies', { movingBodyId, fixedBodyId, apply: true, ...method }, budget());
      const what = a.outcome === 'aligned' ? `rotation ${a.rotationAngleDegrees.toFixed(3)} deg, RMS ${a.rmsBefore.toPrecision(4)} -> ${a.rmsAfter.toPrecision(4)}` : `not moved (${a.outcome}), RMS ${a.rmsBefore.toPrecision(4)}`;
      io.stderr(`align ${movingBodyId} to ${fixedBodyId}${a.method === 'bestFit' ? '' : ` (${a.method})`}: ${what}, ${a.converged ? 'converged' : 'not converged'}${a.warnings.map((w) => `; warning ${w.code}: ${w.message}`).join('')}\n`);
    }
    printJson((await engine.runJson(toolName, args, budget())).result);
  });

  withLimitOptions(
    program
      .command('mcp')
      .description('serve every tool to AI agents over the Model Context Protocol on stdio (docs/mcp.md)')
      .option('--root <dir>', 'a directory the tools may read and write (repeatable; default: the working directory; the client\'s roots are added)', collect, [])
      .option('--log-calls', "one line per tool call on stderr: time, the process's resident memory, the kernel's heap"),
    'each tool call',
  ).action(async (opts: { root: string[]; logCalls?: boolean } & LimitFlags) => {
    // Loaded on demand: the MCP SDK is not needed by any other command.
    const { serveMcpStdio } = await import('../mcp/server');
    await serveMcpStdio({ ...engineLimits(opts, env), roots: opts.root, thread: started, logCalls: opts.logCalls === true });
    started = undefined;
  });

  addBatchCommands(program, io, env, printJson, (code) => {
    exitCode = code;
  });

  for (const graph of GRAPH_COMMANDS) {
    const cmd = withLimitOptions(program.command(graph.name).description(graph.description), 'the command');
    graph.configure(cmd);
    cmd.action(async () => {
      const opts = cmd.opts();
      const { tool, args } = graph.call(cmd.args, opts);
      const { host: engine, budget } = startEngine(opts as LimitFlags);
      const { result: value } = await engine.runJson(tool, args, budget());
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
  } finally {
    const stopped = Promise.all([host?.dispose(), started?.terminate()]);
    if (options.exitsAfter) stopped.catch(() => undefined);
    else await stopped;
  }
  return exitCode;
}

/**
 * An option that may be given once: a second one is refused rather than silently replacing the
 * first (`--args A --args B` ran the tool with B alone). One parser per command line parsed.
 */
function once(flag: string): (value: string, previous: string) => string {
  let seen = false;
  return (value) => {
    if (seen) throw new BrepscopeError('INVALID_ARGUMENT', `${flag} given more than once: give the tool's arguments as one JSON object`);
    seen = true;
    return value;
  };
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parseBodySpec(spec: string, flag: string, form = '<id>=<path>'): { id: string; path: string } {
  const eq = spec.indexOf('=');
  if (eq <= 0 || eq === spec.length - 1) throw new BrepscopeError('INVALID_ARGUMENT', `${flag} ${spec}: expected ${form}`);
  return { id: spec.slice(0, eq), path: spec.slice(eq + 1) };
}

/** `--unit scan=inch`: a unit per body given with --body. */
function parseUnits(specs: string[], bodies: { id: string }[]): Map<string, ScanUnit> {
  const units = new Map<string, ScanUnit>();
  for (const spec of specs) {
    const { id, path: unit } = parseBodySpec(spec, '--unit', '<id>=<unit>');
    if (!bodies.some((b) => b.id === id)) throw new BrepscopeError('INVALID_ARGUMENT', `--unit ${spec}: no --body ${id}=<path> to give it to`);
    if (!(SCAN_UNIT_NAMES as string[]).includes(unit)) throw new BrepscopeError('INVALID_ARGUMENT', `--unit ${spec}: unknown unit '${unit}' (one of ${SCAN_UNIT_NAMES.join(', ')})`);
    units.set(id, unit as ScanUnit);
  }
  return units;
}

function parseJsonArgs(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new BrepscopeError('INVALID_ARGUMENT', `--args: not valid JSON (${(e as Error).message})`);
  }
  const twice = duplicateJsonKey(text);
  if (twice !== undefined) throw new BrepscopeError('INVALID_ARGUMENT', `--args: ${twice} is given twice`);
  return value;
}

/**
 * `--align scan=part[:method]`: method bestFit (default), or localBestFit / 3-2-1 / datums followed
 * by the fixed body's faces, comma-separated (`scan=part:3-2-1:face[3],face[0],face[5]`,
 * `scan=part:localBestFit:face[2],face[7]`).
 */
function parseAlignTarget(target: string): { fixedBodyId: string; method: Record<string, unknown> } {
  const [fixedBodyId, method, faces] = target.split(':');
  const list = faces ? faces.split(',').map((f) => f.trim()).filter(Boolean) : [];
  if (!method || method === 'bestFit') return { fixedBodyId: fixedBodyId!, method: {} };
  if (method === 'localBestFit') return { fixedBodyId: fixedBodyId!, method: { method, faces: list } };
  if (method === '3-2-1' || method === 'datums') return { fixedBodyId: fixedBodyId!, method: { method, datums: list.map((face) => ({ face })) } };
  return { fixedBodyId: fixedBodyId!, method: { method } };
}
