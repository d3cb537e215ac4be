import { dataFile, expect, test } from './fixtures/fixtures';

/**
 * Scans as scanners write them (issue 22): a binary PLY mesh and a text point cloud of a STEP part,
 * dropped beside it, compared, the heat map shown on the mesh and on the cloud's points. The scans
 * are made here from the part's own drawn triangles, every vertex moved +B along its normal.
 */
const B = 0.05;
/** A CAX-IF STEP part. (screw.step is not used: main's exact reference misreads points on its face[0], reported to the lead.) */
const PART = 'sg1-c5-214';

interface Drawn {
  positions: number[];
  indices: number[];
}

/** Area-weighted vertex normals of a triangle list, unit length. */
function vertexNormals({ positions: p, indices: idx }: Drawn): Float64Array {
  const n = new Float64Array(p.length);
  for (let t = 0; t < idx.length; t += 3) {
    const [a, b, c] = [idx[t]!, idx[t + 1]!, idx[t + 2]!].map((i) => 3 * i) as [number, number, number];
    const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!, vy = p[c + 1]! - p[a + 1]!, vz = p[c + 2]! - p[a + 2]!;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    for (const v of [a, b, c]) {
      n[v] = n[v]! + nx;
      n[v + 1] = n[v + 1]! + ny;
      n[v + 2] = n[v + 2]! + nz;
    }
  }
  for (let v = 0; v < n.length; v += 3) {
    const len = Math.hypot(n[v]!, n[v + 1]!, n[v + 2]!) || 1;
    n[v] = n[v]! / len;
    n[v + 1] = n[v + 1]! / len;
    n[v + 2] = n[v + 2]! / len;
  }
  return n;
}

function moved(drawn: Drawn): Float32Array {
  const n = vertexNormals(drawn);
  return Float32Array.from(drawn.positions, (x, i) => x + B * n[i]!);
}

/** A binary little-endian PLY with float vertices and int triangle lists, as scanner software writes it. */
function binaryPly(positions: Float32Array, indices: number[]): Buffer {
  const V = positions.length / 3, T = indices.length / 3;
  const head = `ply\nformat binary_little_endian 1.0\ncomment made by the points e2e test\nelement vertex ${V}\nproperty float x\nproperty float y\nproperty float z\nelement face ${T}\nproperty list uchar int vertex_indices\nend_header\n`;
  const body = Buffer.alloc(V * 12 + T * 13);
  for (let i = 0; i < positions.length; i++) body.writeFloatLE(positions[i]!, 4 * i);
  for (let t = 0; t < T; t++) {
    const o = V * 12 + 13 * t;
    body.writeUInt8(3, o);
    for (let k = 0; k < 3; k++) body.writeInt32LE(indices[3 * t + k]!, o + 1 + 4 * k);
  }
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

test('a PLY scan and a text point cloud dropped beside a STEP part: listed, compared, both heat maps shown', async ({ app }, testInfo) => {
  // The CAD kernel starts in the worker first (seconds alone, minutes on a loaded machine).
  test.setTimeout(420_000);
  await app.dropFiles([dataFile('cax-if/sg1-c5-214.stp')]);
  await app.expectDrawn([PART], 300_000);
  const part = (await app.api.drawnMeshes())[PART]!;
  expect(part.indices.length).toBeGreaterThan(300);
  const scan = moved(part);
  // The vertices only: they lie on the exact surface (a chord triangle's inside does not).
  const cloud = [...scan];
  const points = cloud.length / 3;
  const cloudText = 'X Y Z\n' + Array.from({ length: points }, (_, i) => `${cloud[3 * i]} ${cloud[3 * i + 1]} ${cloud[3 * i + 2]}`).join('\n') + '\n';
  await app.dropFiles([
    { name: 'part-scan.ply', bytes: binaryPly(scan, part.indices) },
    { name: 'part-points.txt', bytes: Buffer.from(cloudText) },
  ]);
  await app.expectDrawn([PART, 'part-scan', 'part-points'], 60_000);
  const summaries = await app.api.bodies();
  expect(summaries.find((b) => b.bodyId === 'part-scan')).toMatchObject({ kind: 'mesh', sourceFormat: 'ply', triangles: part.indices.length / 3 });
  expect(summaries.find((b) => b.bodyId === 'part-points')).toMatchObject({ kind: 'points', sourceFormat: 'xyz', points, hasNormals: false });
  await expect(app.scene.body('part-points')).toContainText(`points · no normals`);
  await app.shot(testInfo, 'points-01-dropped');

  // The mesh scan: the actual coloured against the nominal (the usual Compare).
  await expect(app.review.compareButton).toHaveText(`Compare part-scan with ${PART}`);
  await app.review.compare();
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 120_000 }).toBe('done');
  expect(await app.api.heatmap()).toMatchObject({ fromBodyId: 'part-scan', toBodyId: PART });

  // The cloud: its points coloured against the part; the scan lies outside it, so they read proud.
  // Beside the mesh scan's pair, the cloud's own offer: align it to the part (the cloud moves), compare it.
  await expect(app.page.locator('[data-testid="deviation.align-pair"][data-moving="part-points"]')).toHaveText(`Align part-points to ${PART}`);
  const cloudCompare = app.page.locator('[data-testid="deviation.compare-pair"][data-from="part-points"]');
  await expect(cloudCompare).toHaveText(`Compare part-points with ${PART}`);
  await cloudCompare.click();
  await expect.poll(async () => { const h = await app.api.heatmap(); return `${h?.fromBodyId} ${h?.status}`; }, { timeout: 120_000 }).toBe('part-points done');
  await expect.poll(async () => (await app.api.heatmap())?.colorAttribute?.vertices ?? 0).toBe(points);
  const heat = (await app.api.heatmap())!;
  expect(heat).toMatchObject({ fromBodyId: 'part-points', toBodyId: PART });
  expect(heat.signedVertices).toBeGreaterThan(0.95 * points);
  // Every point is +B off the part, the top of the colour range: dark red, never blue.
  expect(heat.colorAttribute!.shy).toBeLessThan(0.02 * points);
  const deviation = await app.api.lastToolResult();
  expect(deviation).toMatchObject({ tool: 'measure_deviation', ok: true, args: { fromBodyId: 'part-points', toBodyId: PART } });
  await expect(app.review.legend).toBeVisible();
  await app.review.expectStats();
  await expect.poll(async () => (await app.viewport.heatPixels()).red).toBeGreaterThan(200);
  await app.shot(testInfo, 'points-02-cloud-heatmap');
  app.expectNoConsoleErrors();
});

/** 25 degrees about a tilted axis, then a shift: the motion the cloud file is written with. */
const TURN = 25;
const AXIS = [0.48, 0.6, 0.64];
function rotationAbout(axis: number[], degrees: number): number[][] {
  const [x, y, z] = axis as [number, number, number];
  const a = (degrees * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a), k = 1 - c;
  return [
    [c + x * x * k, x * y * k - z * s, x * z * k + y * s],
    [y * x * k + z * s, c + y * y * k, y * z * k - x * s],
    [z * x * k - y * s, z * y * k + x * s, c + z * z * k],
  ];
}
const R = rotationAbout(AXIS, TURN);
const SHIFT = [4, -3, 2];
const moveBy = (m: number[][], t: number[], p: number[]) => [0, 1, 2].map((i) => m[i]![0]! * p[0]! + m[i]![1]! * p[1]! + m[i]![2]! * p[2]! + t[i]!);
const centreOf = (p: number[]) => [0, 1, 2].map((k) => p.filter((_, i) => i % 3 === k).reduce((a, b) => a + b, 0) / (p.length / 3));
const gap = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

test('a text point cloud of the part, written misaligned by a known motion: Align proposes the motion back, Apply moves the points, Compare colours them, Undo restores', async ({ app }, testInfo) => {
  // CrankArm: its pose is unique (the STEP part above has a 4-fold symmetry and the demo part a
  // 2-fold one: a noise-free cloud of either fits several poses exactly, and Align rightly says so).
  test.setTimeout(420_000);
  await app.dropFiles([dataFile('CrankArm.brep')]);
  await app.expectDrawn(['CrankArm'], 300_000);
  const part = (await app.api.drawnMeshes()).CrankArm!;
  // The mean of the part's vertices (moved with the cloud) and the centre of its drawn box (where the cloud's box lands when aligned).
  const mean = centreOf(part.positions);
  const home = (await app.api.drawnCentres()).CrankArm!;
  const extent = gap(
    [0, 1, 2].map((k) => Math.min(...part.positions.filter((_, i) => i % 3 === k))),
    [0, 1, 2].map((k) => Math.max(...part.positions.filter((_, i) => i % 3 === k))),
  );
  // The part's drawn vertices lie on its exact surface: an unbiased cloud, moved off the part.
  const points = part.positions.length / 3;
  const lines = Array.from({ length: points }, (_, i) => moveBy(R, SHIFT, part.positions.slice(3 * i, 3 * i + 3)).join(' '));
  await app.dropFiles([{ name: 'crank-points.txt', bytes: Buffer.from(`x y z\n${lines.join('\n')}\n`) }]);
  await app.expectDrawn(['CrankArm', 'crank-points'], 60_000);
  const moved = (await app.api.drawnCentres())['crank-points']!;
  expect(gap(moved, home)).toBeGreaterThan(1);

  // Align the cloud to the part: a proposal, nothing moves yet.
  // The only pair: the cloud is the scan that moves, the part the fixed body (never the other way).
  await expect(app.review.alignButton).toHaveText('Align crank-points to CrankArm');
  await app.review.alignButton.click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'proposed', { timeout: 90_000 });
  const proposal = (await app.api.alignment())!;
  expect(proposal).toMatchObject({ movingBodyId: 'crank-points', fixedBodyId: 'CrankArm' });
  expect(proposal.warnings).toEqual([]);
  expect(Math.abs(proposal.rotationAngleDegrees - TURN)).toBeLessThan(0.1);
  // The proposal is the inverse of the motion: proposal x motion is the identity (within 0.1 degrees).
  const P = proposal.transform;
  const product = [0, 1, 2].map((i) => [0, 1, 2].map((j) => [0, 1, 2].reduce((sum, k) => sum + P[i]![k]! * R[k]![j]!, 0)));
  const residualDegrees = (Math.acos(Math.min(1, (product[0]![0]! + product[1]![1]! + product[2]![2]! - 1) / 2)) * 180) / Math.PI;
  expect(residualDegrees).toBeLessThan(0.1);
  const back = moveBy(P.map((row) => row.slice(0, 3)), P.map((row) => row[3]!), moveBy(R, SHIFT, mean));
  expect(gap(back, mean)).toBeLessThan(0.001 * extent);
  expect(proposal.rmsAfter).toBeLessThan(1e-4 * extent);
  expect(gap((await app.api.drawnCentres())['crank-points']!, moved)).toBeLessThan(1e-9);
  await app.shot(testInfo, 'points-03-cloud-align-proposed');

  // Apply: the points come back onto the part.
  await app.review.alignControl('apply').click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'applied');
  await expect.poll(async () => gap((await app.api.drawnCentres())['crank-points']!, home)).toBeLessThan(0.001 * extent);
  expect((await app.api.bodies()).find((b) => b.bodyId === 'crank-points')!.placement).toMatchObject({ setBy: { tool: 'align_bodies', fixedBodyId: 'CrankArm' } });

  // Compare: the aligned cloud's points coloured against the part; they lie on it.
  await expect(app.review.compareButton).toHaveText('Compare crank-points with CrankArm');
  await app.review.compare({ aligned: true });
  await expect.poll(async () => { const h = await app.api.heatmap(); return `${h?.fromBodyId} ${h?.status}`; }, { timeout: 120_000 }).toBe('crank-points done');
  await expect.poll(async () => (await app.api.heatmap())?.colorAttribute?.vertices ?? 0).toBe(points);
  const deviation = (await app.api.lastToolResult())!;
  expect(deviation).toMatchObject({ tool: 'measure_deviation', ok: true, args: { fromBodyId: 'crank-points', toBodyId: 'CrankArm' } });
  const fromToTo = (deviation.result as { fromToTo: { signedMean: number; max: number } }).fromToTo;
  expect(Math.abs(fromToTo.signedMean)).toBeLessThan(1e-4 * extent);
  expect(fromToTo.max).toBeLessThan(1e-3 * extent);
  await expect(app.review.legend).toBeVisible();
  await app.shot(testInfo, 'points-04-cloud-aligned-heatmap');

  // Undo: back where the file put the points; the heat map of the aligned cloud goes.
  await app.review.alignControl('undo').click();
  await expect(app.review.alignment).toHaveCount(0);
  await expect.poll(async () => (await app.api.heatmap()) === null).toBe(true);
  await expect.poll(async () => gap((await app.api.drawnCentres())['crank-points'] ?? home, moved)).toBeLessThan(1e-6);
  expect((await app.api.bodies()).find((b) => b.bodyId === 'crank-points')!.placement).toBeNull();
  app.expectNoConsoleErrors();
});
