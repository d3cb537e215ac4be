import { withKernel, type OC } from '../kernel';
import { readBrepShape } from './import/brep';
import { selfCheck, type SelfCheckReport, type ValidationIssue } from './shapeIssues';

/**
 * The self-intersection and interference checks as a job for a thread of their own, one the host can
 * stop: a kernel call cannot be interrupted from JavaScript (opencascade.js binds no
 * Message_ProgressIndicator to derive from, so no UserBreak), and one call has been seen to take
 * 28 s on a pair of B-spline faces. The thread reads the body's shape from BREP bytes; the ids it
 * reports are the shape's own (MapShapes order survives BRepTools Write and Read).
 */
export interface SelfCheckJob {
  /** The body's shape as BRepTools writes it. */
  brep: Uint8Array;
  /** BRepCheck_Analyzer found nothing on the shape (a lone face's crossing is then only a warning). */
  brepCheckValid: boolean;
  /** How long the checks may take, counted from when the thread (its kernel loaded) takes the job. */
  budgetMs: number;
}

export interface SelfCheckAnswer {
  found: ValidationIssue[];
  /** seconds: from the job's start in the thread (the host's clock, the shape's reading included). */
  report: SelfCheckReport;
}

/**
 * A thread that runs self-check jobs and can be abandoned (Node's worker thread, the browser's nested
 * web worker: both createSelfCheckHost, selfCheckHost.ts). run
 * resolves with the answer, or with `abandoned` when a kernel call was still running past the
 * job's budget: the thread is then stopped and the next job starts a new one. The thread's start
 * (its kernel) is not counted against the budget, as a host does not count the engine's kernel
 * start against a call's deadline: small parts would otherwise end unchecked on a loaded machine.
 */
export interface SelfCheckThread {
  /** Starts the thread and its kernel now, so that they are ready when the job comes. */
  warm(): void;
  run(job: SelfCheckJob, progress?: (done: number, planned: number) => void): Promise<SelfCheckAnswer | SelfCheckAbandoned>;
}

/** A job stopped mid-call: how far it got, and what the checks done had found (interference pairs excepted). */
export interface SelfCheckAbandoned {
  abandoned: true;
  checks: number;
  checksDone: number;
  /** From the job's start in the thread to its stop. */
  seconds: number;
  found: ValidationIssue[];
}

/** What the thread does with a job: read the shape, run the checks, free the shape. */
export function runSelfCheckJob(oc: OC, job: SelfCheckJob, endAt: number, progress?: (done: number, planned: number, found: () => ValidationIssue[]) => void): SelfCheckAnswer {
  return withKernel(oc, (own) => {
    const shape = own(readBrepShape(oc, job.brep, 'self-check.brep'));
    return selfCheck(oc, shape, job.brepCheckValid, { endAt, progress });
  });
}
