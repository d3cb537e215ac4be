import { clearHeatmap } from './deviationReview';
import { dropFeaturesOfRemoved } from './features';
import { inspectStore, sceneStore } from './stores';

/** Views of a removed body go with it; returns the unsubscribe function (wired at start-up). */
export function followRemovedBodies(): () => void {
  return sceneStore.subscribe((s, prev) => {
    if (s.bodies === prev.bodies) return;
    const ids = new Set(s.bodies.map((b) => b.bodyId));
    const { heat, sections, assembly, deviationSections, alignChecked, alignment } = inspectStore.getState();
    if (heat && (!ids.has(heat.fromBodyId) || !ids.has(heat.toBodyId))) clearHeatmap();
    if (sections && (!ids.has(sections.fromBodyId) || !ids.has(sections.referenceBodyId))) inspectStore.setState({ sections: null });
    if (deviationSections && !ids.has(deviationSections.fromBodyId)) inspectStore.setState({ deviationSections: null });
    if (assembly?.bodyId && !ids.has(assembly.bodyId)) inspectStore.setState({ assembly: { ...assembly, bodyId: null } });
    // A file dropped again under the same name is a new body: the finding was about the old one.
    if (alignChecked && (!ids.has(alignChecked.movingBodyId) || !ids.has(alignChecked.fixedBodyId))) inspectStore.setState({ alignChecked: null });
    // An alignment of a body that went (removed, or read again in another unit) no longer applies to anything shown.
    if (alignment && (!ids.has(alignment.movingBodyId) || ('fixedBodyId' in alignment && !ids.has(alignment.fixedBodyId)))) inspectStore.setState({ alignment: null });
    dropFeaturesOfRemoved(ids);
  });
}
