import { useRef } from 'react';
import { useStore } from 'zustand';
import { signed } from './Stat';
import { hoverValueStore, inspectStore, type ViewDirection } from './stores';
import { useScene, useUnits } from './useStores';
import { useViewCover } from './viewCovers';
import { fitView, toggleAxes, toggleEdges, toggleFullDetail, toggleGrid } from './view';

const VIEW_BUTTONS: { label: string; key: string; direction: ViewDirection }[] = [
  { label: 'Fit', key: 'F', direction: 'current' },
  { label: 'Front', key: '1', direction: 'front' },
  { label: 'Right', key: '3', direction: 'right' },
  { label: 'Top', key: '7', direction: 'top' },
  { label: 'Iso', key: '0', direction: 'iso' },
];

/** View buttons over the 3D view (each with its key), grid, axes and edge toggles, the hovered face. */
export function ViewToolbar() {
  const showGrid = useScene((s) => s.showGrid);
  const showAxes = useScene((s) => s.showAxes);
  const showEdges = useScene((s) => s.showEdges);
  const fullDetail = useScene((s) => s.fullDetail);
  // Offered when a body is big enough to be drawn at a level of detail.
  const big = useScene((s) => s.bodies.some((b) => !!b.mesh?.viewer?.levels?.length));
  const hovered = useScene((s) => s.hovered);
  const hoverValue = useStore(hoverValueStore, (s) => s);
  const heat = useStore(inspectStore, (s) => s.heat);
  const hoverUnits = useUnits([heat?.fromBodyId, heat?.toBodyId]);
  // Beside the legend, the part is drawn under the toolbar too, not behind it (viewCovers.ts).
  const ref = useRef<HTMLDivElement>(null);
  useViewCover(ref, 'toolbar', true);
  return (
    <>
      <div ref={ref} className="view-toolbar" role="toolbar" aria-label="View" data-testid="view.toolbar">
        {VIEW_BUTTONS.map((b) => (
          <button key={b.label} type="button" className="button small" onClick={() => fitView(b.direction)} title={`${b.label} (${b.key})`} aria-keyshortcuts={b.key}>
            {b.label}
          </button>
        ))}
        <button type="button" className="button small" aria-pressed={showGrid} onClick={toggleGrid} title="Grid (G)" aria-keyshortcuts="G">
          Grid
        </button>
        <button type="button" className="button small" aria-pressed={showAxes} onClick={toggleAxes} title="Axes (A)" aria-keyshortcuts="A">
          Axes
        </button>
        <button type="button" className="button small" aria-pressed={showEdges} onClick={toggleEdges} title="Edges (E)" aria-keyshortcuts="E">
          Edges
        </button>
        {big && (
          <button type="button" className="button small" aria-pressed={fullDetail} onClick={toggleFullDetail} title="Draw every triangle of big scans when the view is still (slow without a GPU)" data-testid="view.full-detail">
            Full detail
          </button>
        )}
      </div>
      <div className="hover-readout" aria-live="off" data-testid="viewport.hover">
        {hovered ? `${hovered.bodyId} · ${hovered.entity}[${hovered.index}]` : 'Drag to orbit, right-drag to pan, wheel to zoom; click a face or an edge to pick it'}
        {hovered && hoverValue && hoverValue.bodyId === hovered.bodyId && (
          <span data-testid="viewport.hover-deviation">
            {' · deviation '}
            {hoverValue.value === 'noData' ? 'no data' : Number.isNaN(hoverValue.value) ? 'ambiguous' : `${signed(hoverValue.value)} ${hoverUnits.length}`}
          </span>
        )}
      </div>
    </>
  );
}
