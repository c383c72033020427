import { useId } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Transcript, Video } from '@wordcut/contracts';
import { describeError } from '@wordcut/ui';
import { isVideoPending } from '../shared/api';
import { CaptionWarnings } from './CaptionWarnings';
import { TranscriptEditor } from './TranscriptEditor';

/** The transcript panel and its states: processing, loading (skeleton), the editor, or no transcript (with Retry after an error). */
export function TranscriptPanel({ video, transcript }: { video: Video; transcript: UseQueryResult<Transcript> }) {
  const id = useId();
  let body;
  if (isVideoPending(video)) {
    body = (
      <div className="wc-transcript__state" role="status" data-testid="transcript-processing">
        <div className="wc-spinner" aria-hidden="true" />
        <p className="wc-transcript__state-title">Processing transcript...</p>
        <p className="wc-muted">This may take a few minutes</p>
      </div>
    );
  } else if (video.status === 'completed' && transcript.isPending) {
    body = <TranscriptSkeleton />;
  } else if (video.status === 'completed' && transcript.data && transcript.data.words.length > 0) {
    body = (
      <>
        <CaptionWarnings transcript={transcript.data} />
        <TranscriptEditor video={video} transcript={transcript.data} />
      </>
    );
  } else {
    body = (
      <div className="wc-transcript__state" data-testid="transcript-empty">
        <p className="wc-transcript__state-title">No transcript available</p>
        <p className="wc-muted">Upload a video to generate a transcript</p>
        {transcript.isError ? (
          <p className="wc-error-text" role="alert">
            {describeError(transcript.error)}{' '}
            <button type="button" className="wc-button wc-button--small" onClick={() => void transcript.refetch()}>
              Retry
            </button>
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <section className="wc-card wc-transcript" aria-labelledby={id} data-testid="transcript-panel">
      <h2 id={id} className="wc-card__title">
        Transcript
      </h2>
      {body}
    </section>
  );
}

function TranscriptSkeleton() {
  return (
    <div className="wc-transcript__skeleton" role="status" aria-label="Loading transcript" data-testid="transcript-skeleton">
      {[92, 78, 85, 60, 88].map((w, i) => (
        <div key={i} className="wc-skeleton-line" style={{ width: `${w}%` }} />
      ))}
    </div>
  );
}

