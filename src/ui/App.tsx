import { useEffect, useMemo, useState } from 'react';
import { Viewport, type ViewBody } from '../viewer/Viewport';
import { fitView, importFiles, openDemo, selectBody } from './actions';
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
      if (files.length) void importFiles(files);
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

function useFitKey(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
      if (e.key === 'f' && !e.ctrlKey && !e.metaKey && !e.altKey) fitView();
      if (e.key === 'Escape') selectBody(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
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
          <button type="button" className="button" onClick={() => void openDemo()} data-testid="open-demo">
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
  useFitKey();
  const bodies = useScene((s) => s.bodies);
  const selectedId = useScene((s) => s.selectedId);
  const fitToken = useScene((s) => s.fitToken);
  const empty = bodies.length === 0;

  const viewBodies = useMemo<ViewBody[]>(
    () =>
      bodies.flatMap((b) =>
        b.mesh && b.visible ? [{ bodyId: b.bodyId, kind: b.summary.kind, mesh: b.mesh, color: b.color, selected: b.bodyId === selectedId }] : [],
      ),
    [bodies, selectedId],
  );

  return (
    <div className="app">
      <header className="topbar">
        <h1 className="brand">brepscope</h1>
        <KernelStatus />
        <div className="topbar-actions">
          {!empty && (
            <button type="button" className="button" onClick={fitView} title="Fit the view to the scene (F)">
              Fit view
            </button>
          )}
        </div>
      </header>
      <aside className="left">
        {!empty && (
          <div className="drop-zone" data-testid="drop-zone">
            <p>Drop more files anywhere, or</p>
            <FilePicker />
            <ErrorList />
          </div>
        )}
        <BodyList />
      </aside>
      <main className="viewport" aria-label="3D view" data-testid="viewport">
        {empty ? <EmptyState /> : <Viewport bodies={viewBodies} fitToken={fitToken} onPick={selectBody} onMiss={() => selectBody(null)} />}
      </main>
      <aside className="right">
        <MetricsPanel />
      </aside>
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <p>Drop to load into the scene</p>
        </div>
      )}
    </div>
  );
}
