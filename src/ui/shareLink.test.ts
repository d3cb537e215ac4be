import { describe, expect, it } from 'vitest';
import { buildShareHash, MAX_SHARED_RUNS, parseShareHash } from './shareLink';

const hash = (params: [string, string][]) => `#${new URLSearchParams(params).toString()}`;
const invalid = { code: 'INVALID_ARGUMENT', message: expect.any(String) };

/** A placement as list_bodies gives it: a rotation whose entries need all 17 digits. */
const c = Math.cos(0.4363323129985824), s = Math.sin(0.4363323129985824);
const TRANSFORM = [
  [c, -s, 0, 3.000000000000001],
  [s, c, 0, -2],
  [0, 0, 1, 1 / 3],
  [0, 0, 0, 1],
];

describe('share links: parse and write', () => {
  it('round-trip models, a sequence of runs (args bit for bit) and labels', () => {
    const link = {
      models: ['https://example.org/a b/box.stl', 'demo/part.brep'],
      runs: [
        { tool: 'set_placement', args: { bodyId: 'scan', transform: TRANSFORM } },
        { tool: 'compute_metrics' },
        { tool: 'measure_deviation', args: { fromBodyId: 'part', toBodyId: 'scan', signMode: 'nearest' } },
      ],
      labels: [[0, -25, 12.5] as [number, number, number]],
    };
    const written = buildShareHash(link);
    // Each run's tool, then its args, in order.
    expect([...new URLSearchParams(written.slice(1)).keys()]).toEqual(['model', 'model', 'tool', 'args', 'tool', 'tool', 'args', 'label']);
    const parsed = parseShareHash(written);
    expect(parsed).toEqual({ link, errors: [] });
    const transform = (parsed!.link.runs[0]!.args as { transform: number[][] }).transform;
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) expect(Object.is(transform[i]![j], TRANSFORM[i]![j])).toBe(true);
  });

  it('round-trip the inspection: tolerance, verdict rule, roles and title block (issue 29.6); bad values are left out with an error', () => {
    const inspection = { tolerance: 0.15, passShare: 0.995, nominal: 'part', colorOn: 'nominal' as const, titleBlock: { part: 'Bracket & <7>', revision: 'C', serial: 'SN 42', operator: 'Ann', date: '2026-11-27' } };
    const written = buildShareHash({ models: ['demo/part.brep'], runs: [], inspection });
    expect(new URLSearchParams(written.slice(1)).get('tol')).toBe('0.15');
    expect(parseShareHash(written)).toEqual({ link: { models: ['demo/part.brep'], runs: [], inspection }, errors: [] });
    const bad = parseShareHash(hash([['model', 'a.stl'], ['tol', '-1'], ['pass', '2'], ['on', 'both'], ['rev', 'B']]));
    expect(bad?.errors).toEqual([invalid, invalid, invalid]);
    expect(bad?.link.inspection).toEqual({ titleBlock: { revision: 'B' } });
  });

  it('read the links written before runs were a sequence as they were: one tool, its args in either order', () => {
    const one = { models: ['https://example.org/box.stl'], runs: [{ tool: 'compute_metrics', args: { bodyId: 'box' } }] };
    expect(parseShareHash(hash([['model', 'https://example.org/box.stl'], ['tool', 'compute_metrics'], ['args', '{"bodyId":"box"}']]))).toEqual({ link: one, errors: [] });
    expect(parseShareHash(hash([['args', '{"bodyId":"box"}'], ['model', 'https://example.org/box.stl'], ['tool', 'compute_metrics']]))).toEqual({ link: one, errors: [] });
    expect(parseShareHash('#tool=list_bodies')).toEqual({ link: { models: [], runs: [{ tool: 'list_bodies' }] }, errors: [] });
  });

  it('is null without model or tool, and leaves out with a coded error what it must not fetch or parse', () => {
    expect(parseShareHash('')).toBeNull();
    expect(parseShareHash('#foo=1')).toBeNull();
    expect(parseShareHash('#model=javascript:alert(1)')).toEqual({ link: { models: [], runs: [] }, errors: [invalid] });
    expect(parseShareHash('#model=file:///etc/passwd')).toEqual({ link: { models: [], runs: [] }, errors: [invalid] });
    expect(parseShareHash('#tool=alert(1)')).toEqual({ link: { models: [], runs: [] }, errors: [invalid] });
    // Broken args: the models still load; the tool does not run with other arguments than the link's.
    expect(parseShareHash('#model=a.stl&tool=compute_metrics&args=%7Bbad')).toEqual({ link: { models: ['a.stl'], runs: [] }, errors: [{ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^args: not valid JSON .*; the tool was not run$/) }] });
    expect(parseShareHash('#model=a.stl&tool=compute_metrics&args=%5B1%5D')).toEqual({ link: { models: ['a.stl'], runs: [] }, errors: [{ code: 'INVALID_ARGUMENT', message: 'args: must be a JSON object; the tool was not run' }] });
    expect(parseShareHash('#model=a.stl&args=%7B%7D')).toEqual({ link: { models: ['a.stl'], runs: [] }, errors: [{ code: 'INVALID_ARGUMENT', message: 'args: given without tool' }] });
    expect(parseShareHash('#model=javascript:x&model=b.stl&tool=compute_metrics')).toEqual({ link: { models: ['b.stl'], runs: [{ tool: 'compute_metrics' }] }, errors: [invalid] });
  });

  it('a bad run leaves out the whole sequence (each may build on the one before), with an error naming it; the models stay', () => {
    const placement = JSON.stringify({ bodyId: 'scan', transform: TRANSFORM });
    const badJson = parseShareHash(hash([['model', 'a.stl'], ['tool', 'set_placement'], ['args', placement], ['tool', 'measure_deviation'], ['args', '{"fromBodyId":']]))!;
    expect(badJson.link).toEqual({ models: ['a.stl'], runs: [] });
    expect(badJson.errors).toEqual([
      { code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^run 2 of 2: args: not valid JSON/) },
      { code: 'INVALID_ARGUMENT', message: "tool: none of the link's 2 runs was run (each may build on the one before)" },
    ]);
    const badName = parseShareHash(hash([['tool', 'set_placement'], ['args', placement], ['tool', 'Measure-Deviation']]))!;
    expect(badName.link.runs).toEqual([]);
    expect(badName.errors[0]).toEqual({ code: 'INVALID_ARGUMENT', message: "run 2 of 2: tool: 'Measure-Deviation' is not a tool name" });
    // An args before any tool, or a second args for one tool: which run it belongs to is not clear.
    const leading = parseShareHash(hash([['args', '{}'], ['tool', 'list_bodies'], ['tool', 'compute_metrics'], ['args', '{}']]))!;
    expect(leading).toEqual({ link: { models: [], runs: [] }, errors: [{ code: 'INVALID_ARGUMENT', message: 'args: given without tool' }] });
    const twice = parseShareHash(hash([['tool', 'list_bodies'], ['args', '{}'], ['args', '{}']]))!;
    expect(twice).toEqual({ link: { models: [], runs: [] }, errors: [{ code: 'INVALID_ARGUMENT', message: 'args: run 1 (list_bodies) has two args' }] });
  });

  it(`carries at most ${MAX_SHARED_RUNS} runs`, () => {
    const runs = (n: number) => Array.from({ length: n }, () => ({ tool: 'list_bodies' }));
    expect(parseShareHash(buildShareHash({ models: [], runs: runs(MAX_SHARED_RUNS) }))!.link.runs).toHaveLength(MAX_SHARED_RUNS);
    expect(parseShareHash(buildShareHash({ models: [], runs: runs(MAX_SHARED_RUNS + 1) }))).toEqual({
      link: { models: [], runs: [] },
      errors: [{ code: 'INVALID_ARGUMENT', message: `tool: ${MAX_SHARED_RUNS + 1} runs, at most ${MAX_SHARED_RUNS}; none was run` }],
    });
  });
});
