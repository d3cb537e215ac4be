import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spillFiles } from './spillFiles';

// Issue 35, item 3: MCP results too large to send inline were written to files that were never
// deleted. They now go when the session ends or the process exits, and the oldest go beyond a count
// or a size while it runs.

let parent: string;
beforeAll(() => {
  parent = mkdtempSync(join(tmpdir(), 'brepscope-spill-'));
});
afterAll(() => {
  rmSync(parent, { recursive: true, force: true });
});

const inDir = (name: string): string => mkdtempSync(join(parent, `${name}-`));

describe('MCP result files', () => {
  it('beyond the count, the oldest go first; the kept ones hold their text; dispose removes the directory', () => {
    const spills = spillFiles(inDir('count'), { files: 3, bytes: 1e9 });
    const paths = [1, 2, 3, 4, 5].map((k) => spills.write(`call-${k}.json`, `{"k":${k}}`));
    expect(spills.kept()).toEqual(paths.slice(2));
    expect(paths.map((p) => existsSync(p))).toEqual([false, false, true, true, true]);
    expect(paths.slice(2).map((p) => readFileSync(p, 'utf8'))).toEqual(['{"k":3}', '{"k":4}', '{"k":5}']);
    // Private to this user.
    expect(statSync(paths[4]!).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(paths[4]!)).mode & 0o777).toBe(0o700);
    spills.dispose();
    expect(existsSync(dirname(paths[0]!))).toBe(false);
    expect(spills.kept()).toEqual([]);
  });

  it('beyond the bytes, the oldest go first; the newest is kept even when it alone is over', () => {
    const spills = spillFiles(inDir('bytes'), { files: 100, bytes: 10 });
    const a = spills.write('a.json', 'aaaa');
    const b = spills.write('b.json', 'bbbb');
    expect(spills.kept()).toEqual([a, b]); // 8 bytes
    const c = spills.write('c.json', 'cccc'); // 12 > 10: a goes
    expect(spills.kept()).toEqual([b, c]);
    expect(existsSync(a)).toBe(false);
    const big = spills.write('big.json', 'x'.repeat(25));
    expect(spills.kept()).toEqual([big]);
    expect([b, c].some((p) => existsSync(p))).toBe(false);
    expect(readFileSync(big, 'utf8')).toHaveLength(25);
    spills.dispose();
  });

  it("directories left by servers that were killed are removed at the first write; a live server's and other files are not", () => {
    const dir = inDir('orphans');
    // The id of a process that has ended.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const orphan = join(dir, `brepscope-mcp-results-${gone}-abc123`);
    const live = join(dir, `brepscope-mcp-results-${process.pid}-def456`);
    const other = join(dir, 'brepscope-mcp-results-notapid');
    for (const d of [orphan, live, other]) {
      mkdirSync(d);
      writeFileSync(join(d, 'call-1-display_mesh.json'), '{}');
    }
    const spills = spillFiles(dir, { files: 2, bytes: 1e9 });
    expect(existsSync(orphan)).toBe(true); // nothing before the first write
    const path = spills.write('call-7.json', '{}');
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(live) && existsSync(other)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([basename(other), basename(live), basename(dirname(path))].sort());
    spills.dispose();
  });

  it('a process that exits without closing its session (process.exit) removes its result files', async () => {
    const dir = inDir('exit');
    const script = join(dir, 'spill.ts');
    const module = fileURLToPath(new URL('./spillFiles.ts', import.meta.url));
    writeFileSync(script, `import { spillFiles } from ${JSON.stringify(module)};\nconst path = spillFiles(${JSON.stringify(dir)}).write('call-1.json', '{"big":true}');\nprocess.stdout.write(path + '\\n', () => process.exit(0));\n`);
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.once('close', done));
    expect(code, err).toBe(0);
    const written = out.trim();
    expect(written.startsWith(join(dir, `brepscope-mcp-results-${child.pid}-`)), out).toBe(true);
    expect(existsSync(dirname(written))).toBe(false);
    expect(readdirSync(dir)).toEqual(['spill.ts']);
  });
});

