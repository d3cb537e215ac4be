import { useStore } from 'zustand';
import { dismissNotice } from './session';
import { engineStore } from './stores';

/** Engine events the user must know about: a crash, and that the scene was restored. */
export function NoticeBar() {
  const notices = useStore(engineStore, (s) => s.notices);
  const restoring = useStore(engineStore, (s) => s.restoring);
  if (notices.length === 0) return null;
  return (
    <ul className="notices" data-testid="engine.notices">
      {notices.map((n) => (
        <li key={n.key} className="notice" role="alert" data-code={n.code}>
          <code className="error-code">{n.code}</code>
          <span>
            {n.message}
            <strong>{restoring ? ' Restoring…' : ' Scene restored.'}</strong>
          </span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismissNotice(n.key)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
