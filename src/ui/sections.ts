import type { OutputFile } from '../engine';
import { asVec3, objectArgs, reviewedPair } from './deviationReview';
import { inspectStore, toolStore, type DoneCallOf, type Vec3 } from './stores';
import { runFromPanel, selectTool, setFormValue } from './toolRuns';

/** Cross sections of the reviewed pair: cross_section_compare's stations, planes and overlay images. */

/** Where cross_section_compare writes its PNGs in the worker when run from the review. */
export const SECTIONS_DIR = 'sections';

export async function cutSections(axis: Vec3, stations: number): Promise<void> {
  const pair = reviewedPair();
  if (!pair || toolStore.getState().running) return;
  const args = { fromBodyId: pair.from, referenceBodyId: pair.to, axis, stations, outputDir: SECTIONS_DIR };
  selectTool('cross_section_compare');
  setFormValue('cross_section_compare', 'fromBodyId', pair.from);
  setFormValue('cross_section_compare', 'referenceBodyId', pair.to);
  setFormValue('cross_section_compare', 'axis', [String(axis[0]), String(axis[1]), String(axis[2])]);
  setFormValue('cross_section_compare', 'stations', String(stations));
  setFormValue('cross_section_compare', 'outputDir', SECTIONS_DIR);
  await runFromPanel('cross_section_compare', args);
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
  inspectStore.setState({
    sections: {
      fromBodyId: String(args.fromBodyId),
      referenceBodyId: String(args.referenceBodyId),
      axis: asVec3(args.axis) ?? [0, 0, 1],
      result,
      images,
      focused: result.worstStation,
    },
  });
}

export function focusStation(station: number | null): void {
  inspectStore.setState((s) => (s.sections ? { sections: { ...s.sections, focused: station } } : s));
}
