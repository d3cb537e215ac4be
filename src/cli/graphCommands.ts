import { InvalidArgumentError, type Command } from 'commander';
import { resolve } from 'node:path';
import type { ToolName } from '../engine';
import { DEFAULT_EDGE_SAMPLES, DEFAULT_UV_SAMPLES, EDGE_CLASSES, SELECT_QUERIES, SELF_INTERSECTION_AUTO_FACE_LIMIT } from '../engine/hostFacts';

/** A graph command of the spec: its command-line form, mapped onto the registry tool that does the work. */
export interface GraphCommand {
  name: string;
  description: string;
  /** Declares the command's arguments and options. */
  configure(cmd: Command): void;
  /** The registry tool and its arguments for these command-line arguments. */
  call(args: string[], opts: Record<string, unknown>): { tool: ToolName; args: Record<string, unknown> };
  /** The result can be large: print it as compact JSON, written piece by piece. */
  stream?: boolean;
}

/** Paths are resolved here so that `a.brep` and `./a.brep` count as the same file. */
const abs = (p: string): string => resolve(p);

function integer(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\s*-?\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`expected an integer >= ${min}`);
    return n;
  };
}

const arg = (args: string[], i: number): string => args[i]!;

const OVERWRITE_HELP = 'replace <out> if it exists (never the input, never a file loaded in the scene)';

/** overwrite: true when --overwrite was given (the tools refuse an existing output otherwise: FILE_EXISTS). */
const overwrite = (opts: Record<string, unknown>): Record<string, unknown> => (opts['overwrite'] === true ? { overwrite: true } : {});

/** Options commander parsed, without the ones not given. */
function given(opts: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((n) => opts[n] !== undefined).map((n) => [n, opts[n]]));
}

/** The topology-graph commands of the spec (docs/graph.md). */
export const GRAPH_COMMANDS: GraphCommand[] = [
  {
    name: 'graph-validate',
    description: 'validate the topology graph of a BREP file: isValid, errorCount, warningCount, healthRecord',
    configure: (cmd) =>
      cmd
        .argument('<shape.brep>', 'BREP file')
        .option('--self-intersection', 'always run the (slow) self-intersection check')
        .option('--no-self-intersection', `never run it (default: run it up to ${SELF_INTERSECTION_AUTO_FACE_LIMIT} faces)`),
    call: (args, opts) => {
      const si = opts['selfIntersection'];
      return { tool: 'graph_validate', args: { path: abs(arg(args, 0)), selfIntersection: si === true ? 'on' : si === false ? 'off' : 'auto' } };
    },
  },
  {
    name: 'graph-compact',
    description: 'drop unreferenced nodes (loose vertices, edges, wires; empty containers) and write the rebuilt BREP',
    configure: (cmd) => cmd.argument('<in.brep>', 'BREP file (never written)').argument('<out.brep>', 'output BREP file').option('--overwrite', OVERWRITE_HELP),
    call: (args, opts) => ({ tool: 'graph_compact', args: { path: abs(arg(args, 0)), outputPath: abs(arg(args, 1)), ...overwrite(opts) } }),
  },
  {
    name: 'graph-dedup',
    description: 'share identical surface and curve geometry and write the rebuilt BREP',
    configure: (cmd) => cmd.argument('<in.brep>', 'BREP file (never written)').argument('<out.brep>', 'output BREP file').option('--overwrite', OVERWRITE_HELP),
    call: (args, opts) => ({ tool: 'graph_dedup', args: { path: abs(arg(args, 0)), outputPath: abs(arg(args, 1)), ...overwrite(opts) } }),
  },
  {
    name: 'graph-export',
    description: 'write the topology graph of a BREP file as a SQLite graph database',
    configure: (cmd) => cmd.argument('<shape.brep>', 'BREP file').argument('<out.sqlite>', 'output SQLite file').option('--overwrite', OVERWRITE_HELP),
    call: (args, opts) => ({ tool: 'graph_export', args: { path: abs(arg(args, 0)), outputPath: abs(arg(args, 1)), ...overwrite(opts) } }),
  },
  {
    name: 'graph-query',
    description: 'summary, counts and valence of a graph database, computed by SQL',
    configure: (cmd) => cmd.argument('<graph.sqlite>', 'graph database written by graph-export'),
    call: (args) => ({ tool: 'graph_query', args: { path: abs(arg(args, 0)) } }),
  },
  {
    name: 'graph-ml',
    description: 'machine-learning JSON of a BREP file: graphs, UV grids with normals and curvatures, edge samples',
    configure: (cmd) =>
      cmd
        .argument('<shape.brep>', 'BREP file')
        .option('--uv-samples <N>', `face UV grid density (N x N per face), default ${DEFAULT_UV_SAMPLES}`, integer(1))
        .option('--edge-samples <N>', `samples per edge curve, default ${DEFAULT_EDGE_SAMPLES}`, integer(1)),
    call: (args, opts) => ({ tool: 'graph_ml', args: { path: abs(arg(args, 0)), ...given(opts, ['uvSamples', 'edgeSamples']) } }),
    stream: true,
  },
  {
    name: 'graph-select',
    description: 'adjacency and selection queries on a BREP file',
    configure: (cmd) =>
      cmd
        .argument('<shape.brep>', 'BREP file')
        .requiredOption('--query <kind>', `one of ${SELECT_QUERIES.join(', ')}`)
        .option('--face <N>', 'face index (face-neighbors)', integer(0))
        .option('--edge <N>', 'edge index (edge-faces)', integer(0))
        .option('--vertex <N>', 'vertex index (vertex-edges)', integer(0))
        .option('--class <C>', `edge class (edges-class): ${EDGE_CLASSES.join(', ')}`),
    call: (args, opts) => ({ tool: 'graph_select', args: { path: abs(arg(args, 0)), ...given(opts, ['query', 'face', 'edge', 'vertex', 'class']) } }),
  },
];
