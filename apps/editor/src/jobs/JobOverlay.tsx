import * as Dialog from '@radix-ui/react-dialog';
import { formatTimeRemaining } from '@wordcut/editor-core';
import { useRestoreFocus } from '@wordcut/ui';
import { JobEstimateLine } from '../shared/jobEstimate';
import type { RunningJob } from './jobRunner';

/** Where focus goes after a job when what opened it is gone: the first visible of these. */
const FOCUS_FALLBACKS = [
  '[data-testid="transcript-list"] [data-word-index][tabindex="0"]',
  '[data-testid="reorder-handle"]',
  '[data-testid="editor-toolbar"] button',
];

function editorFocusFallback(): HTMLElement | null {
  for (const selector of FOCUS_FALLBACKS) {
    const found = document.querySelector<HTMLElement>(selector);
    if (found && found.getClientRects().length > 0) return found;
  }
  return null;
}

/**
 * The job overlay: a modal that cannot be dismissed while the job runs, with the percent, the
 * job's message and time remaining (and what recent jobs like it took, when known), then
 * 'Processing complete!' and 'Loading Updated Video'.
 */
export function JobOverlay({ job, onCancel, videoId }: { job: RunningJob | null; onCancel: () => void; videoId?: string }) {
  // opened by the job a dialog started: when it ends, focus goes back to where it was, else to the
  // transcript's focused word (or the first visible control of the editor)
  const focus = useRestoreFocus(editorFocusFallback);
  if (!job) return null;
  const { spec, phase, status } = job;
  const progress = Math.round(status?.progress ?? 0);
  const message =
    phase === 'complete' ? 'Processing complete!' : phase === 'loading' ? 'Loading Updated Video' : status?.message || 'Starting...';
  const remaining = phase === 'running' ? formatTimeRemaining(status?.estimatedTimeRemaining) : null;
  return (
    <Dialog.Root open>
      <Dialog.Portal>
        <Dialog.Overlay className="wc-dialog-overlay" />
        <Dialog.Content
          className="wc-dialog wc-job-overlay"
          data-testid="job-overlay"
          data-phase={phase}
          data-job-id={spec.jobId}
          {...focus}
          onEscapeKeyDown={(e) => e.preventDefault()}
          onPointerDownOutside={(e) => e.preventDefault()}
          onInteractOutside={(e) => e.preventDefault()}
        >
          <Dialog.Title className="wc-dialog__title">{spec.title}</Dialog.Title>
          <Dialog.Description className="wc-muted" data-testid="job-message" aria-live="polite">
            {message}
          </Dialog.Description>
          <div
            className="wc-progress"
            role="progressbar"
            aria-label={`${spec.title} progress`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress}
          >
            <div className="wc-progress__bar" style={{ width: `${progress}%` }} />
          </div>
          <p className="wc-job-overlay__figures">
            <span data-testid="job-percent">{progress}%</span>
            {remaining ? <span data-testid="job-remaining">{remaining}</span> : null}
          </p>
          {phase === 'running' ? (
            <>
              <JobEstimateLine videoId={videoId} kind={spec.kind} />
              <div className="wc-dialog__actions">
                <button type="button" className="wc-button" onClick={onCancel}>
                  Cancel job
                </button>
              </div>
            </>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
