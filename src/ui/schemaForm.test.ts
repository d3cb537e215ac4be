import { describe, expect, it } from 'vitest';
import { parseArgs } from '../engine/tools/parseArgs';
import { findTool, toolManifests } from '../engine/tools/registry';
import { BrepscopeError } from '../engine/errors';
import { argsOf, fieldsNamedIn, fieldsOf, placeholderOf, valuesOf, type FieldSpec } from './schemaForm';

const manifest = (name: string) => {
  const m = toolManifests().find((t) => t.name === name);
  if (!m) throw new Error(`no tool ${name}`);
  return m;
};
const field = (fields: FieldSpec[], path: string) => {
  const all = fields.flatMap((f) => (f.kind === 'object' ? [f, ...f.fields] : [f]));
  const f = all.find((x) => x.path === path);
  if (!f) throw new Error(`no field ${path}`);
  return f;
};

describe('tool forms from the registry JSON Schemas', () => {
  it('every scene tool gets a form whose fields are all of a known kind except real free-form JSON', () => {
    // Issue 16's picture and report tools take lists of views (names or {direction, up, name}),
    // sizes as a number or a pair, and lists of points; set_placement a 4x4 matrix; evaluate_gdt lists of
    // characteristics (PMI ids or written out), datum features and an alignment (datums or a 4x4);
    // inspection_report characteristics (true or ids): JSON text in the form, named here one by one.
    const freeForm = new Set(['evaluate_gdt.alignment', 'inspection_report.characteristics', 'deviation_labels.points', 'signed_deviation_heatmap.views', 'signed_deviation_heatmap.size', 'signed_deviation_heatmap.labels.points', 'inspection_report.views', 'inspection_report.size', 'inspection_report.labels', 'set_placement.transform', 'evaluate_gdt.characteristics', 'evaluate_gdt.datums', 'align_bodies.datums']);
    const found: string[] = [];
    for (const m of toolManifests().filter((t) => t.category === 'scene')) {
      const fields = fieldsOf(m.inputSchema);
      expect(fields.length, m.name).toBeGreaterThan(0);
      const walk = (list: typeof fields) => {
        for (const f of list) {
          if (f.kind === 'object') walk(f.fields);
          else if (freeForm.has(`${m.name}.${f.path}`)) found.push(`${m.name}.${f.path}`);
          else expect(f.kind, `${m.name}.${f.path}`).not.toBe('json');
        }
      };
      walk(fields);
    }
    // Each named field exists and is still free-form: the list cannot hide a new one.
    expect(found.sort()).toEqual([...freeForm].sort());
  });

  it('maps kinds: body selects, enums, enum lists, integers with bounds, booleans with defaults, nested objects', () => {
    const topo = fieldsOf(manifest('query_topology').inputSchema);
    expect(field(topo, 'bodyId')).toMatchObject({ kind: 'bodyId', required: true });
    expect(field(topo, 'entity')).toMatchObject({ kind: 'enum', options: ['face', 'edge', 'vertex'], required: true });
    expect(field(topo, 'limit')).toMatchObject({ kind: 'number', integer: true, min: 1, required: false });
    expect(field(topo, 'limit')).not.toHaveProperty('max');
    expect(field(topo, 'filter')).toMatchObject({ kind: 'object' });
    expect(field(topo, 'filter.minArea')).toMatchObject({ kind: 'number', integer: false, min: 0 });

    const metrics = fieldsOf(manifest('compute_metrics').inputSchema);
    expect(field(metrics, 'metrics')).toMatchObject({ kind: 'enumList' });

    const validate = fieldsOf(manifest('validate_geometry').inputSchema);
    expect(field(validate, 'bodyId')).toMatchObject({ kind: 'bodyId', required: false });
    expect(field(validate, 'checkSelfIntersection')).toMatchObject({ kind: 'boolean', defaultValue: true });
    expect(placeholderOf(field(fieldsOf(manifest('measure_vertex_fit').inputSchema), 'maxVertices'))).toBe('default: 2000');
  });

  it('empty fields are omitted, numbers converted, nested objects built, and the engine accepts the result', () => {
    const topo = fieldsOf(manifest('query_topology').inputSchema);
    const args = argsOf(topo, { bodyId: 'b', entity: 'face', limit: ' 5 ', 'filter.minArea': '2.5', 'filter.surfaceType': '' });
    expect(args).toEqual({ bodyId: 'b', entity: 'face', limit: 5, filter: { minArea: 2.5 } });
    expect(parseArgs(findTool('query_topology'), args)).toMatchObject(args);
    expect(argsOf(topo, { bodyId: 'b', entity: 'edge', 'filter.minArea': '' })).toEqual({ bodyId: 'b', entity: 'edge' });
  });

  it('booleans at their default are left out; a changed one is sent', () => {
    const validate = fieldsOf(manifest('validate_geometry').inputSchema);
    expect(argsOf(validate, { checkSelfIntersection: true })).toEqual({});
    expect(argsOf(validate, { checkSelfIntersection: false })).toEqual({ checkSelfIntersection: false });
  });

  it('a text that is not a number goes to the engine as is, whose INVALID_ARGUMENT names the field the form marks', () => {
    const topo = fieldsOf(manifest('query_topology').inputSchema);
    const args = argsOf(topo, { bodyId: 'b', entity: 'face', limit: 'abc' });
    expect(args.limit).toBe('abc');
    let error: unknown;
    try {
      parseArgs(findTool('query_topology'), args);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BrepscopeError);
    expect((error as BrepscopeError).code).toBe('INVALID_ARGUMENT');
    expect([...fieldsNamedIn((error as BrepscopeError).message, topo)]).toEqual(['limit']);
  });

  it('vec3 fields: all empty is omitted, partial gives null the engine rejects', () => {
    const dev = fieldsOf(manifest('measure_deviation').inputSchema);
    expect(field(dev, 'sectionAxis').kind).toBe('vec3');
    expect(argsOf(dev, { fromBodyId: 'a', toBodyId: 'b', sectionAxis: ['', '', ''] })).toEqual({ fromBodyId: 'a', toBodyId: 'b' });
    expect(argsOf(dev, { fromBodyId: 'a', toBodyId: 'b', sectionAxis: ['0', '0', '1'], sections: '4' })).toEqual({
      fromBodyId: 'a',
      toBodyId: 'b',
      sectionAxis: [0, 0, 1],
      sections: 4,
    });
    expect(argsOf(dev, { sectionAxis: ['1', '', ''] })).toEqual({ sectionAxis: [1, null, null] });
  });

  it('valuesOf shows a link args object in the form, and argsOf gives it back', () => {
    const dev = fieldsOf(manifest('measure_deviation').inputSchema);
    const args = { fromBodyId: 'part', toBodyId: 'scan', sectionAxis: [0, 0, 1], sections: 5, signMode: 'nearest' };
    expect(argsOf(dev, valuesOf(dev, args))).toEqual(args);
    const topo = fieldsOf(manifest('query_topology').inputSchema);
    const t = { bodyId: 'x', entity: 'face', filter: { surfaceType: 'cylinder', maxArea: 3 } };
    expect(argsOf(topo, valuesOf(topo, t))).toEqual(t);
  });
});
