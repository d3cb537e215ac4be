import { afterEach, describe, expect, it, vi } from 'vitest';
import { BrepscopeError } from '../errors';
import { createSelfCheckHost, START_LIMIT_MS, STOP_GRACE_MS, type SelfCheckReply, type SelfCheckRequest, type SelfCheckWorker } from './selfCheckHost';
import type { SelfCheckJob } from './selfCheckJob';
import type { ValidationIssue } from './shapeIssues';

/**
 * Issue 34.3: the host side of the self-check thread that the Node host and the browser share
 * (createSelfCheckHost), on a fake platform whose threads the test answers for: the protocol, the
 * stop one second past the budget with the findings so far, and a new thread after a stop.
 */

class FakeWorker implements SelfCheckWorker {
  readonly requests: SelfCheckRequest[] = [];
  terminated = false;
  private readonly replies = new Set<(reply: SelfCheckReply) => void>();
  private readonly failures = new Set<(error: Error) => void>();
  post(request: SelfCheckRequest): void {
    this.requests.push(request);
  }
  onReply(listener: (reply: SelfCheckReply) => void): () => void {
    this.replies.add(listener);
    return () => this.replies.delete(listener);
  }
  onFailure(listener: (error: Error) => void): () => void {
    this.failures.add(listener);
    return () => this.failures.delete(listener);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(reply: SelfCheckReply): void {
    for (const l of [...this.replies]) l(reply);
  }
  fail(error: Error): void {
    for (const l of [...this.failures]) l(error);
  }
  get listeners(): number {
    return this.replies.size + this.failures.size;
  }
}

const fakePlatform = () => {
  const started: FakeWorker[] = [];
  return { started, platform: { start: () => (started.push(new FakeWorker()), started[started.length - 1]!) } };
};
const job = (budgetMs: number): SelfCheckJob => ({ brep: new Uint8Array([1, 2, 3]), brepCheckValid: true, budgetMs });
const crossing: ValidationIssue = { kind: 'selfIntersection', severity: 'error', message: 'faces cross', entities: ['face[0]', 'face[3]'], count: 2 };
/** Lets the host's awaits (the thread's ready) run. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

afterEach(() => {
  vi.useRealTimers();
});

describe('createSelfCheckHost: the self-check thread of the Node and browser hosts (issue 34.3)', () => {
  it('starts one thread on warm, posts the job once it is ready, passes progress on and answers with the seconds from the job start', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { started, platform } = fakePlatform();
    const host = createSelfCheckHost(platform);
    host.warm();
    host.warm();
    expect(started).toHaveLength(1);
    const progress: [number, number][] = [];
    const answer = host.run(job(20_000), (done, planned) => progress.push([done, planned]));
    await settle();
    // Nothing is posted before the thread's kernel is ready: its start is not counted against the budget.
    expect(started[0]!.requests).toEqual([]);
    vi.advanceTimersByTime(7_000);
    started[0]!.reply({ ready: true });
    await settle();
    expect(started[0]!.requests).toEqual([{ id: 1, job: job(20_000), endAt: 1_007_000 + 20_000, hangForTest: undefined }]);
    started[0]!.reply({ id: 1, progress: [1, 3], found: [] });
    // A reply to another job is not this one's.
    started[0]!.reply({ id: 7, answer: { found: [crossing], report: { completed: true, checks: 9, checksDone: 9, seconds: 1, cached: false } } });
    vi.advanceTimersByTime(2_500);
    started[0]!.reply({ id: 1, answer: { found: [crossing], report: { completed: true, checks: 3, checksDone: 3, seconds: 99, cached: false } } });
    await expect(answer).resolves.toEqual({ found: [crossing], report: { completed: true, checks: 3, checksDone: 3, seconds: 2.5, cached: false } });
    expect(progress).toEqual([[1, 3]]);
    // The thread is kept for the next job, with only the ready listeners left on it.
    expect(started[0]!.terminated).toBe(false);
    const next = host.run(job(1_000));
    await settle();
    expect(started).toHaveLength(1);
    expect(started[0]!.requests.map((r) => r.id)).toEqual([1, 2]);
    started[0]!.reply({ id: 2, answer: { found: [], report: { completed: true, checks: 1, checksDone: 1, seconds: 0, cached: false } } });
    await expect(next).resolves.toMatchObject({ found: [], report: { completed: true, checks: 1 } });
    expect(started[0]!.listeners).toBe(3);
  });

  it('a job with no answer one second past its budget is abandoned with the findings of the checks done; its thread is stopped and the next job starts a new one', async () => {
    vi.useFakeTimers({ now: 0 });
    const { started, platform } = fakePlatform();
    const host = createSelfCheckHost(platform);
    const answer = host.run(job(5_000));
    started[0]!.reply({ ready: true });
    await settle();
    started[0]!.reply({ id: 1, progress: [2, 4], found: [crossing] });
    vi.advanceTimersByTime(5_000 + STOP_GRACE_MS - 1);
    await settle();
    expect(started[0]!.terminated).toBe(false);
    vi.advanceTimersByTime(1);
    await expect(answer).resolves.toEqual({ abandoned: true, checks: 4, checksDone: 2, seconds: 6, found: [crossing] });
    expect(started[0]!.terminated).toBe(true);
    // An answer after the stop changes nothing; the next job gets a new thread.
    started[0]!.reply({ id: 1, answer: { found: [], report: { completed: true, checks: 4, checksDone: 4, seconds: 7, cached: false } } });
    const next = host.run(job(5_000));
    expect(started).toHaveLength(2);
    started[1]!.reply({ ready: true });
    await settle();
    expect(started[1]!.requests.map((r) => r.id)).toEqual([2]);
    started[1]!.reply({ id: 2, answer: { found: [], report: { completed: true, checks: 4, checksDone: 4, seconds: 0, cached: false } } });
    await expect(next).resolves.toMatchObject({ report: { completed: true, checksDone: 4 } });
  });

  it('a thread whose kernel does not start within the start limit is stopped: the job is reported abandoned with no check done', async () => {
    vi.useFakeTimers({ now: 0 });
    const { started, platform } = fakePlatform();
    const answer = createSelfCheckHost(platform).run(job(5_000));
    vi.advanceTimersByTime(START_LIMIT_MS);
    await expect(answer).resolves.toEqual({ abandoned: true, checks: 0, checksDone: 0, seconds: 0, found: [] });
    expect(started[0]!.terminated).toBe(true);
    expect(started[0]!.requests).toEqual([]);
  });

  it('a kernel that fails to load, a thread that crashes mid-job and an error reply are coded errors; a failed thread is replaced', async () => {
    const { started, platform } = fakePlatform();
    const host = createSelfCheckHost(platform);
    const noKernel = host.run(job(5_000));
    started[0]!.reply({ startFailed: { code: 'KERNEL_ERROR', message: 'could not download the CAD kernel' } });
    await expect(noKernel).rejects.toMatchObject({ code: 'INTERNAL_ERROR', message: 'the self-intersection thread stopped: could not download the CAD kernel' });
    expect(started[0]!.terminated).toBe(true);

    const crashed = host.run(job(5_000));
    expect(started).toHaveLength(2);
    started[1]!.reply({ ready: true });
    await settle();
    started[1]!.fail(new Error('memory access out of bounds'));
    await expect(crashed).rejects.toMatchObject({ code: 'INTERNAL_ERROR', message: 'the self-intersection thread stopped: memory access out of bounds' });
    expect(started[1]!.terminated).toBe(true);

    const refused = host.run(job(5_000));
    expect(started).toHaveLength(3);
    started[2]!.reply({ ready: true });
    await settle();
    // Job ids count the jobs posted: the one whose thread never started had none.
    expect(started[2]!.requests.map((r) => r.id)).toEqual([2]);
    started[2]!.reply({ id: 2, error: { code: 'PARSE_FAILED', message: 'not a BREP' } });
    const e = await refused.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BrepscopeError);
    expect(e).toMatchObject({ code: 'PARSE_FAILED', message: 'not a BREP' });
    // An error answer leaves the thread running for the next job.
    expect(started[2]!.terminated).toBe(false);
  });

  it('hangNextJobForTest and the hangForTest option mark exactly one job', async () => {
    const { started, platform } = fakePlatform();
    const host = createSelfCheckHost(platform, { hangForTest: { job: 2, afterChecks: 1 } });
    const answerAll = (): void => {
      const r = started[0]!.requests[started[0]!.requests.length - 1]!;
      started[0]!.reply({ id: r.id, answer: { found: [], report: { completed: true, checks: 1, checksDone: 1, seconds: 0, cached: false } } });
    };
    host.warm();
    started[0]!.reply({ ready: true });
    for (let i = 0; i < 2; i++) {
      const a = host.run(job(1_000));
      await settle();
      answerAll();
      await a;
    }
    host.hangNextJobForTest(0);
    for (let i = 0; i < 2; i++) {
      const a = host.run(job(1_000));
      await settle();
      answerAll();
      await a;
    }
    expect(started[0]!.requests.map((r) => [r.id, r.hangForTest])).toEqual([[1, undefined], [2, 1], [3, 0], [4, undefined]]);
    await host.dispose();
    expect(started[0]!.terminated).toBe(true);
  });
});
