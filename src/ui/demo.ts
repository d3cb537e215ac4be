import { importUrls } from './bodies';
import { comparePair, compareBodies } from './deviationReview';

/** The built-in demo: a CAD part and a scan-like mesh of it, served from public/demo (docs/app.md). */
export const DEMO_FILES = ['part.brep', 'scan.stl'] as const;

export function openDemo(baseUrl: string, onImported?: (bodyId: string) => void): Promise<string[]> {
  return importUrls(
    DEMO_FILES.map((name) => `${baseUrl}demo/${name}`),
    onImported ? { onImported } : {},
  );
}

/**
 * The demo, already compared: its reconstruction coloured against its scan. The comparison starts
 * as soon as both bodies are in the scene, queued in the worker right behind their drawing, not
 * after the page has drawn them: the worker goes from the part's display mesh to the deviation
 * without waiting for the page (0.2 to 0.5 s of a cold demo).
 */
export async function openDemoCompared(baseUrl: string): Promise<void> {
  const imported = new Set<string>();
  let compared: Promise<void> | undefined;
  await openDemo(baseUrl, (bodyId) => {
    imported.add(bodyId);
    if (compared || imported.size < DEMO_FILES.length) return;
    const pair = comparePair();
    if (pair && imported.has(pair.from) && imported.has(pair.to)) compared = compareBodies(pair.from, pair.to);
  });
  await compared;
}
