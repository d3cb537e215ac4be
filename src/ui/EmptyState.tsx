import { openDemoCompared } from './demo';
import { ErrorList } from './ErrorList';
import { FilePicker } from './FilePicker';
import { useScene } from './useStores';

/** The empty page: drop or pick files, or open the demo. */
export function EmptyState() {
  const pending = useScene((s) => s.pending);
  return (
    <div className="empty-drop" data-testid="scene.empty">
      <div className="empty-inner">
        <p className="empty-title">Drop the CAD part and its scan here</p>
        <p className="empty-text">
          Nominal (STEP, IGES, BREP, XBF) and actual (STL, PLY, OBJ mesh or XYZ, PLY point cloud), one or several at once; then align, compare
          and report. Files stay in your browser; nothing is uploaded.
        </p>
        <div className="empty-actions">
          <FilePicker label="Choose files…" />
          <button type="button" className="button" onClick={() => void openDemoCompared(import.meta.env.BASE_URL)} data-testid="scene.open-demo">
            Open the demo
          </button>
        </div>
        {pending.length > 0 && <p className="hint">Loading {pending.map((p) => p.fileName).join(', ')}…</p>}
        <ErrorList />
      </div>
    </div>
  );
}
