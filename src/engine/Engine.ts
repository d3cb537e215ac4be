import { BrepscopeError, settle, type ErrorPayload } from './errors';
import { blobFile, readBlob, recordingFiles, type OutputFile } from './files';
import { getKernel, kernelStatus, onKernelStatus, type KernelState, type OC } from './kernel';
import { fromMatrix4, toMatrix4, type Matrix4 } from './math/rigid';
import type { TriMesh } from './mesh/TriMesh';
import type { PlacementRecord, SourceFormat } from './scene/Body';
import type { ScanUnit } from './scene/scanUnits';
import { placeBody } from './scene/placement';
import { importBody } from './scene/import/importBody';
import { readForImport, type ImportInput } from './scene/import/readForImport';
import type { FilePieces } from './scene/import/stl';
import { Scene } from './scene/Scene';
import type { EngineTrace, FileAccess, ReadOptions, ToolContext, WriteOptions } from './tools/defineTool';
import type { MeshWorkers } from './deviation/meshWorkers';
import type { SelfCheckThread } from './scene/selfCheckJob';
import { findTool, toolManifests, type ToolArgs, type ToolManifest, type ToolName, type ToolResult } from './tools/registry';
import { parseArgs } from './tools/parseArgs';

export interface EngineOptions {
  /** How tools read and write files: the file system in Node, memory in the browser worker. */
  files: FileAccess;
  /** Defaults to the process's shared kernel (the host must have set a loader). */
  kernel?: () => Promise<OC>;
  /** Told of costly work actually done (tests count deviations with it). */
  trace?: (event: EngineTrace) => void;
  /** Mesh work off the calling thread (the Node host's worker threads); absent, tools run it in line. */
  meshWorkers?: MeshWorkers | undefined;
  /** A thread for validate_geometry's self-intersection check that can be stopped mid-call (Node); absent, the check runs in line. */
  selfCheckThread?: SelfCheckThread | undefined;
}

export interface RunOptions {
  signal?: AbortSignal | undefined;
  progress?: ((fraction: number, message?: string) => void) | undefined;
}

/** A tool's answer: its result and the files the call wrote. */
export interface RunOutcome<R> {
  result: R;
  outputs: OutputFile[];
}

/** A body as a host keeps it to rebuild the scene in a new engine (after a cancel, a crash, a kernel abort). */
export interface KeptBody {
  bodyId: string;
  /** The name the file was read by; given back to the new engine under the same name. */
  path: string;
  /** The file's content; absent for a mesh body a Node host read from disk (restored by reading `path` again). */
  bytes?: Uint8Array | undefined;
  /** Default: detected again from the bytes and the name. */
  format?: SourceFormat | undefined;
  /** read_brep without allowInvalid. */
  refuseInvalid?: boolean | undefined;
  /** The unit a unitless scan file was given at import. */
  unit?: ScanUnit | undefined;
  /** Where the body was placed in the scene (an applied alignment, set_placement); absent: as read. */
  placement?: KeptPlacement | undefined;
}

/** A body's placement as a host keeps it: the motion (file to scene, 4x4 row-major) and what set it. */
export interface KeptPlacement {
  transform: Matrix4;
  setBy: PlacementRecord;
}

export interface SceneSnapshot {
  bodies: KeptBody[];
}

export interface RestoreReport {
  restored: string[];
  failed: { bodyId: string; error: ErrorPayload }[];
}

/** What `load` reads: a file by path (or a name given with putFile), as `--body id=path` does. */
export interface LoadRequest {
  path: string;
  /** The file's content when the host has it already (a restore); else read from `path`. */
  bytes?: Uint8Array | undefined;
  /**
   * The STL the host already parsed (ImportRequest.stlMesh): with `bytes`, parsed from them by
   * parseStl; without, read as the file streamed by (readStlPieces), and `fileBytes` is its size.
   */
  stlMesh?: TriMesh | undefined;
  fileBytes?: number | undefined;
  bodyId?: string | undefined;
  format?: SourceFormat | undefined;
  /** read_brep semantics: an invalid shape is refused (INVALID_GEOMETRY). */
  refuseInvalid?: boolean | undefined;
  /** The length unit of a unitless scan file: its coordinates are scaled to millimetres (ImportRequest.unit). */
  unit?: ScanUnit | undefined;
}

/**
 * One scene and the tool registry: the single service every host (the web worker, the CLI, the MCP
 * server, benchmarks) holds one of. A host adds transport, never engine logic.
 */
export class Engine {
  readonly scene = new Scene();
  private readonly host: FileAccess;
  private readonly kernel: () => Promise<OC>;
  private readonly trace: ((event: EngineTrace) => void) | undefined;
  private readonly meshWorkers: MeshWorkers | undefined;
  private readonly selfCheckThread: SelfCheckThread | undefined;
  /** Files a host handed over by name (the browser's dropped files), read before the host's own. */
  private readonly given = new Map<string, Uint8Array | Blob>();
  private readonly files: FileAccess;

  constructor(options: EngineOptions) {
    this.host = options.files;
    this.kernel = options.kernel ?? getKernel;
    this.trace = options.trace;
    this.meshWorkers = options.meshWorkers;
    this.selfCheckThread = options.selfCheckThread;
    const host = this.host;
    const given = this.given;
    const stream = async (path: string, options?: ReadOptions): Promise<FilePieces> => {
      const file = given.get(path);
      if (file instanceof Blob) return blobFile(file, path);
      if (file) return onePiece(file);
      return host.stream ? host.stream(path, options) : onePiece(await this.readHost(path, options));
    };
    const files = {
      read: async (path: string, options?: ReadOptions): Promise<Uint8Array> => {
        const file = given.get(path);
        if (file instanceof Blob) return readBlob(file, path);
        return file ?? this.readHost(path, options);
      },
      // Files stream where the host streams them, or once a Blob was given (the browser's dropped
      // File): a mesh is then read piece by piece and its body keeps no bytes (read again by name).
      get stream() {
        return host.stream || [...given.values()].some((f) => f instanceof Blob) ? stream : undefined;
      },
      write: (path: string, bytes: Uint8Array, options?: WriteOptions) => this.host.write(path, bytes, options),
    };
    // The getter answers undefined when nothing streams: every reader tests `files.stream` first.
    this.files = files as FileAccess;
  }

  /** Every tool's name, description, category and JSON Schema. */
  tools(): ToolManifest[] {
    return toolManifests();
  }

  /** Checks a tool name and its arguments without running anything (no kernel, no scene change). */
  validate(name: string, args: unknown): void {
    parseArgs(findTool(name), args);
  }

  /** Runs a tool: arguments checked against its schema first; the files it wrote come back as outputs. */
  run<N extends ToolName>(name: N, args: NoInfer<ToolArgs<N>>, options?: RunOptions): Promise<RunOutcome<ToolResult<N>>>;
  run(name: string, args: unknown, options: RunOptions = {}): Promise<RunOutcome<unknown>> {
    return this.execute(name, args, options);
  }

  /**
   * `run` for a tool name and arguments known only at run time (JSON from a form, a link, a command
   * line, an MCP client): the arguments are checked against the schema all the same, and a
   * registry tool's name still gives its result type.
   */
  runJson<N extends ToolName>(name: N, args: unknown, options?: RunOptions): Promise<RunOutcome<ToolResult<N>>>;
  runJson(name: string, args: unknown, options?: RunOptions): Promise<RunOutcome<unknown>>;
  runJson(name: string, args: unknown, options: RunOptions = {}): Promise<RunOutcome<unknown>> {
    return this.execute(name, args, options);
  }

  private async execute(name: string, args: unknown, options: RunOptions): Promise<RunOutcome<unknown>> {
    const tool = findTool(name);
    const parsed = parseArgs(tool, args);
    // Every writing tool takes `overwrite` (tools/schemas.ts); the policy is the engine's, not each tool's.
    const overwrite = (parsed as { overwrite?: unknown }).overwrite === true;
    const recording = recordingFiles(this.files, { overwrite, loadedAs: (path) => this.loadedAs(path) });
    const result = await tool.run(parsed, this.context(recording.files, options));
    return { result, outputs: recording.outputs() };
  }

  /** Buffers of a tool's result that a worker may move instead of copying (display data). */
  transferables(name: string, result: unknown): ArrayBuffer[] {
    return findTool(name).transferables?.(result) ?? [];
  }

  /**
   * Hands the engine a file under a name: tools read it by that path (`import_file {path}`). A Blob
   * is kept as it is (not its bytes) and read in pieces when a mesh is imported from it.
   */
  putFile(path: string, file: Uint8Array | Blob): void {
    this.given.set(path, file);
  }

  /** A file given by name (putFile), as it was given; undefined for any other. */
  givenFile(path: string): Uint8Array | Blob | undefined {
    return this.given.get(path);
  }

  /**
   * Loads a file as a body without describing it (no summary, so a mesh's topology report is not
   * computed): what a host does before running a tool on the bodies. Returns the bodyId.
   */
  async load(request: LoadRequest): Promise<string> {
    const { bytes, stlMesh, fileBytes } = request;
    const input: ImportInput = bytes
      ? { bytes, ...(stlMesh ? { stlMesh } : {}) }
      : stlMesh && fileBytes !== undefined
        ? // Parsed by the host as the file streamed by: the body keeps no bytes (read again by path).
          { stlMesh, fileBytes, keepBytes: false }
        : await readForImport(this.files, request.path, request.format, this.meshWorkers !== undefined);
    const body = await importBody(this.context(this.files, {}), {
      ...input,
      fileName: request.path,
      format: request.format,
      bodyId: request.bodyId,
      refuseInvalid: request.refuseInvalid,
      unit: request.unit,
    });
    return body.bodyId;
  }

  /** The scene as files and placements: enough for `restore` to rebuild it in another engine. */
  snapshot(): SceneSnapshot {
    return {
      bodies: this.scene.list().flatMap((b) => {
        if (!b.origin) return [];
        // A body that keeps no bytes but was read from bytes given by name is kept with those.
        const given = this.given.get(b.origin.path);
        const bytes = b.origin.bytes ?? (given instanceof Uint8Array ? given : undefined);
        const kept: KeptBody = { bodyId: b.bodyId, path: b.origin.path, bytes, format: b.origin.format, refuseInvalid: b.origin.refuseInvalid, ...(b.origin.unit ? { unit: b.origin.unit } : {}) };
        if (b.placement) kept.placement = { transform: toMatrix4(b.placement.motion), setBy: { ...b.placement.setBy } };
        return [kept];
      }),
    };
  }

  /**
   * Loads kept bodies with their ids, all at once (mesh files do not wait behind the kernel a BREP
   * needs). A body that fails is reported, not fatal. With `giveFiles` (the default: the browser, whose
   * files exist only as given) each file can be read by its name again; a Node host passes false, so
   * a name still reads the file on disk and the kept bytes only rebuild the bodies.
   */
  async restore(snapshot: SceneSnapshot, options: { giveFiles?: boolean } = {}): Promise<RestoreReport> {
    const outcomes = await Promise.all(
      snapshot.bodies.map(async (kept) => {
        if (options.giveFiles !== false && kept.bytes) this.putFile(kept.path, kept.bytes);
        return { bodyId: kept.bodyId, outcome: await settle(this.loadPlaced(kept)) };
      }),
    );
    // The scene as it was: in the snapshot's order, not the order the loads finished in.
    this.scene.reorder(outcomes.flatMap(({ outcome }) => (outcome.ok ? [outcome.value] : [])));
    const report: RestoreReport = { restored: [], failed: [] };
    for (const { bodyId, outcome } of outcomes) {
      if (outcome.ok) report.restored.push(bodyId);
      else report.failed.push({ bodyId, error: outcome.error });
    }
    return report;
  }

  /** A kept body loaded and put back where it stood. */
  private async loadPlaced(kept: KeptBody): Promise<string> {
    const bodyId = await this.load(kept);
    if (kept.placement) {
      const motion = fromMatrix4(kept.placement.transform);
      if (typeof motion === 'string') throw new BrepscopeError('INVALID_ARGUMENT', `${bodyId}: the kept placement is ${motion}`);
      const body = this.scene.get(bodyId);
      try {
        placeBody(body.kind === 'brep' ? await this.kernel() : undefined, this.scene, body, { motion, setBy: kept.placement.setBy });
      } catch (e) {
        // A body restored anywhere but where it stood would give other answers than before.
        this.scene.remove(bodyId);
        throw e;
      }
    }
    return bodyId;
  }

  kernelState(): KernelState {
    return kernelStatus();
  }

  /** Calls `listener` on every kernel status change; returns the unsubscribe function. */
  onKernelState(listener: (state: KernelState) => void): () => void {
    return onKernelStatus(listener);
  }

  /** Starts loading the kernel now (it is otherwise loaded on first use); resolves with its state. */
  async loadKernel(): Promise<KernelState> {
    await this.kernel().catch(() => undefined);
    return kernelStatus();
  }

  /** Frees every body's kernel objects. */
  dispose(): void {
    this.scene.clear();
    this.given.clear();
  }

  private context(files: FileAccess, options: RunOptions): ToolContext {
    return { scene: this.scene, files, kernel: this.kernel, signal: options.signal, progress: options.progress, trace: this.trace, meshWorkers: this.meshWorkers, selfCheckThread: this.selfCheckThread };
  }

  /** The bodyId of a scene body read from this file (compared as the host names files), if any. */
  private loadedAs(path: string): string | undefined {
    const canonical = (p: string): string => this.host.canonical?.(p) ?? p;
    const target = canonical(path);
    return this.scene.list().find((b) => b.origin !== undefined && canonical(b.origin.path) === target)?.bodyId;
  }

  private async readHost(path: string, options?: ReadOptions): Promise<Uint8Array> {
    try {
      return await this.host.read(path, options);
    } catch (e) {
      if (e instanceof BrepscopeError && e.code === 'FILE_NOT_FOUND' && this.given.size > 0) {
        throw new BrepscopeError('FILE_NOT_FOUND', `${e.message}; files given to the engine: ${[...this.given.keys()].join(', ')}`);
      }
      throw e;
    }
  }
}

/** Bytes in memory as a file of one piece. */
function onePiece(bytes: Uint8Array): FilePieces {
  return {
    size: bytes.byteLength,
    pieces: (async function* () {
      yield bytes;
    })(),
  };
}
