import { generalTolerance, type GeneralTolerance } from '../engine';
import { setTolerance } from './deviationReview';
import { gdtStore, pmiBodyOf } from './gdt';
import { DEFAULT_TOLERANCE, inspectStore, sceneStore } from './stores';

/**
 * The tolerance default from the CAD (issue 29.3): when the nominal is a STEP body whose PMI holds a
 * general tolerance (generalTolerance's rule, docs/gdt.md), the tolerance field takes it and says so;
 * else the stated default stands. What the user typed, or a link or session brought, is never
 * overwritten: only a default (or an earlier PMI value) follows the nominal's PMI.
 */

/** The nominal's general tolerance, once its PMI is read: undefined while unknown (no STEP nominal, or still reading). */
export function nominalGeneralTolerance(): GeneralTolerance | null | undefined {
  const bodyId = pmiBodyOf();
  const pmi = gdtStore.getState().pmi;
  if (!bodyId || pmi?.bodyId !== bodyId || pmi.status !== 'done' || !pmi.result) return undefined;
  const faces = sceneStore.getState().bodies.find((b) => b.bodyId === bodyId)?.summary.faces ?? 0;
  return generalTolerance(pmi.result, faces);
}

export function adoptPmiTolerance(): void {
  const current = inspectStore.getState().tolerance;
  if (current.source === 'user' || current.source === 'link') return;
  const general = nominalGeneralTolerance();
  if (general) {
    if (current.source !== 'pmi' || current.value !== general.value) setTolerance(general.value, 'pmi');
  } else if (current.source === 'pmi' && general !== undefined) {
    setTolerance(DEFAULT_TOLERANCE, 'default');
  } else if (current.source === 'pmi' && !pmiBodyOf()) {
    // The STEP nominal went away (removed, or another body marked): back to the stated default.
    setTolerance(DEFAULT_TOLERANCE, 'default');
  }
}
