import { expect, test } from './fixtures/fixtures';

/** The tool panel on screw.step (BREP) and shape.stl (mesh): forms generated from the registry's schemas. */
test.describe.configure({ mode: 'serial' });

test('the panel offers every scene tool of the registry, and no scene-building one', async ({ partsApp: app }) => {
  const tools = await app.api.panelTools();
  for (const name of ['validate_geometry', 'compute_metrics', 'query_topology', 'measure_distance', 'recognize_features']) expect(tools).toContain(name);
  expect(tools).not.toContain('import_file');
  expect(tools).not.toContain('remove_body');
});

test('query_topology from its form: a result table', async ({ partsApp: app }, testInfo) => {
  const { tools } = app;
  await tools.choose('query_topology');
  await tools.field('bodyId').selectOption('screw');
  await tools.field('entity').selectOption('face');
  await tools.field('limit').fill('7');
  await expect(tools.field('filter.minArea')).toHaveAttribute('placeholder', /optional/);
  await tools.runButton.click();
  await tools.expectResult('query_topology');
  await expect(tools.result.locator('tbody tr')).toHaveCount(7);
  await expect(tools.result.locator('thead')).toContainText('surfaceType');
  const last = await app.api.lastToolResult();
  expect(last).toMatchObject({ tool: 'query_topology', ok: true, args: { bodyId: 'screw', entity: 'face', limit: 7 } });
  expect((last?.result as { id: string }[]).map((e) => e.id)).toEqual(Array.from({ length: 7 }, (_, i) => `face[${i}]`));
  await app.page.getByText(/^Raw JSON/).click();
  await expect(app.testId('tools.raw-json')).toContainText('"id": "face[0]"');
  await app.shot(testInfo, '03-query-topology-result');
});

test('a bad argument shows the engine INVALID_ARGUMENT next to the form, with the field marked', async ({ partsApp: app }, testInfo) => {
  const { tools } = app;
  await tools.choose('query_topology');
  await tools.field('bodyId').selectOption('screw');
  await tools.field('entity').selectOption('face');
  await tools.field('limit').fill('0');
  await tools.runButton.click();
  await tools.expectError('INVALID_ARGUMENT');
  await expect(tools.error).toContainText('limit');
  await expect(tools.field('limit')).toHaveAttribute('aria-invalid', 'true');
  await app.shot(testInfo, '04-invalid-argument');
  await tools.field('limit').fill('');
});

test('compute_metrics from its form, by keyboard only: the metrics card with a volume in the STEP file\'s unit (mm)', async ({ partsApp: app }) => {
  const { tools } = app;
  await tools.choose('compute_metrics');
  await tools.field('bodyId').selectOption('screw');
  await tools.runButton.focus();
  await app.page.keyboard.press('Enter');
  await expect(app.testId('tools.metric-volume')).toHaveAttribute('data-value', /^\d/);
  // screw.step declares millimetres (issue 20.8): the unit is the file's, not "model units".
  await expect(tools.result).toContainText('mm³');
  app.expectNoConsoleErrors();
});
