import type { CallControl } from './callControl';
import type { MeshWorkers } from './deviation/meshWorkers';
import type { OC } from './kernel';
import type { Body, SourceFormat } from './scene/Body';
import type { SelfCheckThread } from './scene/selfCheckJob';
import type { Scene } from './scene/Scene';
import type { FilePieces } from './scene/import/stl';

// What a tool runs with: the scene, files, the kernel on demand, and the host's controls. Engine
// domains (deviation, alignment, gdt) take it without depending on tools/.

export interface WriteOptions {
  /**
   * Replace a file that exists. Without it a host whose files are the user's (Node) refuses with
   * FILE_EXISTS; the browser's memory files are the engine's own and are replaced either way.
   */
  overwrite?: boolean | undefined;
}

export interface ReadOptions {
  /**
   * The format the file will be read as, when one was asked for: its import limit applies, not the
   * one its name gives (a mesh named .dat may be as large as any mesh; a STEP named .stl is capped
   * at the kernel's limit before it is read).
   */
  format?: SourceFormat | undefined;
}

/** How a host gives tools access to files: the real file system in Node, loaded files in the browser. */
export interface FileAccess {
  read(path: string, options?: ReadOptions): Promise<Uint8Array>;
  /**
   * The file in fixed-size pieces, never whole in memory (Node). A host without it (the browser,
   * whose files are in memory already) is read whole.
   */
  stream?(path: string, options?: ReadOptions): Promise<FilePieces>;
  write(path: string, bytes: Uint8Array, options?: WriteOptions): Promise<void>;
  /** The name two spellings of one file share (Node: the absolute path); default: the name as given. */
  canonical?(path: string): string;
}

/** What the engine reports about its own work when a host asks (tests count deviations with it). */
export type EngineTrace = { kind: 'deviation'; what: string };

export interface ToolContext extends CallControl {
  scene: Scene;
  /** The call's file access: every write through it is returned with the result as an output. */
  files: FileAccess;
  kernel: () => Promise<OC>;
  /** Told of costly work actually done (not served from a cache). */
  trace?: ((event: EngineTrace) => void) | undefined;
  /** Mesh work the host can run off this thread (Node: worker threads); absent, tools run it here. */
  meshWorkers?: MeshWorkers | undefined;
  /** A thread the self-intersection check can be abandoned in (Node); absent, it runs here and stops between kernel calls. */
  selfCheckThread?: SelfCheckThread | undefined;
}

/** The kernel, loaded only when a BREP body is involved: mesh-only work never waits for it. */
export async function kernelFor(ctx: Pick<ToolContext, 'kernel'>, bodies: readonly Body[]): Promise<OC | undefined> {
  return bodies.some((b) => b.kind === 'brep') ? ctx.kernel() : undefined;
}
