import { AssemblyTree } from './AssemblyTree';
import { BodyList } from './BodyList';
import { BottomDock } from './BottomDock';
import { CharacteristicsTable } from './CharacteristicsTable';
import { DeviationPanel } from './DeviationPanel';
import { EmptyState } from './EmptyState';
import { FeaturePanel } from './FeaturePanel';
import { JourneyIntro } from './InspectionSteps';
import { ErrorList } from './ErrorList';
import { FilePicker } from './FilePicker';
import { GraphPanel } from './GraphPanel';
import { KernelStatus } from './KernelStatus';
import { useKeyMap } from './keyMap';
import { useWarmViewport } from './useWarmViewport';
import { MetricsPanel } from './MetricsPanel';
import { NoticeBar } from './NoticeBar';
import { PmiPanel } from './PmiPanel';
import { SceneView } from './SceneView';
import { ShareButton } from './ShareButton';
import { ToolPanel } from './ToolPanel';
import { usePageDrop } from './usePageDrop';
import { useScene } from './useStores';

/** The page's layout: scene on the left, the 3D view in the middle, inspectors on the right. */
export function App() {
  const dragging = usePageDrop();
  useKeyMap();
  const empty = useScene((s) => s.bodies.length === 0);
  // The 3D view (its WebGL context, its shaders) is made when the page is idle, behind the empty
  // page, so the first file dropped does not pay for it in the task that shows it.
  const warm = useWarmViewport();
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
          <div className="drop-zone" data-testid="scene.drop-zone">
            <p>Drop more files anywhere, or</p>
            <FilePicker />
            <ErrorList />
          </div>
        )}
        <BodyList />
        <AssemblyTree />
        <PmiPanel />
      </aside>
      <main className="viewport" aria-label="3D view" data-testid="viewport">
        {(!empty || warm) && <SceneView empty={empty} />}
        {empty && <EmptyState />}
      </main>
      {!empty && <BottomDock />}
      <aside className="right" aria-label="Inspector">
        {/* An empty page offers the journey (and the demo, in the viewport), not the first tool of the registry. */}
        {empty ? <JourneyIntro /> : <DeviationPanel />}
        <CharacteristicsTable />
        <MetricsPanel />
        <FeaturePanel />
        <GraphPanel />
        {!empty && <ToolPanel />}
      </aside>
      {dragging && (
        <div className="drop-overlay" aria-hidden="true" data-testid="scene.drop-overlay">
          <p>Drop to load into the scene</p>
        </div>
      )}
    </div>
  );
}
