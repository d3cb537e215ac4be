import { beforeEach, describe, expect, it } from 'vitest';
import { alignmentWords, checkAlignment, faceIndices, gdtStore, highlightFaces, reportCharacteristics, toneOf, type GdtResult } from './gdt';
import { inspectStore, type AlignmentState } from './stores';

const row = (id: string, pass: boolean | null) => ({ id, kind: 'flatness', nominal: 0, actual: 0, tolerance: 0.2, upper: null, lower: null, bonus: 0, pass, faces: ['face[1]'], samples: 20, datums: [], method: 'minimum zone' });

describe('GD&T page state (issue 30.4)', () => {
  beforeEach(() => {
    gdtStore.setState({ pmi: null, check: null, highlight: null, onDatums: false });
    inspectStore.setState({ alignment: null });
  });

  it('face ids: face[N] become indices, edges and vertices are left out', () => {
    expect(faceIndices(['face[3]', 'edge[2]', 'face[10]', 'vertex[0]', 'face[x]'])).toEqual([3, 10]);
  });

  it('a click highlights the faces with the verdict\'s tone; the same entry again lets go; another replaces it', () => {
    highlightFaces('part', 'tolerance[0]', ['face[4]', 'face[5]'], toneOf(false));
    expect(gdtStore.getState().highlight).toEqual({ bodyId: 'part', key: 'tolerance[0]', faces: [4, 5], tone: 'fail' });
    highlightFaces('part', 'tolerance[0]', ['face[4]', 'face[5]'], 'fail');
    expect(gdtStore.getState().highlight).toBeNull();
    highlightFaces('part', 'datum A', ['face[1]'], 'pmi');
    highlightFaces('part', 'dimension[2]', ['face[7]'], toneOf(null));
    expect(gdtStore.getState().highlight).toMatchObject({ key: 'dimension[2]', faces: [7], tone: 'unknown' });
    expect(toneOf(true)).toBe('pass');
  });

  it('the report asks for the characteristics of the last check on the same pair only', () => {
    expect(reportCharacteristics('scan', 'part')).toEqual({});
    const result = { characteristics: [row('tolerance[5]', true), row('dimension[3]', null)], datums: [], samples: { total: 0, assigned: 0, border: 0, far: 0, borderMargin: 0 }, warnings: [] } as unknown as GdtResult;
    gdtStore.setState({ check: { nominalBodyId: 'part', actualBodyId: 'scan', status: 'done', result } });
    expect(reportCharacteristics('scan', 'part')).toEqual({ characteristics: ['tolerance[5]', 'dimension[3]'] });
    expect(reportCharacteristics('other', 'part')).toEqual({});
    expect(reportCharacteristics('scan', 'other')).toEqual({});
  });

  it('the check sends the current alignment: a proposed one of the pair as its transform, an applied one not again; datums on request', () => {
    const T = [[1, 0, 0, 0.5], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]];
    const alignment = (status: AlignmentState['status'], outcome = 'aligned', moving = 'scan') =>
      inspectStore.setState({ alignment: { origin: 'align', movingBodyId: moving, fixedBodyId: 'part', status, result: { outcome, transform: T } } as unknown as AlignmentState });
    expect(checkAlignment('scan', 'part', false)).toBeNull();
    expect(checkAlignment('scan', 'part', true)).toEqual({ method: 'datums' });
    alignment('proposed');
    expect(checkAlignment('scan', 'part', false)).toEqual({ method: 'transform', transform: T });
    expect(checkAlignment('scan', 'part', true)).toEqual({ method: 'datums', transform: T });
    expect(checkAlignment('other', 'part', false)).toBeNull();
    alignment('applied');
    expect(checkAlignment('scan', 'part', false)).toBeNull();
    alignment('proposed', 'alreadyAligned');
    expect(checkAlignment('scan', 'part', false)).toBeNull();
    const result = (a?: object) => ({ characteristics: [], ...(a ? { alignment: a } : {}) }) as unknown as GdtResult;
    expect(alignmentWords(result())).toBe('read where it stands');
    expect(alignmentWords(result({ method: 'datums', datums: ['A', 'B', 'C'], transform: T }))).toBe('fitted to the datums A | B | C');
    expect(alignmentWords(result({ method: 'transform', transform: T }))).toBe('read with the proposed alignment (not applied)');
  });
});
