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
        <p className="empty-title">Drop CAD files or scans here</p>
        <p className="empty-text">
          STEP, IGES, BREP or XBF models and STL meshes, one or several at once. Files stay in your browser; nothing is uploaded.
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
