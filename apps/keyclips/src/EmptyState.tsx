import { ANALYSIS_FAILED, NO_MOMENTS_TEXT, NO_MOMENTS_TITLE } from './api';

/** No moments yet: what KeyClips does, and the button that finds them. */
export function EmptyState({ analysing, progress, nothingFound, error, onFind }: { analysing: boolean; progress?: string | null; nothingFound: boolean; error: string | null; onFind: () => void }) {
  return (
    <div className="wc-empty" data-testid="keyclips-empty">
      <div className="wc-empty__icon" aria-hidden="true">
        ✦
      </div>
      <h3 className="wc-empty__title">Discover Engaging Moments</h3>
      <p className="wc-muted">
        KeyClips reads the transcript and the speaker&apos;s energy and suggests 5 to 10 moments worth sharing, each with why it
        stands out. Export any of them as a clip in the aspect ratio you need.
      </p>
      <button type="button" className="wc-button wc-button--primary" onClick={onFind} disabled={analysing} aria-busy={analysing}>
        {analysing ? 'Finding Key Moments…' : 'Find Key Moments'}
      </button>
      <div aria-live="polite" className="wc-kc__notice-area">
        {progress ? (
          <p className="wc-kc__notice" role="status" data-testid="keyclips-progress">
            {progress}
          </p>
        ) : null}
        {nothingFound ? (
          <p className="wc-kc__notice" role="status">
            <strong>{NO_MOMENTS_TITLE}:</strong> {NO_MOMENTS_TEXT}
          </p>
        ) : null}
        {error ? (
          <p className="wc-kc__notice wc-kc__notice--error" role="alert">
            <strong>{ANALYSIS_FAILED}:</strong> {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
