import { beforeEach, describe, expect, it } from 'vitest';
import { faceIndices, gdtStore, highlightFaces, reportCharacteristics, toneOf, type GdtResult } from './gdt';

const row = (id: string, pass: boolean | null) => ({ id, kind: 'flatness', nominal: 0, actual: 0, tolerance: 0.2, upper: null, lower: null, bonus: 0, pass, faces: ['face[1]'], samples: 20, datums: [], method: 'minimum zone' });

describe('GD&T page state (issue 30.4)', () => {
  beforeEach(() => gdtStore.setState({ pmi: null, check: null, highlight: null }));

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
});
