import { InvalidArgumentError, type Command } from 'commander';
import { resolve } from 'node:path';
import { runGraphCompact, runGraphDedup, runGraphExport, runGraphMl, runGraphQuery, runGraphSelect, runGraphValidate } from '../engine/graph/commands';
import { DEFAULT_EDGE_SAMPLES, DEFAULT_UV_SAMPLES } from '../engine/graph/graphMl';
import { EDGE_CLASSES, SELECT_QUERIES } from '../engine/graph/graphSelect';
import { SELF_INTERSECTION_AUTO_FACE_LIMIT } from '../engine/graph/graphValidate';
import { nodeKernel } from '../node/nodeEngine';
import { nodeFiles } from '../node/nodeFiles';
import { nodeSqlJs } from '../node/nodeSqlJs';

export interface GraphCommand {
  name: string;
  description: string;
  /** Declares the command's arguments and options. */
  configure(cmd: Command): void;
  run(args: string[], opts: Record<string, unknown>): Promise<unknown>;
  /** The result can be large: print it as compact JSON, written piece by piece. */
  stream?: boolean;
}

const host = { files: nodeFiles, kernel: nodeKernel, sqlJs: nodeSqlJs };

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
    run: (args, opts) => {
      const si = opts['selfIntersection'];
      return runGraphValidate(host, abs(arg(args, 0)), { selfIntersection: si === true ? 'on' : si === false ? 'off' : 'auto' });
    },
  },
  {
    name: 'graph-compact',
    description: 'drop unreferenced nodes (loose vertices, edges, wires; empty containers) and write the rebuilt BREP',
    configure: (cmd) => cmd.argument('<in.brep>', 'BREP file (never written)').argument('<out.brep>', 'output BREP file'),
    run: (args) => runGraphCompact(host, abs(arg(args, 0)), abs(arg(args, 1))),
  },
  {
    name: 'graph-dedup',
    description: 'share identical surface and curve geometry and write the rebuilt BREP',
    configure: (cmd) => cmd.argument('<in.brep>', 'BREP file (never written)').argument('<out.brep>', 'output BREP file'),
    run: (args) => runGraphDedup(host, abs(arg(args, 0)), abs(arg(args, 1))),
  },
  {
    name: 'graph-export',
    description: 'write the topology graph of a BREP file as a SQLite graph database',
    configure: (cmd) => cmd.argument('<shape.brep>', 'BREP file').argument('<out.sqlite>', 'output SQLite file'),
    run: (args) => runGraphExport(host, abs(arg(args, 0)), abs(arg(args, 1))),
  },
  {
    name: 'graph-query',
    description: 'summary, counts and valence of a graph database, computed by SQL',
    configure: (cmd) => cmd.argument('<graph.sqlite>', 'graph database written by graph-export'),
    run: (args) => runGraphQuery(host, abs(arg(args, 0))),
  },
  {
    name: 'graph-ml',
    description: 'machine-learning JSON of a BREP file: graphs, UV grids with normals and curvatures, edge samples',
    configure: (cmd) =>
      cmd
        .argument('<shape.brep>', 'BREP file')
        .option('--uv-samples <N>', `face UV grid density (N x N per face), default ${DEFAULT_UV_SAMPLES}`, integer(1))
        .option('--edge-samples <N>', `samples per edge curve, default ${DEFAULT_EDGE_SAMPLES}`, integer(1)),
    run: (args, opts) => {
      const options: { uvSamples?: number; edgeSamples?: number } = {};
      if (opts['uvSamples'] !== undefined) options.uvSamples = opts['uvSamples'] as number;
      if (opts['edgeSamples'] !== undefined) options.edgeSamples = opts['edgeSamples'] as number;
      return runGraphMl(host, abs(arg(args, 0)), options);
    },
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
    run: (args, opts) =>
      runGraphSelect(host, abs(arg(args, 0)), {
        query: opts['query'] as string,
        face: opts['face'] as number | undefined,
        edge: opts['edge'] as number | undefined,
        vertex: opts['vertex'] as number | undefined,
        class: opts['class'] as string | undefined,
      }),
  },
];
