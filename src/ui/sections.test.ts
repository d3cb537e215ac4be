import { describe, expect, it } from 'vitest';
import { sectionPair, worstSigned } from './sections';

describe('sections of the review: the actual against the nominal, the header with the station\'s own sign', () => {
  it('cuts actual against nominal whichever surface the heat map colours', () => {
    // Coloured on the actual: the pair as measured.
    expect(sectionPair({ fromBodyId: 'scan', toBodyId: 'part', nominalBodyId: 'part' }, null)).toEqual({ from: 'scan', to: 'part' });
    // Coloured on the nominal (measured part -> scan): swapped, so the signs read actual minus nominal.
    expect(sectionPair({ fromBodyId: 'part', toBodyId: 'scan', nominalBodyId: 'part' }, null)).toEqual({ from: 'scan', to: 'part' });
    // No roles: the review's pair; no review: the offer.
    expect(sectionPair({ fromBodyId: 'a', toBodyId: 'b' }, null)).toEqual({ from: 'a', to: 'b' });
    expect(sectionPair(null, { from: 'scan', to: 'part' })).toEqual({ from: 'scan', to: 'part' });
  });

  it('the worst station\'s mean keeps its sign (maxAbsSignedSection is a magnitude)', () => {
    const result = {
      worstStation: 2,
      maxAbsSignedSection: 0.1038,
      sections: [
        { station: 0, signedMean: 0.05 },
        { station: 1, signedMean: null },
        { station: 2, signedMean: -0.1038 },
      ],
    };
    expect(worstSigned(result)).toBe(-0.1038);
    expect(worstSigned({ ...result, worstStation: null })).toBeNull();
  });
});
