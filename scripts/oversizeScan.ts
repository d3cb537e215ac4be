/**
 * An oversize "scan" of a STEP part whose true offset is known, for the journey e2e test
 * (e2e/journey.spec.ts), made with the Node kernel, not the page under test: the part's BRepMesh
 * tessellation at a fine deflection, every node moved `offset` along its face's exact outward normal
 * (src/test/scanFixture.ts). Nodes lie exactly `offset` from the part; a triangle's interior falls
 * short of the offset surface by at most about the deflection. (The page's display mesh, 0.2 % of
 * the diagonal, 0.38 mm on sg1-c5-214, is far coarser than a 0.1 mm offset: a scan made from it read
 * +0.035 instead of +0.1, its chords cutting inside the curved faces.)
 *
 * Run: npx tsx scripts/oversizeScan.ts <file under test-data> <offset> <deflection> <out>
 * Writes <out>: uint32 node count N, uint32 triangle count T (little endian), N x 3 float32
 * positions, T x 3 uint32 indices. Faces do not share nodes (a scan's patches are not welded at
 * sharp edges).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrepBody } from '../src/engine/scene/Body';
import { createNodeEngine, nodeKernel } from '../src/node/nodeEngine';
import { scanOfPart } from '../src/test/scanFixture';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<void> {
  const [file, offsetText, deflectionText, out] = process.argv.slice(2);
  const offset = Number(offsetText), deflection = Number(deflectionText);
  if (!file || !out || !Number.isFinite(offset) || !(deflection > 0)) {
    console.error('usage: npx tsx scripts/oversizeScan.ts <file under test-data> <offset> <deflection> <out>');
    process.exit(2);
  }
  const engine = createNodeEngine();
  await engine.run('import_file', { path: path.resolve(ROOT, 'test-data', file), bodyId: 'part' });
  const oc = await nodeKernel();
  const mesh = scanOfPart(oc, (engine.scene.get('part') as BrepBody).shape, { deflection, offset, sigma: 0, seed: 1 });
  const n = mesh.positions.length / 3, t = mesh.indices.length / 3;
  const bytes = Buffer.alloc(8 + 12 * n + 12 * t);
  bytes.writeUInt32LE(n, 0);
  bytes.writeUInt32LE(t, 4);
  Buffer.from(Float32Array.from(mesh.positions).buffer).copy(bytes, 8);
  Buffer.from(Uint32Array.from(mesh.indices).buffer).copy(bytes, 8 + 12 * n);
  writeFileSync(out, bytes);
  console.log(`${out}: ${n} nodes, ${t} triangles, offset ${offset}, deflection ${deflection}`);
}

await main();
process.exit(0);
