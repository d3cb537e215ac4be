import { uvSphere } from '../src/engine/mesh/generators';
import { renderHeatmap, renderHeatmapPng, type HeatmapImageInput } from '../src/engine/render/heatmapImage';
import { useNodeCanvas } from '../src/node/nodeCanvas';
import { round, time, type BenchCase, type Figures } from './harness';

/**
 * The heat-map renderer at scan scale: a 1,000,994-triangle sphere (r = 50) with a per-vertex
 * deviation field (a ripple, NaN on every 211th vertex), drawn iso with 12 callouts, to PNG.
 * Figures split the whole call (raster, legend, callouts, PNG encoding) by image size.
 */
export const renderCases: BenchCase[] = [
  {
    name: 'render: heat-map PNG of a 1M-triangle mesh (800x600, 1024x768, 2048x2048)',
    async run() {
      useNodeCanvas();
      const mesh = uvSphere(50, 1003, 500);
      const n = mesh.positions.length / 3;
      const values = new Float32Array(n);
      for (let v = 0; v < n; v++) {
        const x = mesh.positions[3 * v]!, y = mesh.positions[3 * v + 1]!, z = mesh.positions[3 * v + 2]!;
        values[v] = v % 211 === 0 ? NaN : 0.3 * Math.sin(x / 7) * Math.cos(y / 9) + 0.05 * (z / 50);
      }
      const labels = Array.from({ length: 12 }, (_, i) => {
        const a = (2 * Math.PI * i) / 12;
        return { number: i + 1, point: [50 * Math.cos(a), 50 * Math.sin(a), 0] as [number, number, number], text: `label ${i + 1}` };
      });
      const figures: Figures = { triangles: mesh.indices.length / 3, vertices: n };
      for (const [width, height] of [
        [800, 600],
        [1024, 768],
        [2048, 2048],
      ] as const) {
        const input: HeatmapImageInput = { mesh, values, view: 'iso', width, height, units: 'mm', title: 'bench', labels };
        const t = await time(() => renderHeatmapPng(input), { warmup: 1, runs: 3 });
        // The same picture without PNG encoding: what the rasterizer, legend and callouts cost.
        const drawn = await time(() => renderHeatmap(input), { warmup: 0, runs: 3 });
        figures[`${width}x${height}`] = { medianMs: t.medianMs, minMs: t.minMs, drawOnlyMedianMs: drawn.medianMs, supersample: t.last.info.supersample, pngKb: round(t.last.png.byteLength / 1024, 1), drawnTriangles: t.last.info.drawnTriangles };
      }
      return figures;
    },
  },
];
