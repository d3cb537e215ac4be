import type { OutputFile } from '../engine';
import { asVec3, inspectionPairs, objectArgs, TOLERANCE_REST_MS } from './deviationReview';
import { inspectStore, toolStore, type DoneCallOf, type HeatState, type Vec3 } from './stores';
import { runFromPanel, selectTool, setFormValue } from './toolRuns';

/** Cross sections of the reviewed pair: cross_section_compare's stations, planes and overlay images. */

/** Where cross_section_compare writes its PNGs in the worker when run from the review. */
export const SECTIONS_DIR = 'sections';

/**
 * The pair sections are cut for: the actual as candidate against the nominal as reference whenever the
 * review knows its roles, whichever surface the heat map colours. So every station's signed mean reads
 * actual minus nominal and the whiskers stand on the nominal's outline. Cutting the review's pair as it
 * was measured printed +0.1038 for a station whose actual-minus-nominal mean is -0.1038 when the heat
 * map coloured the nominal (issue 29).
 */
export function sectionPair(heat: Pick<HeatState, 'fromBodyId' | 'toBodyId' | 'nominalBodyId'> | null, offered: { from: string; to: string } | null): { from: string; to: string } | null {
  if (!heat) return offered;
  if (heat.nominalBodyId === heat.fromBodyId) return { from: heat.toBodyId, to: heat.fromBodyId };
  return { from: heat.fromBodyId, to: heat.toBodyId };
}

export async function cutSections(axis: Vec3, stations: number): Promise<void> {
  const heat = inspectStore.getState().heat;
  const roles = inspectionPairs()[0];
  const pair = sectionPair(heat, roles ? { from: roles.actual, to: roles.nominal } : null);
  if (!pair || toolStore.getState().running) return;
  // The user's tolerance colours the whiskers as it colours the map.
  const tolerance = heat?.tolerance ?? inspectStore.getState().tolerance.value;
  const args = { fromBodyId: pair.from, referenceBodyId: pair.to, axis, stations, outputDir: SECTIONS_DIR, tolerance };
  selectTool('cross_section_compare');
  setFormValue('cross_section_compare', 'fromBodyId', pair.from);
  setFormValue('cross_section_compare', 'referenceBodyId', pair.to);
  setFormValue('cross_section_compare', 'axis', [String(axis[0]), String(axis[1]), String(axis[2])]);
  setFormValue('cross_section_compare', 'stations', String(stations));
  setFormValue('cross_section_compare', 'outputDir', SECTIONS_DIR);
  setFormValue('cross_section_compare', 'tolerance', String(tolerance));
  // Like Compare, a journey action: the steps stay in view (the strip below shows the result).
  await runFromPanel('cross_section_compare', args, { reveal: false });
}

/** cross_section_compare finished (its button, its form, a link): its stations with the images the run wrote. */
export function showSections(call: DoneCallOf<'cross_section_compare'>): void {
  const { result, outputs } = call;
  const args = objectArgs(call.args);
  const images: Record<number, OutputFile> = {};
  for (const s of result.sections) {
    const file = s.imagePath ? outputs.find((o) => o.path === s.imagePath) : undefined;
    if (file) images[s.station] = file;
  }
  // The same cut at another tolerance keeps the station the user looks at.
  const previous = inspectStore.getState().sections;
  const recut = !!previous?.args && sameCut(previous.args, args) && previous.result.sections.length === result.sections.length;
  inspectStore.setState({
    sections: {
      fromBodyId: String(args.fromBodyId),
      referenceBodyId: String(args.referenceBodyId),
      axis: asVec3(args.axis) ?? [0, 0, 1],
      result,
      images,
      focused: recut ? previous.focused : result.worstStation,
      args,
      ...(recut ? { recut } : {}),
    },
  });
}

/** Two runs' arguments that differ at most in their tolerance. */
function sameCut(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const rest = ({ tolerance: _t, ...r }: Record<string, unknown>) => JSON.stringify(Object.entries(r).sort(([x], [y]) => (x < y ? -1 : 1)));
  return rest(a) === rest(b);
}

let recutTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * The sections on screen follow the tolerance (issue 29.3: one value for colours, legend, labels,
 * histogram, sections, report): when it has rested, the same stations are cut again with it, so the
 * whiskers' grey band and their in/out colours are the map's. Returns the unsubscribe (wired at start-up).
 */
export function followTolerance(): () => void {
  const unsubscribe = inspectStore.subscribe((s, prev) => {
    if (s.tolerance.value === prev.tolerance.value || !s.sections) return;
    clearTimeout(recutTimer);
    recutTimer = setTimeout(() => void recutSections(), TOLERANCE_REST_MS);
  });
  return () => {
    clearTimeout(recutTimer);
    unsubscribe();
  };
}

/**
 * Cuts the sections on screen again when their whiskers' band is not the tolerance; waits while
 * another tool runs (one run at a time).
 */
export async function recutSections(): Promise<void> {
  const { sections, tolerance } = inspectStore.getState();
  const band = sections?.result.whiskers?.tolerance;
  if (!sections?.args || band === undefined || band === tolerance.value) return;
  if (toolStore.getState().running) {
    clearTimeout(recutTimer);
    recutTimer = setTimeout(() => void recutSections(), TOLERANCE_REST_MS);
    return;
  }
  setFormValue('cross_section_compare', 'tolerance', String(tolerance.value));
  await runFromPanel('cross_section_compare', { ...sections.args, tolerance: tolerance.value }, { reveal: false });
}

/**
 * The worst station's signed mean as its header prints it: the station's own signed value (the
 * result's maxAbsSignedSection is its magnitude, and printed with a sign it read +0.1038 for -0.1038).
 */
export function worstSigned(result: { worstStation: number | null; sections: readonly { station: number; signedMean: number | null }[] }): number | null {
  if (result.worstStation === null) return null;
  return result.sections.find((s) => s.station === result.worstStation)?.signedMean ?? null;
}

export function focusStation(station: number | null): void {
  inspectStore.setState((s) => (s.sections ? { sections: { ...s.sections, focused: station } } : s));
}
