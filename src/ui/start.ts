import type { EngineClient } from '../workers/client';
import { bodiesLost, restored } from './bodies';
import { resetDeviationReview } from './deviationReview';
import { followRemovedBodies } from './inspection';
import { applyResult } from './resultViews';
import { followTolerance } from './sections';
import { startSession, stopSession, type Session } from './session';
import { resetStores } from './stores';
import { forgetManifests, loadManifests, setAfterRun } from './toolRuns';

let unwire: (() => void)[] = [];

/**
 * The page's wiring, in one place: the engine session and what it tells the page, the result
 * registry after every panel run, the views that follow the scene. Nothing is wired at import time.
 */
export function startApp(createClient: () => EngineClient): Session {
  stopApp();
  const session = startSession(createClient, { bodiesLost, restored });
  setAfterRun(applyResult);
  unwire.push(followRemovedBodies(), followTolerance(), () => setAfterRun(() => undefined));
  void loadManifests().catch(() => undefined);
  return session;
}

/** Undoes startApp and resets every store: a fresh page (tests). */
export function stopApp(): void {
  for (const undo of unwire) undo();
  unwire = [];
  stopSession();
  forgetManifests();
  resetDeviationReview();
  resetStores();
}
