import { writeFileSync } from 'node:fs';
import { uvSphere, box, grid, seededRandom } from './src/engine/mesh/generators';
import { renderHeatmapPng } from './src/engine/render/heatmapImage';
import { useNodeCanvas } from './src/node/nodeCanvas';
useNodeCanvas();
const out = '/tmp/render-scratch/';
// 1. Many labels on a sphere with a gradient, iso.
const s = uvSphere(10, 192, 96);
const n = s.positions.length / 3;
const grad = Float32Array.from({ length: n }, (_, v) => 0.02 * s.positions[3 * v + 2]! + 0.008 * s.positions[3 * v]!);
const labels = [];
for (let i = 0; i < 14; i++) {
  const a = (2 * Math.PI * i) / 14, z = 8 * Math.sin(3 * a);
  const r = Math.sqrt(100 - z * z);
  const p: [number, number, number] = [r * Math.cos(a), r * Math.sin(a), z];
  const val = 0.02 * p[2] + 0.008 * p[0];
  labels.push({ number: i + 1, point: p, text: `${val >= 0 ? '+' : ''}${val.toFixed(3)} mm${Math.abs(val) > 0.05 ? '\nFAIL' : ''}`, value: val });
}
let r = await renderHeatmapPng({ mesh: s, values: grad, view: 'iso', units: 'mm', title: 'Gradient sphere, 14 labels', caption: 'iso view; tolerance default', labels });
writeFileSync(out + 'labels.png', r.png);
// 2. Open "scan": a wavy sheet with holes of no data, seen obliquely from below (back side).
const g = grid(120, 100);
const rnd = seededRandom(3);
for (let v = 0; v < g.positions.length / 3; v++) {
  const x = g.positions[3 * v]!, y = g.positions[3 * v + 1]!;
  g.positions[3 * v + 2] = 6 * Math.sin(x / 15) * Math.cos(y / 20) + (rnd() - 0.5) * 0.1;
}
const gv = Float32Array.from({ length: g.positions.length / 3 }, (_, v) => 0.4 * Math.sin(g.positions[3 * v]! / 9) * Math.sin(g.positions[3 * v + 1]! / 13));
const nd = Uint8Array.from({ length: g.positions.length / 3 }, (_, v) => (Math.hypot(g.positions[3 * v]! - 70, g.positions[3 * v + 1]! - 30) < 12 ? 1 : 0));
for (let v = 0; v < gv.length; v++) if (Math.hypot(g.positions[3 * v]! - 25, g.positions[3 * v + 1]! - 70) < 8) gv[v] = NaN;
r = await renderHeatmapPng({ mesh: g, values: gv, noData: nd, view: { direction: [0.3, 0.5, 0.6] }, units: 'mm', title: 'Open sheet seen from below', width: 900, height: 600, tolerance: 0.05, labels: [{ number: 1, point: [70, 30, 6 * Math.sin(70 / 15) * Math.cos(30 / 20)], text: 'no data here' }] });
writeFileSync(out + 'sheet-below.png', r.png);
r = await renderHeatmapPng({ mesh: g, values: gv, noData: nd, view: 'iso', units: 'mm', title: 'Open sheet, iso', width: 900, height: 600, tolerance: 0.05, steps: 5 });
writeFileSync(out + 'sheet-iso-banded.png', r.png);
// 3. Box iso with values.
const b = box([0, 0, 0], [40, 20, 11], 20);
const bv = Float32Array.from({ length: b.positions.length / 3 }, (_, v) => 0.01 * (b.positions[3 * v]! - 20));
for (const view of ['iso', 'top', 'bottom', 'right'] as const) {
  r = await renderHeatmapPng({ mesh: b, values: bv, view, units: 'mm', title: `box ${view}`, width: 500, height: 400 });
  writeFileSync(out + `box-${view}.png`, r.png);
}
// 4. 2048.
r = await renderHeatmapPng({ mesh: s, values: grad, view: 'front', units: 'mm', width: 2048, height: 2048, title: '2048 px', labels: labels.slice(0, 5) });
writeFileSync(out + 'big.png', r.png);
