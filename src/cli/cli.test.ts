import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BodySummary } from '../engine/scene/describeBody';
import type { MetricsResult } from '../engine/tools/computeMetrics';
import { TOOLS } from '../engine/tools/registry';
import { createNodeEngine } from '../node/nodeEngine';
import { dataPath } from '../test/data';
import { brokenWedgeBrep } from '../test/invalidBrep';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON value (the CLI contract); parsing throws if it is anything else. */
  json: () => unknown;
}

/** Runs the real binary, `node bin/brepscope.js ...`, from the repo root. */
function brepscope(args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['bin/brepscope.js', ...args], { cwd: ROOT, timeout: 120_000, maxBuffer: 64 * 2 ** 20 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') {
        reject(new Error(`brepscope ${args.join(' ')} did not exit normally: ${error.message}\n${stderr}`));
        return;
      }
      resolve({ code: error ? (error.code as number) : 0, stdout, stderr, json: () => JSON.parse(stdout) as unknown });
    });
  });
}

const BOTTLE = dataPath('occt/bottle.brep');
let dir: string;
let brokenPath: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'brepscope-cli-'));
  brokenPath = join(dir, 'broken.brep');
  writeFileSync(brokenPath, brokenWedgeBrep());
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('brepscope CLI without the kernel (fast)', () => {
  it('tools: every registry tool with a description and an object inputSchema', async () => {
    const r = await brepscope(['tools']);
    expect(r.code).toBe(0);
    const tools = r.json() as { name: string; description: string; inputSchema: Record<string, unknown> }[];
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const t of tools) {
      expect(t.description.length).toBeGreaterThan(0);
      expect(t.inputSchema).toMatchObject({ type: 'object' });
    }
    const metrics = tools.find((t) => t.name === 'compute_metrics')!;
    expect(metrics.inputSchema).toMatchObject({ properties: { bodyId: { type: 'string' } }, required: ['bodyId'] });
  });

  const errorCases: { what: string; args: () => string[]; code: string }[] = [
    { what: 'unknown tool', args: () => ['tool', 'no_such_tool'], code: 'UNKNOWN_TOOL' },
    { what: 'bad --args JSON', args: () => ['tool', 'compute_metrics', '--args', '{bodyId: b'], code: 'INVALID_ARGUMENT' },
    { what: '--args that fail the schema', args: () => ['tool', 'compute_metrics', '--args', '{"bodyId": 7}'], code: 'INVALID_ARGUMENT' },
    { what: 'a --body without =', args: () => ['tool', 'list_bodies', '--body', 'b'], code: 'INVALID_ARGUMENT' },
    { what: 'an unknown option', args: () => ['tool', 'list_bodies', '--frobnicate'], code: 'INVALID_ARGUMENT' },
    { what: 'missing file', args: () => ['tool', 'list_bodies', '--body', `b=${join(dir, 'missing.step')}`], code: 'FILE_NOT_FOUND' },
    { what: 'a body that was not loaded', args: () => ['tool', 'compute_metrics', '--args', '{"bodyId":"b"}'], code: 'BODY_NOT_FOUND' },
    { what: 'a graph command', args: () => ['graph-validate', BOTTLE], code: 'NOT_IMPLEMENTED' },
  ];

  it.each(errorCases)('$what -> exit 2 with code $code', async ({ args, code }) => {
    const r = await brepscope(args());
    expect(r.code).toBe(2);
    expect(r.json()).toEqual({ error: { code, message: expect.any(String) } });
  });
});

describe('brepscope CLI with the kernel (one spawn each)', () => {
  it('tool compute_metrics --body b=bottle.brep: exit 0, the in-process engine\'s figures; kernel chatter stays off stdout', async () => {
    // hammer.iges makes the IGES reader print "Total number of loaded entities": stdout must still be one JSON value.
    const r = await brepscope(['tool', 'compute_metrics', '--body', `b=${BOTTLE}`, '--body', `h=${dataPath('occt/hammer.iges')}`, '--args', '{"bodyId":"b"}']);
    expect(r.code).toBe(0);
    const cli = r.json() as MetricsResult;
    expect(r.stderr).toMatch(/loaded entities/);

    const engine = createNodeEngine();
    await engine.run('import_file', { path: BOTTLE, bodyId: 'b' });
    const local = (await engine.run('compute_metrics', { bodyId: 'b' })) as MetricsResult;
    expect(local.volume).toBeGreaterThan(0);
    expect(Math.abs(cli.volume! - local.volume!)).toBeLessThanOrEqual(1e-12 * local.volume!);
    expect(Math.abs(cli.surfaceArea! - local.surfaceArea!)).toBeLessThanOrEqual(1e-12 * local.surfaceArea!);
    expect(cli.boundingBox).toEqual(local.boundingBox);
    expect(Object.keys(cli).sort()).toEqual(Object.keys(local).sort());
  });

  it('--invalid-body loads an invalid BREP (valid: false) beside a valid one', async () => {
    const r = await brepscope(['tool', 'list_bodies', '--body', `ok=${dataPath('occt/wedge_ok.brep')}`, '--invalid-body', `bad=${brokenPath}`]);
    expect(r.code).toBe(0);
    const { bodies } = r.json() as { bodies: BodySummary[] };
    expect(bodies.map((b) => [b.bodyId, b.kind, b.valid])).toEqual([
      ['ok', 'brep', true],
      ['bad', 'brep', false],
    ]);
    expect(bodies[1]).toMatchObject({ solids: 1, faces: 6 });
  });
});
