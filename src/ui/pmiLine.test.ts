import { describe, expect, it } from 'vitest';
import { toleranceLine } from './PmiPanel';

/** The PMI tree's line for a tolerance reads like its feature control frame, a composite segment named. */
describe('toleranceLine', () => {
  const base = { id: 'tolerance[15]', kind: 'surfaceProfile', name: 'Position surfacic profile.4', value: 0.2, zone: 'width' as const, modifiers: [], datums: ['A'], faces: ['face[4]'] };
  it("names a composite frame's lower segment, and leaves a plain tolerance as drawn", () => {
    expect(toleranceLine({ ...base, composite: { segment: 'lower', with: 'tolerance[14]' } })).toBe('surface profile 0.2 | A (composite, lower segment)');
    expect(toleranceLine({ ...base, zone: 'diameter', kind: 'position', value: 0.75, modifiers: ['maximumMaterial'], datums: ['A', 'B', 'C'] })).toBe('position ⌀0.75 Ⓜ | A | B | C');
  });
});
