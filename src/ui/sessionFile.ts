import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import type { KeptPlacement } from '../engine';
import { movesFollowed } from './alignment';
import { addError, importBytes } from './bodies';
import { queueLabels } from './deviationReview';
import { downloadBytes } from './format';
import { session } from './session';
import { applyInspection, currentInspection } from './shareLinks';
import type { SharedInspection } from './shareLink';
import { inspectStore, toolStore, type Vec3 } from './stores';
import { isToolName, runFromPanel } from './toolRuns';

/**
 * The session file (issue 29.6): `.brepscope`, a zip (fflate) of the scene's files as they were
 * loaded and `session.json` with each body's id, file, placement and import order, the inspection's
 * settings (tolerance, verdict rule, roles, title block), the deviation labels and the last tool run.
 * Opening one imports the files with their ids, places them, applies the settings and repeats the run,
 * so a dropped scan and its CAD, which a link cannot carry, can be saved, sent and reopened.
 */

export const SESSION_FORMAT = 'brepscope-session';
export const SESSION_VERSION = 1;
export const SESSION_EXTENSION = '.brepscope';

export interface SessionManifest {
  format: typeof SESSION_FORMAT;
  version: number;
  bodies: { bodyId: string; fileName: string; entry: string; sourceUrl?: string; placement?: KeptPlacement }[];
  inspection: SharedInspection;
  labels?: Vec3[];
  lastRun?: { tool: string; args: unknown };
}

export function isSessionFileName(name: string): boolean {
  return name.toLowerCase().endsWith(SESSION_EXTENSION);
}

/** The scene as a `.brepscope` zip: files stored (not deflated: scans barely compress and this stays fast). */
export async function sessionBytes(): Promise<Uint8Array> {
  const files = [...session().keptFiles()].sort((a, b) => a.order - b.order);
  const zip: Zippable = {};
  const bodies: SessionManifest['bodies'] = [];
  for (const [i, f] of files.entries()) {
    const fileName = f.fileName ?? f.path.split('/').pop() ?? f.bodyId;
    const entry = `files/${i + 1}-${fileName.replace(/[^A-Za-z0-9._-]+/g, '_')}`;
    const bytes = f.bytes instanceof Uint8Array ? f.bytes : new Uint8Array(await f.bytes.arrayBuffer());
    zip[entry] = [bytes, { level: 0 }];
    bodies.push({ bodyId: f.bodyId, fileName, entry, ...(f.sourceUrl ? { sourceUrl: f.sourceUrl } : {}), ...(f.placement ? { placement: f.placement } : {}) });
  }
  const labels = inspectStore.getState().heat?.labels?.points;
  const lastRun = toolStore.getState().lastRun;
  const manifest: SessionManifest = {
    format: SESSION_FORMAT,
    version: SESSION_VERSION,
    bodies,
    inspection: currentInspection(),
    ...(labels?.length ? { labels } : {}),
    // A run that moved a body is in the placements already.
    ...(lastRun && lastRun.tool !== 'set_placement' && lastRun.tool !== 'align_bodies' ? { lastRun } : {}),
  };
  zip['session.json'] = strToU8(JSON.stringify(manifest, null, 1));
  return zipSync(zip);
}

export async function saveSession(name = `session${SESSION_EXTENSION}`): Promise<void> {
  downloadBytes(name, (await sessionBytes()) as Uint8Array<ArrayBuffer>, 'application/zip');
}

/** The manifest and files of a session zip, or why it is not one (an error with a code). */
export function readSession(bytes: Uint8Array): { manifest: SessionManifest; files: Record<string, Uint8Array> } | { code: string; message: string } {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes);
  } catch (e) {
    return { code: 'PARSE_FAILED', message: `not a .brepscope session (not a zip: ${e instanceof Error ? e.message : String(e)})` };
  }
  const json = files['session.json'];
  if (!json) return { code: 'PARSE_FAILED', message: 'not a .brepscope session (no session.json)' };
  let manifest: unknown;
  try {
    manifest = JSON.parse(strFromU8(json));
  } catch (e) {
    return { code: 'PARSE_FAILED', message: `session.json is not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  const m = manifest as Partial<SessionManifest> | null;
  if (!m || m.format !== SESSION_FORMAT || !Array.isArray(m.bodies)) return { code: 'PARSE_FAILED', message: 'session.json is not a brepscope session' };
  if (typeof m.version !== 'number' || m.version > SESSION_VERSION) return { code: 'UNSUPPORTED_FORMAT', message: `session version ${String(m.version)}: this brepscope reads up to ${SESSION_VERSION}` };
  for (const b of m.bodies) {
    if (!b || typeof b.bodyId !== 'string' || typeof b.fileName !== 'string' || typeof b.entry !== 'string' || !files[b.entry]) return { code: 'PARSE_FAILED', message: `session.json names a file the zip lacks (${String(b?.entry)})` };
  }
  return { manifest: m as SessionManifest, files };
}

/** Opens a session file: its files with their ids, their placements, the settings, then the last run. */
export async function openSession(name: string, bytes: Uint8Array): Promise<void> {
  const read = readSession(bytes);
  if ('code' in read) {
    addError(name, read.code, read.message);
    return;
  }
  const { manifest, files } = read;
  applyInspection(manifest.inspection ?? {});
  const imported = await Promise.all(manifest.bodies.map((b) => importBytes(b.fileName, files[b.entry]!, { bodyId: b.bodyId, ...(b.sourceUrl ? { sourceUrl: b.sourceUrl } : {}) })));
  for (const [i, b] of manifest.bodies.entries()) {
    if (!imported[i] || !b.placement) continue;
    const placed = await runFromPanel('set_placement', { bodyId: b.bodyId, transform: b.placement.transform }, { reveal: false });
    if (!placed.ok) addError(name, placed.error.code, `could not place ${b.bodyId}: ${placed.error.message}`);
  }
  await movesFollowed();
  if (manifest.labels?.length) queueLabels(manifest.labels);
  const run = manifest.lastRun;
  if (run && isToolName(run.tool) && imported.every(Boolean)) await runFromPanel(run.tool, run.args);
}
