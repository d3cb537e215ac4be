import { readFileSync } from 'node:fs';
import { dataPath } from './data';

/**
 * OCCT's valid wedge (occt/wedge_ok.brep) with one vertex moved 3 units off the edges that end at
 * it: BRepCheck rejects the edges and faces around it, yet the file still reads. The text of a BREP
 * stores a vertex as `Ve`, its tolerance, then its point; this edits the point of the vertex at (8, 0, 0).
 */
export function brokenWedgeBrep(): string {
  const text = readFileSync(dataPath('occt/wedge_ok.brep'), 'latin1');
  const broken = text.replace('Ve\n1e-07\n8 0 0\n', 'Ve\n1e-07\n8 3 0\n');
  if (broken === text) throw new Error('brokenWedgeBrep: the vertex at (8, 0, 0) was not found in wedge_ok.brep');
  return broken;
}
