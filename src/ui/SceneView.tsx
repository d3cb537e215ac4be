import { useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { boundsOf, Viewport, type LabelSpots, type ViewBody, type ViewGhost, type ViewMarkers } from '../viewer/Viewport';
import { worstOf } from './worstPoint';
import { alignSetupStore, GHOST_COLOUR, pickAlignFace, pickedAlignFaces } from './alignSetup';
import { nodeAt } from './AssemblyTree';
import { selectBody } from './bodies';
import { HeatOverlay } from './DeviationPanel';
import { addLabel, inspectionPairs } from './deviationReview';
import { highlightedFeatureFaces } from './features';
import { gdtStore, HIGHLIGHT_COLOURS } from './gdt';
import { clearPick, pickEdge, pickFace, setHovered } from './picking';
import { SelectionPanel } from './SelectionPanel';
import { signed } from './Stat';
import { hoverValueStore, inspectStore } from './stores';
import { useScene } from './useStores';
import { viewCoverStore } from './viewCovers';
import { ViewToolbar } from './ViewToolbar';

/** The other bodies' opacity while faces of the nominal are picked (or stand picked) for an alignment. */
const PICKING_OPACITY = 0.3;

/** The 3D view: the scene's bodies as the stores describe them, heat colours, markers, picking. */
export function SceneView({ empty = false }: { empty?: boolean }) {
  const bodies = useScene((s) => s.bodies);
  const selectedId = useScene((s) => s.selectedId);
  const fitToken = useScene((s) => s.fitToken);
  const direction = useScene((s) => s.viewDirection);
  const showGrid = useScene((s) => s.showGrid);
  const showAxes = useScene((s) => s.showAxes);
  const showEdges = useScene((s) => s.showEdges);
  const picked = useScene((s) => s.picked);
  const hovered = useScene((s) => s.hovered);
  const heat = useStore(inspectStore, (s) => s.heat);
  const sections = useStore(inspectStore, (s) => s.sections);
  const assembly = useStore(inspectStore, (s) => s.assembly);
  const features = useStore(inspectStore, (s) => s.features);
  const flyTo = useStore(inspectStore, (s) => s.flyTo);
  const holdFrames = useScene((s) => s.holdFrames);
  const fullDetail = useScene((s) => s.fullDetail);
  // The part of the view the legend leaves free: the scene is drawn there.
  const frame = useStore(viewCoverStore, (s) => s.frame);
  const gdt = useStore(gdtStore, (s) => s.highlight);
  const alignment = useStore(inspectStore, (s) => s.alignment);
  const setup = useStore(alignSetupStore);
  // Roles follow the nominal the user marks (the faces to pick are the nominal's).
  useStore(inspectStore, (s) => s.nominalMark);
  // The nominal (the body an alignment's datums are faces of) while an alignment method picks faces on it.
  const alignNominal = setup.method === 'bestFit' ? null : (inspectionPairs()[0]?.nominal ?? null);
  const alignFaces = useMemo(() => pickedAlignFaces(setup), [setup]);
  // Datums being set up (picking, or picked and not aligned yet): the other bodies fade so the nominal's picked faces show.
  const fadeOthers = !!alignNominal && (!!setup.picking || !alignment);
  // A proposal not applied yet: the moving body drawn where Apply would put it.
  const ghost = useMemo<ViewGhost | null>(
    () =>
      setup.preview && alignment && alignment.origin !== 'link' && (alignment.status === 'proposed' || alignment.status === 'applying') && alignment.result.outcome === 'aligned'
        ? { bodyId: alignment.movingBodyId, transform: alignment.result.transform, color: GHOST_COLOUR }
        : null,
    [alignment, setup.preview],
  );

  const viewBodies = useMemo<ViewBody[]>(
    () =>
      bodies.flatMap((b) => {
        if (!b.mesh || !b.visible) return [];
        const pickedIndex = picked?.bodyId === b.bodyId ? Number(/\d+/.exec(picked.id)?.[0]) : null;
        const hoveredHere = hovered?.bodyId === b.bodyId ? hovered : null;
        return [
          {
            bodyId: b.bodyId,
            kind: b.summary.kind,
            mesh: b.mesh,
            color: b.color,
            opacity: b.opacity,
            selected: b.bodyId === selectedId,
            hoveredFace: hoveredHere?.entity === 'face' ? hoveredHere.index : null,
            pickedFace: picked?.entity === 'face' ? pickedIndex : null,
            edges: showEdges ? b.edges : undefined,
            hoveredEdge: hoveredHere?.entity === 'edge' ? hoveredHere.index : null,
            pickedEdge: picked?.entity === 'edge' ? pickedIndex : null,
            // The heat map's own triangles (the display mesh refined so a no-data patch has vertices) while it is shown.
            ...(heat?.status === 'done' && heat.fromBodyId === b.bodyId ? { ...(heat.mesh && b.summary.kind !== 'points' ? { mesh: heat.mesh } : {}), vertexColors: heat.colors, vertexValues: heat.values, vertexNoData: heat.noData } : {}),
            glow: !!assembly?.hovered && assembly.bodyId === b.bodyId,
            ...(features?.bodyId === b.bodyId ? { featureFaces: highlightedFeatureFaces(b.bodyId) } : {}),
            ...(gdt?.bodyId === b.bodyId ? { gdtFaces: { faces: gdt.faces, color: HIGHLIGHT_COLOURS[gdt.tone] } } : {}),
            ...(alignNominal === b.bodyId && alignFaces.length ? { alignFaces } : {}),
            // While faces of the nominal are picked, the scan over it lets the clicks through and fades, so the picked faces show.
            ...(setup.picking && alignNominal ? (b.bodyId === alignNominal ? { pickEdges: false } : { pickable: false }) : {}),
            ...(fadeOthers && b.bodyId !== alignNominal ? { opacity: Math.min(b.opacity, PICKING_OPACITY) } : {}),
          },
        ];
      }),
    [bodies, selectedId, picked, hovered, heat, assembly, showEdges, features, gdt, alignNominal, alignFaces, setup.picking, fadeOthers],
  );

  const [labelSpots, setLabelSpots] = useState<LabelSpots>([]);
  const markers = useMemo<ViewMarkers>(() => {
    const out: ViewMarkers = {};
    const worst = heat?.status === 'done' ? worstOf(heat) : null;
    if (worst && viewBodies.some((b) => b.bodyId === heat!.fromBodyId)) out.worstPoint = worst.point;
    if (sections) {
      const meshes = bodies.filter((b) => b.mesh && (b.bodyId === sections.fromBodyId || b.bodyId === sections.referenceBodyId)).flatMap((b) => (b.mesh ? [b.mesh] : []));
      const bounds = boundsOf(meshes);
      if (bounds) {
        out.stations = {
          axis: sections.axis,
          coords: sections.result.sections.map((st) => st.axisCoord),
          worst: sections.result.worstStation,
          focused: sections.focused,
          bounds,
        };
      }
    }
    if (heat?.status === 'done' && heat.labels?.points.length) out.labels = heat.labels.points;
    if (assembly?.hovered) out.placement = nodeAt(assembly.tree, assembly.hovered)?.worldTransform;
    return out;
  }, [heat, sections, assembly, bodies, viewBodies]);

  return (
    <>
      <Viewport
        holdFrames={holdFrames}
        fullDetail={fullDetail}
        frame={frame}
        bodies={viewBodies}
        fitToken={fitToken}
        direction={direction}
        showGrid={showGrid}
        showAxes={showAxes}
        onPick={(bodyId, face, point) => {
          if (heat?.status === 'done' && heat.labels?.adding && bodyId === heat.fromBodyId) {
            addLabel([point[0], point[1], point[2]]);
            return;
          }
          if (setup.picking && bodyId === alignNominal) {
            pickAlignFace(face);
            return;
          }
          selectBody(bodyId);
          void pickFace(bodyId, face);
        }}
        onHover={(bodyId, face) => setHovered(bodyId, face, 'face')}
        onPickEdge={(bodyId, edge) => {
          selectBody(bodyId);
          void pickEdge(bodyId, edge);
        }}
        onHoverEdge={(bodyId, edge) => setHovered(bodyId, edge, 'edge')}
        onHoverValue={(bodyId, value) => hoverValueStore.setState(value === null ? null : { bodyId, value }, true)}
        markers={markers}
        onLabelSpots={setLabelSpots}
        flyTo={flyTo}
        ghost={ghost}
        onMiss={clearPick}
      />
      {markers.labels && <LabelTags spots={labelSpots} />}
      {!empty && <ViewToolbar />}
      <HeatOverlay />
      <SelectionPanel />
    </>
  );
}

/**
 * The deviation labels' callouts over the view: the number the list gives each label and its
 * signed value, beside its dot, red when it fails the tolerance (as GOM and PolyWorks label a
 * point). Before, the view drew bare dots, so which dot was "2. −0.1116 FAIL" was a guess.
 */
function LabelTags({ spots }: { spots: LabelSpots }) {
  const labels = useStore(inspectStore, (s) => (s.heat?.status === 'done' ? s.heat.labels : undefined));
  if (!labels?.points.length) return null;
  return (
    <div className="label-tags" aria-hidden="true">
      {labels.points.map((p, i) => {
        const at = spots[i];
        if (!at) return null;
        const l = labels.status === 'done' ? labels.result?.[i] : undefined;
        const value = l ? (l.signed === null ? `±${Number(l.distance.toPrecision(4))} (sign ?)` : signed(l.signed)) : '…';
        return (
          <span key={`${i}:${p.join(',')}`} className={`label-tag ${l ? (l.pass ? 'pass' : 'fail') : ''}`} style={{ left: at[0], top: at[1] }} data-testid="view.label-tag">
            <b>{i + 1}</b> {value}
          </span>
        );
      })}
    </div>
  );
}
