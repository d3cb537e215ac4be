import { dismissAllErrors, dismissError } from './bodies';
import { useScene } from './useStores';

/** Failed imports: what, why and the error code, each dismissible, and all at once when there are several. */
export function ErrorList() {
  const errors = useScene((s) => s.errors);
  if (errors.length === 0) return null;
  return (
    <>
      {errors.length > 1 && (
        <button type="button" className="button small clear-errors" onClick={() => dismissAllErrors()} data-testid="scene.clear-errors">
          Clear all {errors.length} errors
        </button>
      )}
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
    </>
  );
}
