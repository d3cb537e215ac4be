import { BrepscopeError } from '../engine/errors';

export interface GraphCommand {
  name: string;
  description: string;
  run(args: string[]): Promise<unknown>;
}

const notYet = (name: string, description: string): GraphCommand => ({
  name,
  description,
  run: () => Promise.reject(new BrepscopeError('NOT_IMPLEMENTED', `${name} is not implemented yet`)),
});

/** The topology-graph commands of the spec; each answers NOT_IMPLEMENTED until its issue lands. */
export const GRAPH_COMMANDS: GraphCommand[] = [
  notYet('graph-validate', 'validate the topology graph of a BREP file'),
  notYet('graph-compact', 'drop unreferenced nodes and write the rebuilt BREP'),
  notYet('graph-dedup', 'share identical surface and curve geometry and write the rebuilt BREP'),
  notYet('graph-export', 'write the topology graph of a BREP file as SQLite'),
  notYet('graph-query', 'summary counts of a graph SQLite file'),
  notYet('graph-ml', 'machine-learning JSON of a BREP file'),
  notYet('graph-select', 'adjacency and selection queries on a BREP file'),
];
