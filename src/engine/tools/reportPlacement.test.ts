import { describe, expect, it } from 'vitest';
import type { Body } from '../scene/Body';
import { placementText } from './inspectionReport';

/** A body placed by a quarter turn about z and a shift of (3, 4, 0): 90 degrees, 5 length units. */
function placed(unit?: 'mm' | 'inch'): Body {
  return {
    name: 'scan',
    lengthUnit: unit ? { unit, declared: unit } : undefined,
    placement: { motion: { r: [0, -1, 0, 1, 0, 0, 0, 0, 1], t: [3, 4, 0] }, setBy: { tool: 'set_placement' } },
  } as unknown as Body;
}

describe("the report's placement of a body reads in the report's unit", () => {
  it('a scan without a unit, read in its nominal\'s mm, moves in mm (it said "model units" under "lengths in mm")', () => {
    expect(placementText(placed(), 'mm')).toBe('placed by set_placement: rotated 90.00°, moved 5.000 (mm)');
  });

  it('a body with its own unit keeps it; a pair without one says model units', () => {
    expect(placementText(placed('inch'), 'model units')).toBe('placed by set_placement: rotated 90.00°, moved 5.000 (inch)');
    expect(placementText(placed(), 'model units')).toBe('placed by set_placement: rotated 90.00°, moved 5.000 (model units)');
  });

  it('says nothing for a body as read', () => {
    expect(placementText({ name: 'part' } as unknown as Body, 'mm')).toBeNull();
  });
});
