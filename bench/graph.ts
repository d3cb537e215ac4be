import { readFileSync } from 'node:fs';
import { graphMl } from '../src/engine/graph/graphMl';
import { jsonChunks } from '../src/engine/graph/jsonChunks';
import { buildTopologyGraph } from '../src/engine/graph/topologyGraph';
import { readBrepShape } from '../src/engine/scene/import/brep';
import { nodeKernel } from '../src/node/nodeEngine';
import { maxRssMb, round, time, type BenchCase } from './harness';
import { dataPath } from '../src/test/data';

const CRANK = dataPath('occt/CrankArm.brep');

/** graph-ml on CrankArm.brep at the default sampling (16 x 16 per face, 32 per edge); target <= 2 s after the kernel is loaded. */
export const graphCases: BenchCase[] = [
  {
    name: 'graph-ml CrankArm.brep (defaults)',
    async run() {
      const oc = await nodeKernel();
      const bytes = readFileSync(CRANK);
      // What the command does after load: read the BREP, build the graph, sample, serialise.
      const full = await time(
        () => {
          const shape = readBrepShape(oc, bytes, CRANK);
          try {
            let size = 0;
            for (const chunk of jsonChunks(graphMl(oc, shape))) size += chunk.length;
            return size;
          } finally {
            shape.delete();
          }
        },
        { warmup: 1, runs: 5 },
      );
      const shape = readBrepShape(oc, bytes, CRANK);
      const graph = await time(() => buildTopologyGraph(oc, shape), { warmup: 1, runs: 5 });
      const ml = graphMl(oc, shape);
      shape.delete();
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
