import { importUrls } from './bodies';
import { comparePair, compareBodies } from './deviationReview';

/** The built-in demo: a CAD part and a scan-like mesh of it, served from public/demo (docs/app.md). */
export const DEMO_FILES = ['part.brep', 'scan.stl'] as const;

export function openDemo(baseUrl: string): Promise<string[]> {
  return importUrls(DEMO_FILES.map((name) => `${baseUrl}demo/${name}`));
}

/** The demo, already compared: its reconstruction coloured against its scan. */
export async function openDemoCompared(baseUrl: string): Promise<void> {
  const ids = await openDemo(baseUrl);
  const pair = comparePair();
  if (pair && ids.includes(pair.from) && ids.includes(pair.to)) await compareBodies(pair.from, pair.to);
}
