import type { Page, TestInfo } from '@playwright/test';
import { expect, test, type App } from './fixtures/fixtures';

/**
 * Big meshes never block the page (issue 20.7): a million-triangle scan is parsed in the engine's
 * worker, the viewport's buffers (normals, bounding sphere, picking BVH) are built there too, and
 * everything arrives as moved typed arrays. Long tasks are measured from the drop until the
 * viewport has built the body's geometry, with the viewport's frames held: headless Chromium draws
 * WebGL in software here, and the compositor waits for that frame on the page's thread (seconds for
 * a million triangles; a GPU draws it in milliseconds). The frame's own cost is reported apart.
 */

// Playwright's trace snapshots the page at every call: work on the page's thread that is not the app's.
test.use({ trace: 'off' });

// Retried, limit unchanged: on this 2-core machine a single page task of 66-106 ms comes now and then
// during an import with nothing else running (1 of about 10 CI runs over 100 ms, on the 5M-point
// cloud; 76-77 ms in 2 of 5 runs alone). Its profile is native work on the page's thread ("(program)",
// not the app's JavaScript; a garbage collection by the helper's trace), not yet pinned down. An
// import that blocks the page every time still fails all three tries (docs/app.md, Tests).
test.describe.configure({ retries: 2 });

/** A sphere of 4 n² triangles (n rings of 2n segments), as binary STL or binary PLY, made in the page and kept on window until dropped. */
async function makeScan(page: Page, name: string, n: number, format: 'stl' | 'ply'): Promise<{ triangles: number; bytes: number }> {
  return page.evaluate(
    ([fileName, rings, kind]) => {
      const segs = rings * 2;
      const tris = 2 * rings * segs;
      const R = 40;
      const p = (i: number, j: number) => {
        const th = (Math.PI * i) / rings, ph = (2 * Math.PI * j) / segs;
        return [R * Math.sin(th) * Math.cos(ph), R * Math.sin(th) * Math.sin(ph), R * Math.cos(th)] as const;
      };
      let buf: ArrayBuffer;
      if (kind === 'stl') {
        buf = new ArrayBuffer(84 + 50 * tris);
        const dv = new DataView(buf);
        dv.setUint32(80, tris, true);
        let o = 84;
        const put = (...corners: (readonly number[])[]) => {
          o += 12;
          for (const v of corners)
            for (const x of v) {
              dv.setFloat32(o, x, true);
              o += 4;
            }
          o += 2;
        };
        for (let i = 0; i < rings; i++)
          for (let j = 0; j < segs; j++) {
            const a = p(i, j), b = p(i + 1, j), c = p(i + 1, j + 1), d = p(i, j + 1);
            put(a, b, c);
            put(a, c, d);
          }
      } else {
        // Shared vertices, as scanner software writes PLY: (rings + 1) x segs, faces index them.
        const nv = (rings + 1) * segs;
        const header = new TextEncoder().encode(`ply\nformat binary_little_endian 1.0\nelement vertex ${nv}\nproperty float x\nproperty float y\nproperty float z\nelement face ${tris}\nproperty list uchar int vertex_indices\nend_header\n`);
        buf = new ArrayBuffer(header.length + 12 * nv + 13 * tris);
        new Uint8Array(buf).set(header);
        const dv = new DataView(buf);
        let o = header.length;
        for (let i = 0; i <= rings; i++)
          for (let j = 0; j < segs; j++)
            for (const x of p(i, j)) {
              dv.setFloat32(o, x, true);
              o += 4;
            }
        const v = (i: number, j: number) => i * segs + (j % segs);
        const face = (a: number, b: number, c: number) => {
          dv.setUint8(o, 3);
          dv.setInt32(o + 1, a, true);
          dv.setInt32(o + 5, b, true);
          dv.setInt32(o + 9, c, true);
          o += 13;
        };
        for (let i = 0; i < rings; i++)
          for (let j = 0; j < segs; j++) {
            face(v(i, j), v(i + 1, j), v(i + 1, j + 1));
            face(v(i, j), v(i + 1, j + 1), v(i, j + 1));
          }
      }
      (window as unknown as { __made: File }).__made = new File([buf], fileName);
      return { triangles: tris, bytes: buf.byteLength };
    },
    [name, n, format] as const,
  );
}

/**
 * A cloud of `count` points on a sphere (a spiral, evenly spread) as a binary little-endian PLY with
 * vertices and no faces, as a scanner exports a point cloud; made in the page and kept until dropped.
 */
async function makeCloud(page: Page, name: string, count: number): Promise<{ points: number; bytes: number }> {
  return page.evaluate(
    ([fileName, n]) => {
      const header = new TextEncoder().encode(`ply\nformat binary_little_endian 1.0\nelement vertex ${n}\nproperty float x\nproperty float y\nproperty float z\nend_header\n`);
      const buf = new ArrayBuffer(header.length + 12 * n);
      new Uint8Array(buf).set(header);
      const dv = new DataView(buf, header.length);
      const golden = Math.PI * (3 - Math.sqrt(5));
      for (let i = 0; i < n; i++) {
        const z = 1 - (2 * (i + 0.5)) / n, r = Math.sqrt(1 - z * z), a = golden * i;
        dv.setFloat32(12 * i, 40 * r * Math.cos(a), true);
        dv.setFloat32(12 * i + 4, 40 * r * Math.sin(a), true);
        dv.setFloat32(12 * i + 8, 40 * z, true);
      }
      (window as unknown as { __made: File }).__made = new File([buf], fileName);
      return { points: n, bytes: buf.byteLength };
    },
    [name, count] as const,
  );
}

async function dropMade(page: Page): Promise<void> {
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add((window as unknown as { __made: File }).__made);
    const target = document.querySelector('[data-testid="viewport"]')!;
    for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
}

/** Drops the made file, waits for the viewport's geometry (frames held), returns the page's long tasks meanwhile, then draws the frame. */
async function importBig(app: App, bodyId: string, testInfo: TestInfo): Promise<{ start: number; duration: number }[]> {
  await app.api.holdFrames();
  // The made file's buffer (50 to 60 MB, the test's own) is garbage now: collected before the
  // measurement, so its sweep is not counted as the app's work.
  await app.page.evaluate(() => (window as unknown as { gc?: () => void }).gc?.());
  await app.nextFrames();
  const t0 = await app.now();
  await dropMade(app.page);
  await expect.poll(() => app.api.viewGeometries(), { timeout: 240_000 }).toContain(bodyId);
  const tasks = await app.longTasksSince(t0, 50);
  const t1 = await app.now();
  await app.api.releaseFrames();
  await app.viewport.expectDrawn(0.02);
  const frame = await app.longTasksSince(t1, 50);
  const description = `import (drop to geometry, ${Math.round(t1 - t0)} ms): ${JSON.stringify(tasks.map((t) => Math.round(t.duration)))}; the first frame (software WebGL): ${JSON.stringify(frame.map((t) => Math.round(t.duration)))}`;
  testInfo.annotations.push({ type: `${bodyId}: page tasks over 50 ms`, description });
  console.log(`${bodyId}: page tasks over 50 ms: ${description}`);
  return tasks;
}

test('a 1M-triangle binary STL and a 2M-triangle binary PLY import without a page task over 100 ms', async ({ app }, testInfo) => {
  test.setTimeout(600_000);
  expect(await makeScan(app.page, 'big.stl', 500, 'stl')).toEqual({ triangles: 1_000_000, bytes: 50_000_084 });
  expect((await importBig(app, 'big', testInfo)).filter((t) => t.duration > 100)).toEqual([]);
  expect((await app.api.bodies()).find((b) => b.bodyId === 'big')?.triangles).toBe(1_000_000);
  await app.shot(testInfo, 'big-stl');
  // Issue 22.3: a 2-million-triangle binary PLY (shared vertices, as scanner software writes it).
  expect((await makeScan(app.page, 'bigply.ply', 708, 'ply')).triangles).toBe(2_005_056);
  expect((await importBig(app, 'bigply', testInfo)).filter((t) => t.duration > 100)).toEqual([]);
  expect((await app.api.bodies()).find((b) => b.bodyId === 'bigply')?.triangles).toBe(2_005_056);
  app.expectNoConsoleErrors();
});

test('a 5-million-point PLY cloud imports without a page task over 100 ms and is drawn as points', async ({ app }, testInfo) => {
  test.setTimeout(600_000);
  expect(await makeCloud(app.page, 'cloud.ply', 5_000_000)).toMatchObject({ points: 5_000_000 });
  expect((await importBig(app, 'cloud', testInfo)).filter((t) => t.duration > 100)).toEqual([]);
  const cloud = (await app.api.bodies()).find((b) => b.bodyId === 'cloud');
  expect(cloud).toMatchObject({ kind: 'points' });
  await app.shot(testInfo, 'big-cloud');
  app.expectNoConsoleErrors();
});



