import { beforeAll, describe, expect, it } from 'vitest';
import { nodeKernel } from '../../../node/nodeEngine';
import { BrepscopeError } from '../../errors';
import { KernelAbortedError, type OC } from '../../kernel';
import { asBadInput } from './kernelFailure';

let oc: OC;
beforeAll(async () => {
  oc = await nodeKernel();
});

const failure = (step: () => unknown): unknown => {
  try {
    asBadInput(oc, 'part.step', step);
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('a failure while the kernel reads a user file is bad input', () => {
  it('an OCCT exception (a real one: a zero-length direction) is FILE_UNREADABLE with the kernel message', () => {
    const e = failure(() => new oc.gp_Dir_4(0, 0, 0));
    expect(e).toMatchObject({ code: 'FILE_UNREADABLE', details: { kernelMessage: expect.stringMatching(/Standard_ConstructionError/) } });
    expect((e as Error).message).toMatch(/^part\.step: the kernel could not read this file: Standard_ConstructionError/);
  });

  it('a kernel abort, a stack overflow and a broken function pointer are FILE_ABORTED_KERNEL', () => {
    const abort = failure(() => {
      throw new WebAssembly.RuntimeError('null function or function signature mismatch');
    });
    expect(abort).toMatchObject({ code: 'FILE_ABORTED_KERNEL', message: expect.stringMatching(/^part\.step: the kernel aborted .*signature mismatch/) });
    const overflow = failure(() => {
      const recurse = (n: number): number => recurse(n + 1) + 1;
      return recurse(0);
    });
    expect(overflow).toMatchObject({ code: 'FILE_ABORTED_KERNEL', message: expect.stringMatching(/stack overflow/) });
    const table = failure(() => {
      throw new TypeError('getWasmTableEntry(...) is not a function');
    });
    expect(table).toMatchObject({ code: 'FILE_ABORTED_KERNEL' });
    const wrapped = failure(() => {
      throw new KernelAbortedError('kernel aborted: Aborted(OOM)');
    });
    expect(wrapped).toMatchObject({ code: 'FILE_ABORTED_KERNEL', details: { kernelMessage: 'Aborted(OOM)' } });
  });

  it('our own coded errors pass unchanged, and a defect in our code stays a defect', () => {
    const coded = new BrepscopeError('PARSE_FAILED', 'part.step: line 3: bad');
    expect(failure(() => {
      throw coded;
    })).toBe(coded);
    const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
    expect(failure(() => {
      throw bug;
    })).toBe(bug);
  });
});
