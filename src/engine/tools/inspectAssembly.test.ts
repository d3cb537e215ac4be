import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { addShapeBody } from '../scene/addShapeBody';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { makeAssemblyFiles } from '../../test/assemblyFixture';
import { dataPath } from '../../test/data';
import { makeBox } from '../../test/kernelShapes';
import type { AssemblyNode, Matrix4 } from './inspectAssembly';

const AS1 = dataPath('cax-if/as1_pe_203.stp');
const S1 = dataPath('cax-if/s1_pe_214.stp');
const I: Matrix4 = [
  [1, 0, 0, 0],
  [0, 1, 0, 0],
  [0, 0, 1, 0],
  [0, 0, 0, 1],
];
const translate = (x: number, y: number, z: number): Matrix4 => [
  [1, 0, 0, x],
  [0, 1, 0, y],
  [0, 0, 1, z],
  [0, 0, 0, 1],
];
/** 90 degrees about z, then (5, 0, 0). */
const PIN_B: Matrix4 = [
  [0, -1, 0, 5],
  [1, 0, 0, 0],
  [0, 0, 1, 0],
  [0, 0, 0, 1],
];
/** 180 degrees about x, then (0, 4, 0). */
const PINS_2: Matrix4 = [
  [1, 0, 0, 0],
  [0, -1, 0, 4],
  [0, 0, -1, 0],
  [0, 0, 0, 1],
];

function expectMatrix(actual: Matrix4, expected: Matrix4): void {
  actual.forEach((row, r) => row.forEach((v, c) => expect(Math.abs(v - expected[r]![c]!)).toBeLessThan(1e-12)));
}

/** The tree without label entries (they differ between documents), matrices rounded to 1e-12 (STEP stores text). */
function shapeOf(n: AssemblyNode): unknown {
  const round = (m: Matrix4) => m.map((row) => row.map((v) => Math.round(v * 1e12) / 1e12 || 0));
  return { name: n.name, shape: n.shape, transform: round(n.transform), world: round(n.worldTransform), children: n.children.map(shapeOf) };
}

let engine: Engine;
let dir: string;
const inspect = (args: object) => engine.runJson('inspect_assembly', args).then((r) => r.result) as Promise<AssemblyNode>;

beforeAll(async () => {
  const oc = await nodeKernel();
  engine = testEngine();
  dir = mkdtempSync(join(tmpdir(), 'brepscope-asm-'));
  const { step, xbf } = makeAssemblyFiles(oc);
  writeFileSync(join(dir, 'machine.step'), step);
  writeFileSync(join(dir, 'machine.xbf'), xbf);
  addShapeBody(oc, engine.scene, 'box', makeBox(oc, 1, 1, 1));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('inspect_assembly', () => {
  it('a two-level STEP assembly written by the kernel: exactly its names, tree and placements', async () => {
    const root = await inspect({ inputPath: join(dir, 'machine.step') });
    expect(root.name).toBe('Machine');
    expect(root.children.map((c) => c.name)).toEqual(['bracket', 'pins-1', 'pins-2']);
    const [bracket, pins1, pins2] = root.children as [AssemblyNode, AssemblyNode, AssemblyNode];
    expect(bracket.shape).toBe('solid');
    expect(bracket.children).toEqual([]);
    expectMatrix(bracket.transform, I);
    expectMatrix(pins1.transform, translate(0, 0, 2));
    expectMatrix(pins2.transform, PINS_2);
    for (const pair of [pins1, pins2]) {
      expect(pair.shape).toBeUndefined();
      expect(pair.children.map((c) => c.name)).toEqual(['pin-A', 'pin-B']);
      expect(pair.children.every((c) => c.shape === 'solid')).toBe(true);
      expectMatrix(pair.children[0]!.transform, I);
      expectMatrix(pair.children[1]!.transform, PIN_B);
    }
    // World placement composes parent then child: pins-2 * pin-B = [[0,-1,0,5],[-1,0,0,4],[0,0,-1,0]].
    expectMatrix(pins2.children[1]!.worldTransform, [
      [0, -1, 0, 5],
      [-1, 0, 0, 4],
      [0, 0, -1, 0],
      [0, 0, 0, 1],
    ]);
    expectMatrix(pins1.children[1]!.worldTransform, [
      [0, -1, 0, 5],
      [1, 0, 0, 0],
      [0, 0, 1, 2],
      [0, 0, 0, 1],
    ]);
  });

  it('the XBF twin gives the same tree as the STEP', async () => {
    const fromStep = await inspect({ inputPath: join(dir, 'machine.step') });
    const fromXbf = await inspect({ inputPath: join(dir, 'machine.xbf') });
    expect(shapeOf(fromXbf)).toEqual(shapeOf(fromStep));
  });

  it('depth limits the traversal and marks cut nodes', async () => {
    const top = await inspect({ inputPath: join(dir, 'machine.step'), depth: 1 });
    expect(top.children).toHaveLength(3);
    expect(top.children[1]!.children).toEqual([]);
    expect(top.children[1]!.truncated).toBe(true);
    expect(top.children[0]!.truncated).toBeUndefined();
    const rootOnly = await inspect({ inputPath: join(dir, 'machine.step'), depth: 0 });
    expect(rootOnly.children).toEqual([]);
    expect(rootOnly.truncated).toBe(true);
  });

  it("CAx-IF AS1: the tree matches the file's own product structure", async () => {
    const root = await inspect({ inputPath: AS1 });
    const text = readFileSync(AS1, 'latin1');
    const products = new Set([...text.matchAll(/PRODUCT\('([^']*)'/g)].map((m) => m[1]!));
    const nauoCount = (text.match(/NEXT_ASSEMBLY_USAGE_OCCURRENCE\(/g) ?? []).length;
    expect(root.name).toBe('AS1_PE_ASM');
    expect(products.has(root.name)).toBe(true);
    expect(root.children.map((c) => c.name)).toEqual(['PLATE', 'L_BRACKET_ASSEMBLY', 'L_BRACKET_ASSEMBLY', 'ROD']);
    // Product-level instances (leaving out each part's own SOLID/COMPOUND representation labels).
    const isPart = (n: AssemblyNode) => n.name !== 'SOLID' && n.name !== 'COMPOUND';
    let instances = 0;
    let maxDepth = 0;
    const relations = new Map<string, string[]>();
    const walk = (n: AssemblyNode, depth: number, product: string) => {
      const kids = n.children.filter(isPart);
      if (kids.length && !relations.has(product)) relations.set(product, kids.map((k) => k.name));
      for (const k of kids) {
        instances++;
        maxDepth = Math.max(maxDepth, depth + 1);
        walk(k, depth + 1, `${product}/${k.name}`.split('/').slice(-1)[0]!);
      }
    };
    walk(root, 0, root.name);
    // plate, 2 x (L-bracket + 3 x (bolt + nut)), rod assembly (rod + 2 nuts): 4 + 2 * (4 + 3 * 2) + 3.
    expect(instances).toBe(27);
    expect(maxDepth).toBe(3);
    // Each distinct parent's component list, counted once, is one NEXT_ASSEMBLY_USAGE_OCCURRENCE per entry.
    expect([...relations.values()].reduce((s, kids) => s + kids.length, 0)).toBe(nauoCount);
    const nutBolt = root.children[1]!.children.find((c) => c.name === 'NUT_BOLT_ASSEMBLY')!;
    expect(nutBolt.children.map((c) => c.name)).toEqual(['BOLT', 'NUT']);
  });

  it('CAx-IF s1_pe_214 (parts in other files): the tree native OCCT reads from the file alone, and a warning naming the files', async () => {
    const root = await inspect({ inputPath: S1 });
    // Native OCCT 7.6.3 (STEPCAFControl_Reader, the file alone in its folder): one root, 5 components, depth 1.
    expect(root.name).toBe('S1_PE_TOP');
    expect(root.children.map((c) => [c.name, c.shape, c.children.length])).toEqual([
      ['MAINBODY', 'compound', 0],
      ['HEAD', 'compound', 0],
      ['TAIL', 'compound', 0],
      ['FOOT', 'compound', 0],
      ['FOOT', 'compound', 0],
    ]);
    expect(root.warnings).toEqual([
      {
        code: 'EXTERNAL_REFERENCES',
        message:
          'the file names 4 other STEP file(s) for its parts (mainbody_asm.stp, head_asm.stp, tail_asm.stp, foot_asm.stp); external references are not followed: 5 node(s) stand for them without content (MAINBODY, HEAD, TAIL, FOOT, FOOT)',
      },
    ]);
    // A file that holds its parts has no such warning.
    expect((await inspect({ inputPath: AS1 })).warnings).toBeUndefined();
  });

  it('a scene body gives a single-node tree', async () => {
    expect(await inspect({ bodyId: 'box' })).toEqual({ name: 'box', shape: 'solid', transform: I, worldTransform: I, children: [] });
  });

  it('bad input: neither or both sources, bad depth, missing file, unsupported and corrupt files', async () => {
    await expect(inspect({})).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(inspect({ bodyId: 'box', inputPath: AS1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(inspect({ inputPath: AS1, depth: -1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(inspect({ inputPath: AS1, depth: 1.5 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(inspect({ bodyId: 'ghost' })).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
    await expect(inspect({ inputPath: join(dir, 'missing.step') })).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    writeFileSync(join(dir, 'mesh.stl'), 'solid x\nendsolid x\n');
    await expect(inspect({ inputPath: join(dir, 'mesh.stl') })).rejects.toMatchObject({ code: 'UNSUPPORTED_FORMAT' });
    writeFileSync(join(dir, 'broken.step'), 'ISO-10303-21;\nHEADER;\ngarbage\n');
    await expect(inspect({ inputPath: join(dir, 'broken.step') })).rejects.toMatchObject({ code: 'PARSE_FAILED' });
    for (const empty of ['empty.step', 'empty.igs', 'empty.xbf']) {
      writeFileSync(join(dir, empty), '');
      await expect(inspect({ inputPath: join(dir, empty) })).rejects.toMatchObject({ code: 'EMPTY_FILE', message: `${join(dir, empty)}: the file is empty` });
    }
    // The engine still works after the failures.
    expect((await inspect({ inputPath: join(dir, 'machine.xbf'), depth: 0 })).name).toBe('Machine');
  });
});
