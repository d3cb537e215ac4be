import { readFileSync } from 'node:fs';
import { jsonChunks } from '../src/engine';
import { buildTopologyGraph } from '../src/engine/graph/topologyGraph';
import { readBrepShape } from '../src/engine/scene/import/brep';
import { createNodeEngine, nodeKernel } from '../src/node/nodeEngine';
import { maxRssMb, round, time, type BenchCase } from './harness';
import { dataPath } from '../src/test/data';

const CRANK = dataPath('occt/CrankArm.brep');

/** graph-ml on CrankArm.brep at the default sampling (16 x 16 per face, 32 per edge); target <= 2 s after the kernel is loaded. */
export const graphCases: BenchCase[] = [
  {
    name: 'graph-ml CrankArm.brep (defaults)',
    async run() {
      const oc = await nodeKernel();
      const engine = createNodeEngine();
      // What the command does after load: read the BREP, build the graph, sample, serialise.
      const full = await time(
        async () => {
          let size = 0;
          for (const chunk of jsonChunks((await engine.run('graph_ml', { path: CRANK })).result)) size += chunk.length;
          return size;
        },
        { warmup: 1, runs: 5 },
      );
      const shape = readBrepShape(oc, readFileSync(CRANK), CRANK);
      const graph = await time(() => buildTopologyGraph(oc, shape), { warmup: 1, runs: 5 });
      shape.delete();
      const ml = (await engine.run('graph_ml', { path: CRANK })).result;
      return {
        faces: ml.faces.length,
        edges: ml.edges.length,
        samples: ml.faces.length * 256 + ml.edges.length * 32,
        totalMs: full.medianMs,
        totalMinMs: full.minMs,
        graphBuildMs: graph.medianMs,
        jsonBytes: full.last,
        jsonMb: round(full.last / 2 ** 20, 2),
        targetMs: 2000,
        meetsTarget: full.medianMs <= 2000,
        maxRssMb: maxRssMb(),
      };
    },
  },
];
