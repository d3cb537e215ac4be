import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { boundsOf, Viewport, type ViewBody, type ViewDirection, type ViewMarkers } from '../viewer/Viewport';
import { AssemblyTree, nodeAt } from './AssemblyTree';
import { BottomDock } from './BottomDock';
import { DeviationPanel, HeatOverlay, signed } from './DeviationPanel';
import { GraphPanel } from './GraphPanel';
import { hoverValueStore, inspectStore, openDemoCompared, openFiles } from './inspect';
import { clearPick, fitView, pickEdge, pickFace, selectBody, setHovered } from './actions';
import { copyText } from './format';
import { NoticeBar } from './NoticeBar';
import { SelectionPanel } from './SelectionPanel';
import { sceneStore, toolStore } from './stores';
import { cancelTool, shareLink } from './toolActions';
import { ToolPanel } from './ToolPanel';
import { BodyList } from './BodyList';
import { ErrorList } from './ErrorList';
import { FilePicker } from './FilePicker';
import { KernelStatus } from './KernelStatus';
import { MetricsPanel } from './MetricsPanel';
import { useScene } from './useStores';

function hasFiles(e: DragEvent): boolean {
  return e.dataTransfer?.types.includes('Files') ?? false;
}

/** Files dropped anywhere on the page are imported; returns whether a drag is over the page. */
function usePageDrop(): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    let depth = 0;
    const onEnter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      setDragging(true);
    };
    const onOver = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const onLeave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onDrop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      const files = e.dataTransfer ? [...e.dataTransfer.files] : [];
      if (files.length) void openFiles(files);
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, []);
  return dragging;
}

/** Keys: F fit, 1 front, 3 right, 7 top, 0 iso, G grid, A axes, E edges; Escape cancels a run, else clears the pick and selection. */
function useKeys(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        if (cancelTool()) return;
        if (sceneStore.getState().picked) clearPick();
        else selectBody(null);
        return;
      }
      if (isTextEntry(e.target)) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const view = VIEW_KEYS[e.key.toLowerCase()];
      if (view) {
        e.preventDefault();
        fitView(view);
      } else if (e.key === 'g' || e.key === 'G') sceneStore.setState((s) => ({ showGrid: !s.showGrid }));
      else if (e.key === 'a' || e.key === 'A') sceneStore.setState((s) => ({ showAxes: !s.showAxes }));
      else if (e.key === 'e' || e.key === 'E') toggleEdges();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** Where a key types text or picks an option: view keys stay off there (checkboxes and buttons pass). */
function isTextEntry(t: EventTarget | null): boolean {
  if (t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return true;
  if (t instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'color', 'file', 'range'].includes(t.type);
  return t instanceof HTMLElement && t.isContentEditable;
}

const VIEW_KEYS: Record<string, ViewDirection> = { f: 'current', '1': 'front', '3': 'right', '7': 'top', '0': 'iso' };

const VIEW_BUTTONS: { label: string; key: string; direction: ViewDirection }[] = [
  { label: 'Fit', key: 'F', direction: 'current' },
  { label: 'Front', key: '1', direction: 'front' },
  { label: 'Right', key: '3', direction: 'right' },
  { label: 'Top', key: '7', direction: 'top' },
  { label: 'Iso', key: '0', direction: 'iso' },
];

/** Edges on or off; a hovered or picked edge goes with them (it could not be seen or clicked). */
function toggleEdges(): void {
  const { showEdges, hovered, picked } = sceneStore.getState();
  sceneStore.setState({ showEdges: !showEdges, ...(showEdges && hovered?.entity === 'edge' ? { hovered: null } : {}) });
  if (showEdges && picked?.entity === 'edge') clearPick();
}

/** View buttons over the 3D view (each with its key), grid and axes toggles, the hovered face. */
function ViewToolbar() {
  const showGrid = useScene((s) => s.showGrid);
  const showAxes = useScene((s) => s.showAxes);
  const showEdges = useScene((s) => s.showEdges);
  const hovered = useScene((s) => s.hovered);
  const hoverValue = useStore(hoverValueStore, (s) => s);
  return (
    <>
      <div className="view-toolbar" role="toolbar" aria-label="View">
        {VIEW_BUTTONS.map((b) => (
          <button key={b.label} type="button" className="button small" onClick={() => fitView(b.direction)} title={`${b.label} (${b.key})`} aria-keyshortcuts={b.key}>
            {b.label}
          </button>
        ))}
        <button type="button" className="button small" aria-pressed={showGrid} onClick={() => sceneStore.setState({ showGrid: !showGrid })} title="Grid (G)" aria-keyshortcuts="G">
          Grid
        </button>
        <button type="button" className="button small" aria-pressed={showAxes} onClick={() => sceneStore.setState({ showAxes: !showAxes })} title="Axes (A)" aria-keyshortcuts="A">
          Axes
        </button>
        <button type="button" className="button small" aria-pressed={showEdges} onClick={toggleEdges} title="Edges (E)" aria-keyshortcuts="E">
          Edges
        </button>
      </div>
      <div className="hover-readout" aria-live="off" data-testid="hover-readout">
        {hovered ? `${hovered.bodyId} · ${hovered.entity}[${hovered.index}]` : 'Drag to orbit, right-drag to pan, wheel to zoom; click a face or an edge to pick it'}
        {hovered && hoverValue && hoverValue.bodyId === hovered.bodyId && (
          <span data-testid="hover-deviation">
            {' · deviation '}
            {Number.isNaN(hoverValue.value) ? 'ambiguous' : `${signed(hoverValue.value)} model units`}
          </span>
        )}
      </div>
    </>
  );
}

/** "Copy share link": enabled when every body came from a URL; the link also shows in a field. */
function ShareButton() {
  const bodies = useScene((s) => s.bodies);
  const lastRun = useStore(toolStore, (s) => s.lastRun);
  const [shown, setShown] = useState<string | null>(null);
  // Recomputed when the scene or the last run changes.
  const link = useMemo(() => shareLink(), [bodies, lastRun]);
  useEffect(() => setShown(null), [link]);
  return (
    <div className="share">
      <button
        type="button"
        className="button"
        disabled={!link.ok}
        title={link.ok ? 'Copy a link that loads these models and repeats the last tool run' : `No share link: ${link.reason}`}
        data-testid="share-link"
        onClick={() => {
          if (!link.ok) return;
          setShown(link.url);
          void copyText(link.url);
        }}
      >
        Copy share link
      </button>
      {shown && <input className="share-url" readOnly value={shown} aria-label="Share link" data-testid="share-link-url" onFocus={(e) => e.currentTarget.select()} />}
    </div>
  );
}

function EmptyState() {
  const pending = useScene((s) => s.pending);
  return (
    <div className="empty-drop" data-testid="empty-drop">
      <div className="empty-inner">
        <p className="empty-title">Drop CAD files or scans here</p>
        <p className="empty-text">
          STEP, IGES, BREP or XBF models and STL meshes, one or several at once. Files stay in your browser; nothing is uploaded.
        </p>
        <div className="empty-actions">
          <FilePicker label="Choose files…" />
          <button type="button" className="button" onClick={() => void openDemoCompared()} data-testid="open-demo">
            Open the demo
          </button>
        </div>
        {pending.length > 0 && <p className="hint">Loading {pending.map((p) => p.fileName).join(', ')}…</p>}
        <ErrorList />
      </div>
    </div>
  );
}

export function App() {
  const dragging = usePageDrop();
  useKeys();
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
  const flyTo = useStore(inspectStore, (s) => s.flyTo);
  const empty = bodies.length === 0;

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
            ...(heat?.status === 'done' && heat.fromBodyId === b.bodyId ? { vertexColors: heat.colors, vertexValues: heat.values } : {}),
            glow: !!assembly?.hovered && assembly.bodyId === b.bodyId,
          },
        ];
      }),
    [bodies, selectedId, picked, hovered, heat, assembly, showEdges],
  );

  const markers = useMemo<ViewMarkers>(() => {
    const out: ViewMarkers = {};
    if (heat?.status === 'done' && heat.deviation && viewBodies.some((b) => b.bodyId === heat.fromBodyId)) out.worstPoint = heat.deviation.fromToTo.worstPoint;
    if (sections) {
      const meshes = bodies.filter((b) => b.mesh && (b.bodyId === sections.fromBodyId || b.bodyId === sections.referenceBodyId)).map((b) => b.mesh!.positions);
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
    if (assembly?.hovered) out.placement = nodeAt(assembly.tree, assembly.hovered)?.worldTransform;
    return out;
  }, [heat, sections, assembly, bodies, viewBodies]);

  return (
    <div className="app">
      <header className="topbar">
        <h1 className="brand">brepscope</h1>
        <KernelStatus />
        <div className="topbar-actions">
          <ShareButton />
        </div>
      </header>
      <NoticeBar />
      <aside className="left" aria-label="Scene">
        {!empty && (
          <div className="drop-zone" data-testid="drop-zone">
            <p>Drop more files anywhere, or</p>
            <FilePicker />
            <ErrorList />
          </div>
        )}
        <BodyList />
        <AssemblyTree />
      </aside>
      <main className="viewport" aria-label="3D view" data-testid="viewport">
        {empty ? (
          <EmptyState />
        ) : (
          <>
            <Viewport
              bodies={viewBodies}
              fitToken={fitToken}
              direction={direction}
              showGrid={showGrid}
              showAxes={showAxes}
              onPick={(bodyId, face) => {
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
              flyTo={flyTo}
              onMiss={() => {
                clearPick();
              }}
            />
            <ViewToolbar />
            <HeatOverlay />
            <SelectionPanel />
          </>
        )}
      </main>
      {!empty && <BottomDock />}
      <aside className="right" aria-label="Inspector">
        <DeviationPanel />
        <MetricsPanel />
        <GraphPanel />
        <ToolPanel />
      </aside>
      {dragging && (
        <div className="drop-overlay" aria-hidden="true" data-testid="drop-overlay">
          <p>Drop to load into the scene</p>
        </div>
      )}
    </div>
  );
}
