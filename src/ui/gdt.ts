import { createStore } from 'zustand/vanilla';
import type { ToolResult } from '../engine';
import { nominalOf } from './roles';
import { session } from './session';
import { inspectStore, sceneStore, toolStore, type DoneCallOf, type ShownError } from './stores';
import { runFromPanel } from './toolRuns';

/**
 * GD&T in the page (issue 30.4): the nominal's PMI (read_pmi) as a tree, and the characteristics
 * evaluate_gdt checked on the scan as a table. A store of its own, so the journey's stores stay as
 * they are; the 3D view reads `highlight` (the faces of the entry clicked last).
 */

export type PmiResult = ToolResult<'read_pmi'>;
export type GdtResult = ToolResult<'evaluate_gdt'>;
export type CharacteristicRow = GdtResult['characteristics'][number];

/** How a highlight is drawn: a PMI entry (no verdict yet), or a checked characteristic by its verdict. */
export type HighlightTone = 'pmi' | 'pass' | 'fail' | 'unknown';

export interface GdtState {
  pmi: { bodyId: string; status: 'running' | 'done' | 'failed'; result?: PmiResult; error?: ShownError } | null;
  check: { nominalBodyId: string; actualBodyId: string; status: 'running' | 'done' | 'failed'; result?: GdtResult; error?: ShownError } | null;
  /** The entry clicked last (a PMI id such as tolerance[2], or a datum label) and the nominal's faces it names. */
  highlight: { bodyId: string; key: string; faces: number[]; tone: HighlightTone } | null;
  /** "Fit to the datums first": the check fits the scan's datum reference frame onto the nominal's (evaluate_gdt alignment datums). */
  onDatums: boolean;
}

export const gdtStore = createStore<GdtState>(() => ({ pmi: null, check: null, highlight: null, onDatums: false }));

export const HIGHLIGHT_COLOURS: Record<HighlightTone, string> = { pmi: '#00a3a3', pass: '#1a9850', fail: '#d7301f', unknown: '#9e9e9e' };

/** face[N] ids as indices (PMI may also name edges and vertices: they are not highlighted). */
export function faceIndices(ids: readonly string[]): number[] {
  return ids.flatMap((id) => {
    const m = /^face\[(\d+)\]$/.exec(id);
    return m ? [Number(m[1])] : [];
  });
}

/** The body the PMI belongs to: the scene's nominal when it is a BREP body from a STEP file. */
export function pmiBodyOf(): string | null {
  const { bodies } = sceneStore.getState();
  const nominal = nominalOf(bodies, inspectStore.getState().nominalMark);
  const body = bodies.find((b) => b.bodyId === nominal);
  return body && body.summary.kind === 'brep' && body.summary.sourceFormat === 'step' ? body.bodyId : null;
}

/** read_pmi on the nominal, once per body (the tree asks when a STEP nominal appears). */
export async function loadPmi(bodyId: string): Promise<void> {
  const current = gdtStore.getState().pmi;
  if (current?.bodyId === bodyId && current.status !== 'failed') return;
  gdtStore.setState({ pmi: { bodyId, status: 'running' }, highlight: null });
  const outcome = await session().runJson('read_pmi', { bodyId });
  if (gdtStore.getState().pmi?.bodyId !== bodyId) return;
  if (!outcome.ok) gdtStore.setState({ pmi: { bodyId, status: 'failed', error: outcome.error } });
  else gdtStore.setState({ pmi: { bodyId, status: 'done', result: outcome.value.result } });
}

/** A click on a tree entry or a table row: its faces light up; a second click lets go. */
export function highlightFaces(bodyId: string, key: string, faceIds: readonly string[], tone: HighlightTone): void {
  const h = gdtStore.getState().highlight;
  if (h && h.bodyId === bodyId && h.key === key) gdtStore.setState({ highlight: null });
  else gdtStore.setState({ highlight: { bodyId, key, faces: faceIndices(faceIds), tone } });
}

export const toneOf = (pass: boolean | null): HighlightTone => (pass === null ? 'unknown' : pass ? 'pass' : 'fail');

/**
 * "Check characteristics": evaluate_gdt from the tool panel (progress, Cancel; the run is the last
 * run, so share links and session files carry it) with the PMI's characteristics named, so the set
 * checked is in the run's arguments.
 */
export async function checkCharacteristics(nominalBodyId: string, actualBodyId: string): Promise<void> {
  if (toolStore.getState().running) return;
  const pmi = gdtStore.getState().pmi;
  const ids = pmi?.bodyId === nominalBodyId && pmi.result ? [...pmi.result.tolerances.map((t) => t.id), ...pmi.result.dimensions.filter((d) => d.nominal !== null && d.kind !== 'location').map((d) => d.id)] : [];
  gdtStore.setState({ check: { nominalBodyId, actualBodyId, status: 'running' }, highlight: null });
  const alignment = checkAlignment(actualBodyId, nominalBodyId, gdtStore.getState().onDatums);
  const call = await runFromPanel('evaluate_gdt', { actualBodyId, nominalBodyId, ...(ids.length ? { characteristics: ids } : {}), ...(alignment ? { alignment } : {}) });
  if (!call.ok) gdtStore.setState({ check: { nominalBodyId, actualBodyId, status: 'failed', error: call.error } });
}

type CheckAlignmentArg = { method: 'transform'; transform: number[][] } | { method: 'datums'; transform?: number[][] };

/**
 * The page's current alignment as evaluate_gdt's `alignment`: an alignment of this pair proposed and
 * not applied yet is sent as its transform (an applied one, or a share link's placement, is already
 * in the scan's placement, which evaluate_gdt reads); with `onDatums` the datum fit starts from there.
 */
export function checkAlignment(actualBodyId: string, nominalBodyId: string, onDatums: boolean): CheckAlignmentArg | null {
  const a = inspectStore.getState().alignment;
  const proposed = a && a.origin !== 'link' && a.movingBodyId === actualBodyId && a.fixedBodyId === nominalBodyId && a.status === 'proposed' && a.result.outcome === 'aligned' ? a.result.transform : null;
  if (onDatums) return { method: 'datums', ...(proposed ? { transform: proposed } : {}) };
  return proposed ? { method: 'transform', transform: proposed } : null;
}

/** How the last check placed the scan, in words (its result's `alignment`). */
export function alignmentWords(result: GdtResult): string {
  const a = result.alignment;
  if (!a) return 'read where it stands';
  if (a.method === 'datums') return `fitted to the datums ${(a.datums ?? []).join(' | ')}`;
  return 'read with the proposed alignment (not applied)';
}

/** evaluate_gdt finished (this button, its form, a share link, a session file): the table shows it. */
export function showCharacteristics(call: DoneCallOf<'evaluate_gdt'>): void {
  const args = (typeof call.args === 'object' && call.args !== null ? call.args : {}) as Record<string, unknown>;
  if (typeof args.nominalBodyId !== 'string' || typeof args.actualBodyId !== 'string') return;
  gdtStore.setState({ check: { nominalBodyId: args.nominalBodyId, actualBodyId: args.actualBodyId, status: 'done', result: call.result }, highlight: null });
}

/** inspection_report's `characteristics` for a report of this pair: the ids of the last check of the same pair, else none. */
export function reportCharacteristics(actualBodyId: string | null, nominalBodyId: string): { characteristics?: string[] } {
  const check = gdtStore.getState().check;
  if (check?.status !== 'done' || check.actualBodyId !== actualBodyId || check.nominalBodyId !== nominalBodyId || !check.result) return {};
  const ids = check.result.characteristics.map((c) => c.id);
  return ids.length ? { characteristics: ids } : {};
}

/** A removed body takes its PMI and checks with it. */
export function dropGdtOfRemoved(present: ReadonlySet<string>): void {
  const { pmi, check, highlight } = gdtStore.getState();
  gdtStore.setState({
    pmi: pmi && present.has(pmi.bodyId) ? pmi : null,
    check: check && present.has(check.nominalBodyId) && present.has(check.actualBodyId) ? check : null,
    highlight: highlight && present.has(highlight.bodyId) ? highlight : null,
  });
}
