import { addError, importUrls } from './bodies';
import { fieldsOf, valuesOf } from './schemaForm';
import { session } from './session';
import { buildShareHash, parseShareHash } from './shareLink';
import { queueLabels } from './deviationReview';
import { inspectStore, toolStore } from './stores';
import { isToolName, loadManifests, runFromPanel } from './toolRuns';

/** Share links applied to the page, and the link for the page's current scene and last run. */

/** Applies a share link in the location hash: load its models, fill and run its tool. */
export async function openShareLink(hash: string): Promise<void> {
  const parsed = parseShareHash(hash);
  if (!parsed) return;
  for (const e of parsed.errors) addError('share link', e.code, e.message);
  const { link } = parsed;
  const [manifests] = await Promise.all([loadManifests(), importUrls(link.models)]);
  if (link.tool === undefined) return;
  const manifest = manifests.find((m) => m.name === link.tool);
  if (!manifest || manifest.category !== 'scene' || !isToolName(manifest.name)) {
    const known = manifests.filter((m) => m.category === 'scene').map((m) => m.name);
    addError('share link', manifest ? 'INVALID_ARGUMENT' : 'UNKNOWN_TOOL', `tool: '${link.tool}' ${manifest ? 'changes the scene and cannot run from a link' : 'is not a tool'}; tools: ${known.join(', ')}`);
    return;
  }
  // Labels wait for the heat map the tool run starts (a measure_deviation link).
  if (link.labels) queueLabels(link.labels);
  const args = link.args ?? {};
  toolStore.setState((s) => ({ selected: manifest.name, forms: { ...s.forms, [manifest.name]: valuesOf(fieldsOf(manifest.inputSchema), args) } }));
  await runFromPanel(manifest.name, args);
}

/**
 * A link that rebuilds the scene and repeats the last tool run, or why there is none: every body
 * must have come from a URL.
 */
export function shareLink(pageUrl: string): { ok: true; url: string } | { ok: false; reason: string } {
  const files = session().keptFiles();
  if (files.length === 0) return { ok: false, reason: 'the scene is empty' };
  const local = files.filter((f) => !f.sourceUrl).map((f) => f.bodyId);
  if (local.length) return { ok: false, reason: `${local.join(', ')} came from local files, which a link cannot carry` };
  const last = toolStore.getState().lastRun;
  const labels = inspectStore.getState().heat?.labels?.points;
  const hash = buildShareHash({
    models: files.map((f) => f.sourceUrl ?? ''),
    ...(last ? { tool: last.tool, args: last.args } : {}),
    ...(labels?.length ? { labels: labels.map((p) => [p[0], p[1], p[2]] as [number, number, number]) } : {}),
  });
  return { ok: true, url: `${pageUrl.split('#')[0]}${hash}` };
}
