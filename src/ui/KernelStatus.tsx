import { useKernel } from './useStores';

/** Whether the CAD kernel is there yet, and what already works without it. */
export function KernelStatus() {
  const status = useKernel((s) => s.status);
  const error = useKernel((s) => s.error);
  const loadMs = useKernel((s) => s.loadMs);
  let text: string;
  switch (status) {
    case 'idle':
    case 'loading':
      text = 'CAD kernel loading… STL files work already';
      break;
    case 'ready':
      text = loadMs === undefined ? 'CAD kernel ready' : `CAD kernel ready (${(loadMs / 1000).toFixed(1)} s)`;
      break;
    case 'failed':
      text = `CAD kernel failed to load: ${error ?? 'unknown error'}. STL files still work.`;
      break;
  }
  return (
    <div className={`kernel-status kernel-${status}`} data-testid="engine.kernel" data-status={status === 'idle' ? 'loading' : status} role="status">
      <span className="dot" aria-hidden="true" />
      {text}
    </div>
  );
}
