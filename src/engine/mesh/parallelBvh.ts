/**
 * A BVH built over several threads, byte for byte the tree buildBvh builds on one.
 *
 * With the mesh in shared memory (as the mesh threads hold it), each thread makes the records of a
 * run of triangles and takes that run through the root's grid round (bvhBuilder.ts: binRun, then
 * scatterRun once the calling thread merged the cells and chose the splits, splitRoot). The calling
 * thread runs the next rounds (buildTop) down to thousands of independent parts, each a run of
 * positions of the shared record buffers, and deals them in runs of about equal record counts to
 * the threads and itself. Each builds its parts' subtrees in place (buildSubtrees) and lays them
 * out into blocks with their corners and boxes (parallelLayout.ts); the calling thread places the
 * blocks under the top. A mesh not in shared memory gets the records and the root round on the
 * calling thread, and its parts' node lists stitched and laid out by buildBvh. A part's subtree
 * depends on its records alone, so the result is the serial tree whatever thread built what.
 *
 * The threads are the engine's mesh threads (meshThreads/host.ts implements SubtreeThreads); a
 * thread that fails makes the whole build start again on the calling thread, since a half-built
 * part has already moved its records.
 */
import { binRun, buildSubtrees, buildTop, makeRecords, rootGrid, scatterRun, splitRoot, type BinnedRun, type RootRound, type ScatterPlan, SCRATCH_BYTES_PER_TRIANGLE, stitchSubtrees, TASK_WORDS, type BuildNodes, type Subtrees } from './bvhBuilder';
import { expandLeaves, expandSlots, expandTop, expandTree, makeGroupRecords, triangleGroup } from './bvhGroups';
import { assembleBvh, layOutBlocks, type LaidBlocks } from './parallelLayout';
import { allocCorners, buildParameters, narrowCorners } from './bvhLayoutRules';
import { buildBvh, type BvhBuildOptions, type SlotCorners, type TriangleBvh } from './TriangleBvh';
import type { TriMesh } from './TriMesh';

/** What one thread builds: a run of a top's tasks over the shared records. */
export interface SubtreeWork {
  scratch: SharedArrayBuffer;
  /** Records in the scratch: triangles, or groups of `group` triangles (bvhGroups.ts). */
  records: number;
  /** Triangles a record: 1, or a size of bvhGroups.ts's GROUP_SIZES. */
  group: number;
  /** Shared; the thread writes its parts' runs. */
  slotTriangle: Uint32Array;
  /**
   * Shared, with groups: the group at each position, which the build writes; the thread then
   * expands its parts' runs into slotTriangle, when it lays them out.
   */
  slotGroup?: Uint32Array | undefined;
  tasks: Float64Array;
  maxLeaf: number;
  bins: number;
  /**
   * With a mesh in shared memory: the thread also lays its parts out (parallelLayout.ts) and
   * fills their slots' corners here; it answers blocks instead of build-order nodes.
   */
  layout?: { positions: Float64Array | Float32Array; indices: Uint32Array; slotCorners: SlotCorners } | undefined;
}

/** A thread's answer: its parts' nodes in build order, or laid out when the work asked for it. */
export type SubtreeAnswer = { nodes: BuildNodes } | { blocks: LaidBlocks };

/** What one thread makes first: the records of a run of triangles (or groups), when the mesh is in shared memory. */
export interface RecordWork {
  positions: Float64Array | Float32Array;
  indices: Uint32Array;
  scratch: SharedArrayBuffer;
  /** Triangles a record (1 or a group size, bvhGroups.ts) and records in the scratch. */
  group: number;
  records: number;
  from: number;
  to: number;
}

/** The root grid round's two passes over a run of the records (bvhBuilder.ts: binRun, scatterRun). */
export type RoundWork =
  | { op: 'bin'; scratch: SharedArrayBuffer; records: number; grid: Float64Array; from: number; to: number }
  | { op: 'scatter'; scratch: SharedArrayBuffer; records: number; plan: ScatterPlan; from: number; to: number };

/** Threads that build subtrees (the mesh threads' host, or a test's stand-in). */
export interface SubtreeThreads {
  readonly count: number;
  /** The doubled centres' box of the records made. */
  records(thread: number, work: RecordWork): Promise<Float64Array>;
  /** A bin answers the run's cells, a scatter its buckets' centre boxes. */
  round(thread: number, work: RoundWork): Promise<BinnedRun | Float64Array>;
  build(thread: number, work: SubtreeWork): Promise<SubtreeAnswer>;
}

/** Below this many triangles the threads' messages cost more than they save. */
export const PARALLEL_MIN_TRIANGLES = 65536;
/** Parts per thread the top aims at, for an even deal. */
const PARTS_PER_THREAD = 16;

/** The work of a thread (the calling thread's own, when built here): buildSubtrees on it, and the layout when asked. */
export function buildSubtreeWork(work: SubtreeWork): SubtreeAnswer {
  const { slotGroup, tasks, group } = work;
  const nodes = buildSubtrees(work.scratch, work.records, slotGroup ?? work.slotTriangle, tasks, work.maxLeaf, work.bins);
  const l = work.layout;
  // Without a layout the calling thread stitches the parts and expands the whole tree.
  if (!l) return { nodes };
  let slotRuns = tasks;
  if (slotGroup) {
    expandLeaves(nodes, group, 0, nodes.count);
    slotRuns = tasks.slice();
    for (let k = 0; k < tasks.length; k += TASK_WORDS) {
      expandSlots(slotGroup, work.slotTriangle, group, tasks[k]! | 0, tasks[k + 1]! | 0);
      slotRuns[k] = group * tasks[k]!;
      slotRuns[k + 1] = group * tasks[k + 1]!;
    }
  }
  return { blocks: layOutBlocks(nodes, slotRuns, { positions: l.positions, indices: l.indices }, work.slotTriangle, l.slotCorners) };
}

/** A thread's pass of the root round. */
export function roundWork(work: RoundWork): BinnedRun | Float64Array {
  return work.op === 'bin' ? binRun(work.scratch, work.records, work.grid, work.from, work.to) : scatterRun(work.scratch, work.records, work.plan, work.from, work.to);
}

/** A thread's records (makeRecords). */
export function recordWork(work: RecordWork): Float64Array {
  if (work.group === 1) return makeRecords(work.positions, work.indices, work.scratch, work.from, work.to);
  return makeGroupRecords(work.positions, work.indices, work.group, work.scratch, work.records, work.from, work.to);
}

/**
 * buildBvh over `threads` and the calling thread. Without threads, without shared memory, or for
 * a small mesh, it is buildBvh. `onFallback` hears why a parallel build was given up.
 */
export async function buildBvhParallel(mesh: TriMesh, threads: SubtreeThreads | undefined, options: BvhBuildOptions = {}, onFallback?: (error: unknown) => void): Promise<TriangleBvh> {
  const T = mesh.indices.length / 3;
  if (!threads || threads.count < 1 || typeof SharedArrayBuffer === 'undefined' || T < PARALLEL_MIN_TRIANGLES || !Number.isInteger(T)) return buildBvh(mesh, options);
  // buildBvh's defaults and checks: a bad option throws here, before any thread is asked.
  const { maxLeafSize, bins } = buildParameters(T, options);
  // Records and every position below are groups' where triangleGroup allows (bvhGroups.ts).
  const group = triangleGroup(mesh.positions, mesh.indices, maxLeafSize);
  const R = Math.floor(T / group), maxLeaf = maxLeafSize / group;
  const scratch = new SharedArrayBuffer(SCRATCH_BYTES_PER_TRIANGLE * R);
  const slotTriangle = new Uint32Array(new SharedArrayBuffer(4 * T));
  const slotGroup = group === 1 ? undefined : new Uint32Array(new SharedArrayBuffer(4 * R));
  const workers = threads.count;
  const asked: Promise<unknown>[] = [];
  try {
    const narrow = isShared(mesh) && narrowCorners(mesh.positions, options.float64Corners);
    const layout = isShared(mesh) ? { positions: mesh.positions, indices: mesh.indices, slotCorners: allocCorners(T, narrow, true) } : undefined;
    // Groups are always made first, here or over the threads; triangles by buildTop, without shared memory.
    const centres = layout ? await sharedRecords(mesh, threads, scratch, group, R, asked) : group === 1 ? undefined : makeGroupRecords(mesh.positions, mesh.indices, group, scratch, R, 0, R);
    const round = layout && centres ? await rootRound(R, centres, threads, scratch, maxLeaf, bins, asked) : undefined;
    const top = buildTop(mesh.positions, mesh.indices, scratch, slotGroup ?? slotTriangle, maxLeaf, bins, Math.ceil(R / (PARTS_PER_THREAD * (workers + 1))), centres, round);
    const runs = dealTasks(top.tasks, top.taskCount, workers + 1);
    const work = (k: number): SubtreeWork => ({ scratch, records: R, group, slotTriangle, slotGroup, tasks: runs[k]!, maxLeaf, bins, layout });
    const built = runs.slice(1).map((_, i) => threads.build(i, work(i + 1)));
    asked.push(...built);
    // The calling thread's share while the others work (its failure is the serial build's too).
    const answers = [buildSubtreeWork(work(0)), ...(await Promise.all(built))];
    if (layout) {
      const parts = answers.map((a, k) => {
        if (!('blocks' in a)) throw new Error('BVH: a thread answered nodes for a laid-out part.');
        return { tasks: runs[k]!, blocks: a.blocks };
      });
      if (slotGroup) expandTop(top.nodes, slotGroup, slotTriangle, group, mesh.positions, mesh.indices);
      return assembleBvh(mesh, top.nodes, parts, slotTriangle, layout.slotCorners, options.shared === true);
    }
    const parts: Subtrees[] = answers.map((a, k) => {
      if (!('nodes' in a)) throw new Error('BVH: a thread answered blocks for a part in build order.');
      return { nodes: a.nodes, tasks: runs[k]! };
    });
    const stitched = stitchSubtrees(top, parts);
    return buildBvh(mesh, { ...options, tree: slotGroup ? expandTree(stitched, mesh.positions, mesh.indices, group) : stitched });
  } catch (e) {
    // Let every thread finish before the scratch is dropped; their answers no longer matter.
    await Promise.allSettled(asked);
    onFallback?.(e);
    return buildBvh(mesh, options);
  }
}

/**
 * The root's grid round over the threads and this one, each binning and then scattering the run
 * of records it made (undefined when every centre is in one point: buildTop halves that itself).
 */
async function rootRound(R: number, centres: Float64Array, threads: SubtreeThreads, scratch: SharedArrayBuffer, maxLeaf: number, bins: number, asked: Promise<unknown>[]): Promise<RootRound | undefined> {
  const grid = rootGrid(R, centres, bins);
  if (!grid) return undefined;
  const n = threads.count + 1;
  const cut = (k: number): number => Math.round((k * R) / n);
  const on = <A>(k: number, work: RoundWork): Promise<A> => {
    const answer = threads.round(k - 1, work) as Promise<A>;
    asked.push(answer);
    return answer;
  };
  const binned = Array.from({ length: threads.count }, (_, i) => on<BinnedRun>(i + 1, { op: 'bin', scratch, records: R, grid, from: cut(i + 1), to: cut(i + 2) }));
  const runs = [binRun(scratch, R, grid, 0, cut(1)), ...(await Promise.all(binned))];
  const { plans, round } = splitRoot(R, grid, runs, maxLeaf, bins);
  const scattered = Array.from({ length: threads.count }, (_, i) => on<Float64Array>(i + 1, { op: 'scatter', scratch, records: R, plan: plans[i + 1]!, from: cut(i + 1), to: cut(i + 2) }));
  round.centres = [scatterRun(scratch, R, plans[0]!, 0, cut(1)), ...(await Promise.all(scattered))];
  return round;
}

function isShared(mesh: TriMesh): boolean {
  return mesh.positions.buffer instanceof SharedArrayBuffer && mesh.indices.buffer instanceof SharedArrayBuffer;
}

/**
 * Makes the R records (triangles, or groups of `group`) of a mesh in shared memory over the
 * threads and this one, and returns the box of their doubled centres.
 */
async function sharedRecords(mesh: TriMesh, threads: SubtreeThreads, scratch: SharedArrayBuffer, group: number, R: number, asked: Promise<unknown>[]): Promise<Float64Array> {
  const { positions, indices } = mesh;
  const n = threads.count + 1;
  const cut = (k: number): number => Math.round((k * R) / n);
  const made = Array.from({ length: threads.count }, (_, i) => threads.records(i, { positions, indices, scratch, group, records: R, from: cut(i + 1), to: cut(i + 2) }));
  asked.push(...made);
  const boxes = [recordWork({ positions, indices, scratch, group, records: R, from: 0, to: cut(1) }), ...(await Promise.all(made))];
  const box = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
  for (const b of boxes) for (let k = 0; k < 3; k++) {
    box[k] = Math.min(box[k]!, b[k]!);
    box[k + 3] = Math.max(box[k + 3]!, b[k + 3]!);
  }
  return box;
}

/**
 * Deals the tasks into `count` runs of about equal record counts (largest parts first, each to
 * the lightest run), each run a Float64Array of whole tasks.
 */
function dealTasks(tasks: Float64Array, taskCount: number, count: number): Float64Array[] {
  const order = Array.from({ length: taskCount }, (_, k) => k);
  const size = (k: number): number => tasks[TASK_WORDS * k + 1]! - tasks[TASK_WORDS * k]!;
  order.sort((a, b) => size(b) - size(a));
  const load = new Float64Array(count);
  const members: number[][] = Array.from({ length: count }, () => []);
  for (const k of order) {
    let lightest = 0;
    for (let i = 1; i < count; i++) if (load[i]! < load[lightest]!) lightest = i;
    load[lightest]! += size(k);
    members[lightest]!.push(k);
  }
  return members.map((m) => {
    const run = new Float64Array(TASK_WORDS * m.length);
    m.forEach((k, i) => run.set(tasks.subarray(TASK_WORDS * k, TASK_WORDS * (k + 1)), TASK_WORDS * i));
    return run;
  });
}
