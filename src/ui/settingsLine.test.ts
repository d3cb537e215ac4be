import { describe, expect, it } from 'vitest';
import { deflectionWords } from './settingsLine';

describe("the stats card's deflection words", () => {
  it('name it a search aid where the CAD is exact, the surface where it is tessellated, and drop it between meshes', () => {
    expect(deflectionWords(1.3245678, true, 'exact', true)).toBe('exact CAD faces · search tessellation 1.325 (default)');
    expect(deflectionWords(0.05, false, undefined, true)).toBe('exact CAD faces · search tessellation 0.05');
    expect(deflectionWords(0.05, false, 'tessellated', true)).toBe('CAD as its tessellation, deflection 0.05');
    expect(deflectionWords(0.05, true, 'exact', false)).toBeNull();
  });
});
