import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { copyText } from './format';
import { shareLink } from './shareLinks';
import { toolStore } from './stores';
import { useScene } from './useStores';

/** "Copy share link": enabled when every body came from a URL; the link also shows in a field. */
export function ShareButton() {
  const bodies = useScene((s) => s.bodies);
  const lastRun = useStore(toolStore, (s) => s.lastRun);
  const [shown, setShown] = useState<string | null>(null);
  // Recomputed when the scene or the last run changes.
  const link = useMemo(() => shareLink(window.location.href), [bodies, lastRun]);
  useEffect(() => setShown(null), [link]);
  return (
    <div className="share">
      <button
        type="button"
        className="button"
        disabled={!link.ok}
        title={link.ok ? 'Copy a link that loads these models and repeats the last tool run' : `No share link: ${link.reason}`}
        data-testid="share.copy"
        onClick={() => {
          if (!link.ok) return;
          setShown(link.url);
          void copyText(link.url);
        }}
      >
        Copy share link
      </button>
      {shown && <input className="share-url" readOnly value={shown} aria-label="Share link" data-testid="share.url" onFocus={(e) => e.currentTarget.select()} />}
    </div>
  );
}
