import { dataFile, expect, test } from './fixtures/fixtures';

test('files dropped by a synthetic DataTransfer: the overlay shows while dragging, both bodies are listed, drawn and kept', async ({ app }, testInfo) => {
  await expect(app.scene.empty).toBeVisible();
  await app.dropFiles([dataFile('screw.step'), dataFile('shape.stl')], async () => {
    await expect(app.scene.dropOverlay).toBeVisible();
    await app.shot(testInfo, '01-drag-overlay');
  });
  await expect(app.scene.dropOverlay).toHaveCount(0);
  await app.expectDrawn(['screw', 'shape'], 90_000);
  await expect(app.scene.items).toHaveCount(2);
  await expect(app.scene.body('screw')).toContainText('faces');
  await expect(app.scene.body('shape')).toContainText('triangles');
  await expect(app.scene.validity('screw')).toHaveText('valid');
  await app.viewport.expectDrawn();
  expect((await app.api.keptBodies()).sort()).toEqual(['screw', 'shape']);
  await app.shot(testInfo, '02-dropped');
  app.expectNoConsoleErrors();
});

test('a corrupt file dropped, then a good one: the first gets its coded error from the kernel, the second loads and measures (issue 13)', async ({ app }, testInfo) => {
  // The kernel takes 10 to 30 s to start here, more on a loaded machine: this test is about what it answers.
  test.setTimeout(300_000);
  await expect(app.testId('engine.kernel')).toHaveAttribute('data-status', 'ready', { timeout: 180_000 });
  // A wedge whose first plane has a zero-length normal: its structure passes the checks made before
  // the kernel, so the kernel itself refuses it, in the worker.
  const good = dataFile('wedge_ok.brep');
  const text = good.bytes.toString('latin1');
  const plane = '1 0 0 0 -0 1 0 0 0 1 1 0 -0 ';
  expect(text).toContain(plane);
  const corrupt = { name: 'wedge-zero-normal.brep', bytes: Buffer.from(text.replace(plane, '1 0 0 0 0 0 0 0 0 1 1 0 -0 '), 'latin1') };

  await app.dropFiles([corrupt]);
  await app.scene.expectImportError('PARSE_FAILED', corrupt.name);
  const [error] = await app.api.errors();
  expect(error).toMatchObject({ code: 'PARSE_FAILED', fileName: corrupt.name, message: expect.stringMatching(/^wedge-zero-normal\.brep: .*BRepTools::Read found no shape/) });
  await expect(app.scene.items).toHaveCount(0);
  await app.shot(testInfo, '03-corrupt-dropped');

  await app.dropFiles([good]);
  await app.expectDrawn(['wedge_ok'], 90_000);
  await expect(app.scene.validity('wedge_ok')).toHaveText('valid');
  // At 1024x700, in the left column above the body list, the card's file name has a line of its own
  // under the code and breaks only after a hyphen or a dot (before, squeezed beside the code into a
  // column a few letters wide, it broke mid-word over six lines).
  await app.page.setViewportSize({ width: 1024, height: 700 });
  const breaks = await app.page.locator('[data-testid="scene.import-error"] .error-file').evaluate((el) => {
    const text = el.firstChild as Text;
    const top = (i: number) => {
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      return Math.round(range.getBoundingClientRect().top);
    };
    const out: string[] = [];
    for (let i = 1; i < text.length; i++) if (top(i) !== top(i - 1)) out.push(text.data.slice(0, i));
    return out;
  });
  for (const before of breaks) expect(before, `a line break after "${before}"`).toMatch(/[-._]$/);
  expect(breaks.length).toBeLessThanOrEqual(1);
  await app.shot(testInfo, '04b-error-beside-body-1024x700');
  await app.page.setViewportSize({ width: 1400, height: 860 });
  await app.scene.select('wedge_ok');
  await expect(app.testId('metrics.volume')).toHaveAttribute('data-value', /\d/);
  // The error stays listed for the file it is about; nothing else failed, and the worker was never replaced.
  expect((await app.api.errors()).map((e) => e.code)).toEqual(['PARSE_FAILED']);
  expect((await app.api.keptBodies()).sort()).toEqual(['wedge_ok']);
  expect((await app.api.engine()).notices).toEqual([]);
  await app.shot(testInfo, '04-good-after-corrupt');
  app.expectNoConsoleErrors();
});

test('the same file dropped twice, once renamed: the Actual step says the copy is the nominal\'s own file (SAME_FILE)', async ({ app }, testInfo) => {
  test.setTimeout(300_000);
  const part = dataFile('wedge_ok.brep');
  // As files dragged from disk: the same bytes; `name` and `lastModified` as given.
  const dropFromDisk = async (name: string, bytes: Buffer, lastModified: number) => {
    const dataTransfer = await app.page.evaluateHandle(({ name, b64, lastModified }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name, { lastModified }));
      return dt;
    }, { name, b64: bytes.toString('base64'), lastModified });
    for (const type of ['dragenter', 'dragover', 'drop']) await app.page.dispatchEvent('[data-testid="viewport"]', type, { dataTransfer });
    await dataTransfer.dispose();
  };
  await dropFromDisk(part.name, part.bytes, 1_700_000_000_000);
  await app.expectDrawn(['wedge_ok'], 180_000);
  await expect(app.testId('step.same-file')).toHaveCount(0);
  // A renamed copy saved later: another name and date, the same content (name, size and date told them apart before).
  await dropFromDisk('wedge_copy.brep', part.bytes, 1_800_000_000_000);
  await app.expectDrawn(['wedge_ok', 'wedge_copy'], 90_000);
  await expect(app.review.step('actual')).toHaveAttribute('data-state', 'warn');
  await expect(app.testId('step.same-file')).toHaveAttribute('data-code', 'SAME_FILE');
  await expect(app.testId('step.same-file')).toHaveText('wedge_copy is the same file as the nominal wedge_ok: compared with itself it reads 0 everywhere. Drop the scan of the part, or remove one of them.');
  await app.shot(testInfo, '05-same-file-renamed');
  // Another file under the nominal's name, size and date (one digit changed): not the same file.
  await app.page.getByRole('button', { name: 'Remove wedge_copy' }).click();
  await app.expectDrawn(['wedge_ok'], 60_000);
  const other = Buffer.from(part.bytes.toString('utf8').replace('10.440306508910551', '10.440306508910552'));
  expect(other.length).toBe(part.bytes.length);
  await dropFromDisk(part.name, other, 1_700_000_000_000);
  await app.expectDrawn(['wedge_ok', 'wedge_ok_2'], 90_000);
  await expect(app.review.step('actual')).toHaveAttribute('data-state', 'done');
  await expect(app.testId('step.same-file')).toHaveCount(0);
});
