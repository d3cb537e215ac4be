import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../Engine';
import { testEngine } from '../../../test/testEngine';
import { dataPath } from '../../../test/data';
import { stepExternalFiles } from './stepExternalRefs';

const S1 = dataPath('cax-if/s1_pe_214.stp');
const text = (s: string): Uint8Array => new TextEncoder().encode(s);

let engine: Engine;
beforeAll(() => {
  engine = testEngine();
});

describe('STEP external references', () => {
  it('names the STEP files a DOCUMENT_FILE refers to, each once, and nothing else', () => {
    // s1_pe_214.stp names foot_asm.stp twice (two FOOT instances).
    expect(stepExternalFiles(new Uint8Array(readFileSync(S1)))).toEqual(['mainbody_asm.stp', 'head_asm.stp', 'tail_asm.stp', 'foot_asm.stp']);
    expect(stepExternalFiles(text("#1=DOCUMENT_FILE('drawing.pdf','','',#2,'','');\n#3=DOCUMENT_FILE( 'it''s.STEP' ,'','',#2,'','');"))).toEqual(["it's.STEP"]);
    expect(stepExternalFiles(new Uint8Array(readFileSync(dataPath('cax-if/as1_pe_203.stp'))))).toEqual([]);
  });

  it('import_file of an assembly whose parts are all in other files: PARSE_FAILED naming them, and the engine goes on', async () => {
    // Native OCCT 7.6.3 STEPControl_Reader transfers no shape from this file either (NbShapes 0).
    const run = engine.run('import_file', { path: S1 });
    await expect(run).rejects.toMatchObject({
      code: 'PARSE_FAILED',
      message: expect.stringContaining('a STEP assembly whose parts are in 4 other file(s) (mainbody_asm.stp, head_asm.stp, tail_asm.stp, foot_asm.stp); external references are not followed'),
      details: { externalFiles: ['mainbody_asm.stp', 'head_asm.stp', 'tail_asm.stp', 'foot_asm.stp'] },
    });
    const ok = (await engine.run('import_file', { path: dataPath('cax-if/as1_pe_203.stp'), bodyId: 'as1' })).result as { solids: number };
    expect(ok.solids).toBeGreaterThan(0);
  });
});
