import { describe, expect, it } from 'vitest';
import { toolManifests } from '../engine/tools/registry';
import { sceneTools } from './toolRuns';

describe('the tool panel order (issue 29)', () => {
  const manifests = toolManifests();
  const listed = sceneTools(manifests).map((m) => m.name);

  it('offers what a new user needs first and set_placement last', () => {
    expect(listed.slice(0, 3)).toEqual(['compute_metrics', 'validate_geometry', 'measure_deviation']);
    expect(listed[listed.length - 1]).toBe('set_placement');
  });

  it('keeps every scene tool once and no scene-building tool', () => {
    const scene = manifests.filter((m) => m.category === 'scene').map((m) => m.name);
    expect([...listed].sort()).toEqual([...scene].sort());
    expect(listed).not.toContain('import_file');
  });

  it('keeps the registry order among the tools it does not rank', () => {
    const ranked = new Set(['compute_metrics', 'validate_geometry', 'measure_deviation', 'inspection_report', 'recognize_features', 'read_pmi', 'set_placement']);
    const middle = listed.filter((n) => !ranked.has(n));
    const registry = manifests.filter((m) => m.category === 'scene' && !ranked.has(m.name)).map((m) => m.name);
    expect(middle).toEqual(registry);
    expect(middle.length).toBeGreaterThan(5);
  });
});
