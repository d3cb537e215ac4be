import type { BodySummary } from '../engine';
import type { BodyValidation } from './stores';
import { formatCount } from './format';

/**
 * ok: nothing found; warn: a scan with a few faulty triangles (still measured: the deviation takes
 * its triangles as they are, as GOM and PolyWorks do); bad: a CAD body its kernel check rejects.
 */
export type BadgeTone = 'ok' | 'warn' | 'bad';

export interface ValidityBadge {
  label: string;
  tone: BadgeTone;
  title: string;
  by: string;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${formatCount(n)} ${n === 1 ? one : many}`;

/** What the body list's badge says about a body: its latest validation run, else the import's check. */
export function validityBadge(summary: BodySummary, validation: BodyValidation | undefined): ValidityBadge {
  const scan = summary.kind !== 'brep';
  if (validation) {
    const by = validation.by;
    if (validation.valid) return { label: 'valid', tone: 'ok', title: `${by} finds no error`, by };
    const found = plural(validation.errors, 'error');
    if (scan) return { label: plural(validation.errors, 'mesh issue'), tone: 'warn', title: `${by} found ${found}; a scan with a few faulty triangles is still measured`, by };
    return { label: 'invalid', tone: 'bad', title: `${by} found ${found}`, by };
  }
  return { ...importCheck(summary), by: 'import' };
}

function importCheck(s: BodySummary): Omit<ValidityBadge, 'by'> {
  if (s.kind === 'points') return { label: 'cloud', tone: 'ok', title: 'a point cloud: no surface or topology to check; compare it against a part (it is always the measured side)' };
  if (s.kind === 'mesh') {
    if (!s.valid) return meshDefectBadge(s);
    return s.watertight ? { label: 'valid', tone: 'ok', title: 'closed, manifold, consistently wound' } : { label: 'valid · open', tone: 'ok', title: 'manifold but not closed' };
  }
  return s.valid ? { label: 'valid', tone: 'ok', title: 'BRepCheck_Analyzer finds no fault' } : { label: 'invalid', tone: 'bad', title: 'BRepCheck_Analyzer rejects the shape' };
}

/** A scan's faults counted, the commonest named on the badge, every one in its title. */
function meshDefectBadge(s: BodySummary): Omit<ValidityBadge, 'by'> {
  const d = s.meshDefects;
  const parts = d
    ? [
        d.degenerateTriangles ? plural(d.degenerateTriangles, 'degenerate triangle') : '',
        d.nonManifoldEdges ? plural(d.nonManifoldEdges, 'non-manifold edge') : '',
        d.inconsistentEdges ? plural(d.inconsistentEdges, 'inconsistently wound edge') : '',
      ].filter(Boolean)
    : [];
  const total = d ? d.degenerateTriangles + d.nonManifoldEdges + d.inconsistentEdges : 0;
  const label = parts.length === 1 ? parts[0]! : parts.length > 1 ? plural(total, 'mesh defect') : 'mesh defects';
  const of = s.triangles !== undefined ? ` among ${plural(s.triangles, 'triangle')}` : '';
  const title = `${parts.length ? parts.join(', ') : 'non-manifold, degenerate or inconsistently wound triangles'}${of}. Common in a scan: it is still measured (each triangle as it is); repair it in the scanning software if the count is large.`;
  return { label, tone: 'warn', title };
}
