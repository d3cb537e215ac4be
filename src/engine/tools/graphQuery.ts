import { z } from 'zod';
import { queryGraphSqlite, type GraphQueryResult } from '../graph/graphSqlite';
import { getSqlJs } from '../graph/sqlJs';
import { defineTool } from './defineTool';

const schema = z.strictObject({
  path: z.string().min(1).describe('Graph database written by graph_export (graph-export)'),
});

export const graphQuery = defineTool({
  name: 'graph_query',
  description: 'graph-query: summary, counts and valence of a graph database, computed by SQL. Needs no kernel.',
  category: 'graph',
  schema,
  async run(args, ctx): Promise<GraphQueryResult> {
    const bytes = await ctx.files.read(args.path);
    return queryGraphSqlite(await getSqlJs(), bytes, args.path);
  },
});
