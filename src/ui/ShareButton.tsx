import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { copyText } from './format';
import { shareLink } from './shareLinks';
import { inspectStore, toolStore } from './stores';
import { saveSession } from './sessionFile';
import { useScene } from './useStores';

/** "Copy share link": enabled when every body came from a URL; the link also shows in a field. */
export function ShareButton() {
  const bodies = useScene((s) => s.bodies);
  const lastRun = useStore(toolStore, (s) => s.lastRun);
  // The link carries the inspection's settings too (tolerance, verdict rule, roles, title block).
  const tolerance = useStore(inspectStore, (s) => s.tolerance);
  const passShare = useStore(inspectStore, (s) => s.passShare);
  const titleBlock = useStore(inspectStore, (s) => s.titleBlock);
  const colorOn = useStore(inspectStore, (s) => s.colorOn);
  const nominalMark = useStore(inspectStore, (s) => s.nominalMark);
  const [shown, setShown] = useState<string | null>(null);
  // Recomputed when the scene or the last run changes.
  const link = useMemo(() => shareLink(window.location.href), [bodies, lastRun, tolerance, passShare, titleBlock, colorOn, nominalMark]);
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
      <button type="button" className="button" disabled={bodies.length === 0} onClick={() => void saveSession()} data-testid="share.save-session" title="Save the files, placements, roles, tolerance, title block and last run as one .brepscope file (open it by dropping it on the page)">
        Save session
      </button>
      {shown && <input className="share-url" readOnly value={shown} aria-label="Share link" data-testid="share.url" onFocus={(e) => e.currentTarget.select()} />}
    </div>
  );
}
