import { dismissError } from './bodies';
import { useScene } from './useStores';

/** Failed imports: what, why and the error code, each dismissible. */
export function ErrorList() {
  const errors = useScene((s) => s.errors);
  if (errors.length === 0) return null;
  return (
    <ul className="error-list" data-testid="scene.import-errors">
      {errors.map((e) => (
        <li key={e.key} role="alert" className="error" data-testid="scene.import-error" data-code={e.code}>
          <div className="error-head">
            <code className="error-code">{e.code}</code>
            <span className="error-file">{e.fileName}</span>
            <button type="button" className="icon-button" aria-label={`Dismiss the error about ${e.fileName}`} onClick={() => dismissError(e.key)}>
              ×
            </button>
          </div>
          <div className="error-message">{e.message}</div>
        </li>
      ))}
    </ul>
  );
}
