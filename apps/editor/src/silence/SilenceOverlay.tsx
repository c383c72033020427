import * as Dialog from '@radix-ui/react-dialog';
import { formatTimeRemaining } from '@wordcut/editor-core';
import type { RunningJob } from '../jobs/jobRunner';
import { JobEstimateLine } from '../shared/jobEstimate';

export const SILENCE_DONE_MESSAGE = 'Silences removed successfully!';

/**
 * The full-screen overlay of a silence removal: starting, the percent, the job's message and time
 * remaining, then 100% with the success message and 'Loading Updated Video' before it fades out.
 * It cannot be dismissed while the job runs.
 */
export function SilenceOverlay({ job, starting, onCancel, videoId }: { job: RunningJob | null; starting: boolean; onCancel: () => void; videoId?: string }) {
  if (!job && !starting) return null;
  const phase = job ? job.phase : 'starting';
  const status = job?.status ?? null;
  const progress = phase === 'complete' || phase === 'loading' ? 100 : Math.round(status?.progress ?? 0);
  const message =
    phase === 'complete'
      ? SILENCE_DONE_MESSAGE
      : phase === 'loading'
        ? 'Loading Updated Video'
        : phase === 'starting'
          ? 'Starting silence removal...'
          : status?.message || 'Starting...';
  const remaining = phase === 'running' ? formatTimeRemaining(status?.estimatedTimeRemaining) : null;
  return (
    <Dialog.Root open>
      <Dialog.Portal>
        <Dialog.Content
          className="wc-silence-overlay"
          data-testid="silence-overlay"
          data-phase={phase}
          data-job-id={job?.spec.jobId}
          onEscapeKeyDown={(e) => e.preventDefault()}
          onPointerDownOutside={(e) => e.preventDefault()}
          onInteractOutside={(e) => e.preventDefault()}
        >
          <div className="wc-silence-overlay__card">
            <Dialog.Title className="wc-dialog__title">Removing silences</Dialog.Title>
            <Dialog.Description className="wc-silence-overlay__message" data-testid="silence-overlay-message" aria-live="polite">
              {message}
            </Dialog.Description>
            <div className="wc-progress" role="progressbar" aria-label="Silence removal progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
              <div className="wc-progress__bar" style={{ width: `${progress}%` }} />
            </div>
            <p className="wc-job-overlay__figures">
              <span data-testid="silence-overlay-percent">{progress}%</span>
              {remaining ? <span>{remaining}</span> : null}
            </p>
            {phase === 'running' || phase === 'starting' ? (
              <>
                <JobEstimateLine videoId={videoId} kind="silence" />
                <p className="wc-muted wc-small">Leaving the page now asks first; coming back reconnects to the job.</p>
                {phase === 'running' ? (
                  <div className="wc-dialog__actions">
                    <button type="button" className="wc-button" onClick={onCancel}>
                      Cancel job
                    </button>
                  </div>
                ) : null}
              </>
            ) : null}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
