import { useId } from 'react';
import type { Video } from '@wordcut/contracts';
import { READY_VTT_METHOD } from './footer';

/** The cards above the editor: connection error, video unavailable, VTT processing, VTT failure. */

export const CONNECTION_ERROR_TITLE = 'Connection Error';
export const CONNECTION_ERROR_TEXT = 'Unable to load video data. This could be a temporary network issue.';
export const NOT_FOUND_TITLE = 'Video not found';
export const NOT_FOUND_TEXT = 'There is no video at this address that you can open. Open your video again from where you started, or upload one.';
export const SIGNED_OUT_TITLE = 'Session ended';
export const SIGNED_OUT_TEXT = 'This page has no session that can open the video. Open the editor again from the provider, or upload a video.';

/** The answer's status when the video could not be read (404 missing or not yours, 401 no session), else null. */
export function accessProblem(error: unknown): 404 | 401 | null {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 404 || status === 401 ? status : null;
}

/** A video the page cannot open: missing, someone else's (the same to us), or no session. No retry helps. */
export function VideoUnavailableCard({ status, homeHref }: { status: 404 | 401; homeHref: string }) {
  const id = useId();
  return (
    <section className="wc-card wc-status-card wc-status-card--error" role="alert" aria-labelledby={id} data-testid="video-unavailable" data-status={status}>
      <h2 id={id} className="wc-card__title">
        {status === 404 ? NOT_FOUND_TITLE : SIGNED_OUT_TITLE}
      </h2>
      <p>{status === 404 ? NOT_FOUND_TEXT : SIGNED_OUT_TEXT}</p>
      <div className="wc-actions">
        <a className="wc-button wc-button--primary" href={homeHref}>
          Upload a video
        </a>
      </div>
    </section>
  );
}

export const VTT_FAILURE_ADVICE =
  'Check your VTT file format and try again. Ensure the VTT file has proper WEBVTT format with valid timestamps.';
export const VTT_UPLOAD_AGAIN_ADVICE = 'Please upload a new video with a corrected VTT file.';

export function ConnectionErrorCard({
  error,
  retrying,
  onRetry,
  onReload = () => window.location.reload(),
}: {
  error: unknown;
  retrying: boolean;
  onRetry: () => void;
  onReload?: () => void;
}) {
  const id = useId();
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <section className="wc-card wc-status-card wc-status-card--error" role="alert" aria-labelledby={id} data-testid="connection-error">
      <h2 id={id} className="wc-card__title">
        {CONNECTION_ERROR_TITLE}
      </h2>
      <p>{CONNECTION_ERROR_TEXT}</p>
      <div className="wc-actions">
        <button type="button" className="wc-button" onClick={onReload}>
          Reload Page
        </button>
        <button type="button" className="wc-button wc-button--primary" onClick={onRetry} disabled={retrying}>
          {retrying ? 'Retrying…' : 'Retry Connection'}
        </button>
      </div>
      <details className="wc-remote-fallback__details wc-status-card__details">
        <summary>Error details</summary>
        <code>{detail}</code>
      </details>
    </section>
  );
}

export function VttProcessingCard({ video }: { video: Pick<Video, 'status' | 'vttProgress' | 'vttMethod'> }) {
  const id = useId();
  const percent = Math.round(Math.min(100, Math.max(0, video.vttProgress)));
  return (
    <section className="wc-card wc-status-card" role="status" aria-live="polite" aria-labelledby={id} data-testid="vtt-processing">
      <h2 id={id} className="wc-card__title">
        {video.status === 'uploaded' ? 'Preparing subtitles' : 'Processing subtitles'}
      </h2>
      <p className="wc-muted">
        The transcript is being built from your subtitles{video.vttMethod ? ` (${video.vttMethod})` : ''}. This may take a few minutes.
      </p>
      <div className="wc-job__row">
        <span className="wc-badge wc-badge--processing">{video.status === 'uploaded' ? 'Queued' : 'Processing'}</span>
        <span data-testid="vtt-progress">{percent}%</span>
      </div>
      <progress className="wc-progress" max={100} value={percent} aria-label="Subtitle processing progress" />
    </section>
  );
}

export function VttFailedCard({
  video,
  retrying,
  onRetry,
}: {
  video: Pick<Video, 'vttError' | 'vttMethod'>;
  retrying: boolean;
  onRetry: () => void;
}) {
  const id = useId();
  const canRetry = video.vttMethod !== READY_VTT_METHOD;
  return (
    <section className="wc-card wc-status-card wc-status-card--error" role="alert" aria-labelledby={id} data-testid="vtt-failed">
      <h2 id={id} className="wc-card__title">
        Subtitle processing failed
      </h2>
      {video.vttError ? (
        <p className="wc-error-text" data-testid="vtt-error">
          {video.vttError}
        </p>
      ) : null}
      <p>{VTT_FAILURE_ADVICE}</p>
      {canRetry ? (
        <div className="wc-actions">
          <button type="button" className="wc-button wc-button--primary" onClick={onRetry} disabled={retrying}>
            {retrying ? 'Retrying…' : 'Retry transcription'}
          </button>
        </div>
      ) : (
        <p className="wc-muted" data-testid="vtt-upload-again">
          {VTT_UPLOAD_AGAIN_ADVICE}
        </p>
      )}
    </section>
  );
}
