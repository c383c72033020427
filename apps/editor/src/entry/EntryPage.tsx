import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { VttStatus } from '@wordcut/contracts';
import { describeError } from '@wordcut/ui';
import { videoKeys } from '../shared/api';
import { UploadForm } from './UploadForm';

export const CHOOSE_VIDEO_TITLE = 'Choose a video to start editing';

/**
 * The editor without a video: the legacy upload form when the deployment
 * allows it, otherwise a pointer to the provider's Video Details page.
 */
export function EntryPage({ basePath }: { basePath: string }) {
  const status = useQuery<VttStatus>({ queryKey: videoKeys.vttStatus });

  let body;
  if (status.isPending) {
    body = (
      <p className="wc-muted wc-centered" role="status">
        Loading…
      </p>
    );
  } else if (status.isError) {
    body = (
      <section className="wc-card wc-status-card wc-status-card--error" role="alert" data-testid="entry-error">
        <h2 className="wc-card__title">The editor could not reach the server</h2>
        <p className="wc-error-text">{describeError(status.error)}</p>
        <div className="wc-actions">
          <button type="button" className="wc-button wc-button--primary" onClick={() => void status.refetch()} disabled={status.isFetching}>
            {status.isFetching ? 'Retrying…' : 'Retry'}
          </button>
        </div>
      </section>
    );
  } else if (status.data.legacyUploadEnabled) {
    body = <UploadForm basePath={basePath} canTranscribe={status.data.transcription === true} />;
  } else {
    body = <ChooseVideo />;
  }

  return (
    <div className="wc-editor wc-entry" data-testid="editor-entry">
      {body}
    </div>
  );
}

function ChooseVideo() {
  const id = useId();
  return (
    <section className="wc-empty" aria-labelledby={id} data-testid="choose-video">
      <div className="wc-empty__icon" aria-hidden="true">
        ▶
      </div>
      <h1 id={id}>{CHOOSE_VIDEO_TITLE}</h1>
      <p className="wc-muted">
        Open the video&apos;s <strong>Video Details</strong> page on your video platform and choose <em>Edit</em>; the editor opens it
        here.
      </p>
    </section>
  );
}

/** 'Loading your video...' while the provider session opens. */
export function SessionLoading() {
  return (
    <div className="wc-editor wc-entry" data-testid="editor-entry">
      <section className="wc-empty" role="status" aria-live="polite" data-testid="session-loading">
        <div className="wc-spinner" aria-hidden="true" />
        <h1>Loading your video...</h1>
      </section>
    </div>
  );
}

export const SESSION_FAILED_TITLE = 'Failed to load video from provider';

export function SessionFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  const id = useId();
  return (
    <div className="wc-editor wc-entry" data-testid="editor-entry">
      <section className="wc-card wc-status-card wc-status-card--error" role="alert" aria-labelledby={id} data-testid="session-error">
        <h1 id={id} className="wc-card__title">
          {SESSION_FAILED_TITLE}
        </h1>
        <p className="wc-error-text">{message}</p>
        <p className="wc-muted">Open the video again from its Video Details page, or try once more.</p>
        <div className="wc-actions">
          <button type="button" className="wc-button wc-button--primary" onClick={onRetry}>
            Try again
          </button>
        </div>
      </section>
    </div>
  );
}
