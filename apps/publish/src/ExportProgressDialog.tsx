import type { RefObject } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import type { ExportItem } from '@wordcut/contracts';
import {
  MAIN_VIDEO_GROUP,
  SUBTITLES_GROUP,
  TECHNICAL_DETAILS_LABEL,
  UPGRADE_BUTTON_LABEL,
  UPGRADE_LINK_TEXT,
  currentStepText,
  estimateText,
  exportingTitle,
  failureSummary,
  progressPercent,
  retryState,
} from '@wordcut/publishing';
import { PROVIDER_NAME } from './provider';
import type { ExportJobState } from './useExportJob';
import { useNow } from './useNow';

/**
 * The export progress dialog: 500 px wide; while the job is queued or
 * processing it shows 'Exporting to {provider}', the percent, the current step ('Preparing
 * export...' until the service names one) and the estimate, and it cannot be closed (no close
 * button, Escape and clicks outside are ignored). A completed job shows what was uploaded; a
 * failed one its message, collapsible technical details, and Retry unless the quota is the
 * problem (then the upgrade link and button) or a retryAfter wait is running.
 */

export const EXPORT_COMPLETE_HEADING = 'Export Complete';
export const EXPORT_FAILED_HEADING = 'Export Failed';

const TYPE_LABELS: Record<ExportItem['type'], string> = {
  main_video: MAIN_VIDEO_GROUP,
  vtt: SUBTITLES_GROUP,
  word_by_word: 'Word-by-word timing',
  clip: 'Clip',
};

const STATUS_LABELS: Record<ExportItem['status'], string> = {
  pending: 'Pending',
  uploading: 'Uploading',
  uploaded: 'Uploaded',
  failed: 'Failed',
};

export interface ExportProgressDialogProps {
  state: ExportJobState;
  retrying: boolean;
  onRetry: () => void;
  onClose: () => void;
  /** where focus goes when the dialog closes (the header's Publish button); the default is the page */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

export function ExportProgressDialog({ state, retrying, onRetry, onClose, returnFocusTo }: ExportProgressDialogProps) {
  const open = state.phase !== 'idle';
  const locked = state.phase === 'running';
  const retry = state.phase === 'failed' ? retryState(state.error, new Date(), new Date(state.failedAt)) : null;
  const ticking = locked || (retry !== null && retry.waitSeconds > 0);
  const now = useNow(ticking);
  if (!open) return null;

  const keepOpen = (event: Event) => {
    if (locked) event.preventDefault();
  };

  return (
    <Dialog.Root
      open
      onOpenChange={(next) => {
        if (!next && !locked) onClose();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="wc-pub-overlay" />
        <Dialog.Content
          className="wc-pub-dialog wc-pub-dialog--progress"
          data-phase={state.phase}
          aria-busy={locked}
          onEscapeKeyDown={keepOpen}
          onPointerDownOutside={keepOpen}
          onInteractOutside={keepOpen}
          onCloseAutoFocus={(event) => {
            // opened by the job, not by a button: focus goes to 'Publish changes'
            const target = returnFocusTo?.current;
            if (target?.isConnected) {
              event.preventDefault();
              target.focus();
            }
          }}
        >
          {state.phase === 'running' ? <Running state={state} now={now} /> : null}
          {state.phase === 'completed' ? <Completed items={state.status.items} onClose={onClose} /> : null}
          {state.phase === 'failed' ? (
            <Failed state={state} now={now} retrying={retrying} onRetry={onRetry} onClose={onClose} />
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function Running({ state, now }: { state: Extract<ExportJobState, { phase: 'running' }>; now: Date }) {
  const percent = progressPercent(state.status?.progress);
  const step = currentStepText(state.status?.currentStep);
  const title = exportingTitle(PROVIDER_NAME);
  return (
    <>
      <Dialog.Title className="wc-pub-dialog__title">{title}</Dialog.Title>
      <Dialog.Description className="wc-pub-dialog__description">
        Keep this page open until the export finishes. This dialog closes only when the export has completed or failed.
      </Dialog.Description>
      <div
        className="wc-pub-progress"
        role="progressbar"
        aria-label="Export progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
      >
        <div className="wc-pub-progress__bar" style={{ width: `${percent}%` }} />
      </div>
      <p className="wc-pub-progress__figures">
        <span className="wc-pub-progress__percent">{percent}%</span>
        <span className="wc-muted">{estimateText(state.status?.estimatedCompletion ?? null, now)}</span>
      </p>
      <p role="status" aria-live="polite" className="wc-pub-progress__step">
        {step}
      </p>
    </>
  );
}

function Completed({ items, onClose }: { items: readonly ExportItem[]; onClose: () => void }) {
  // what the user chose: the word-by-word timing travels with the subtitles, it is not an item of its own
  const uploaded = items.filter((i) => i.status === 'uploaded' && i.type !== 'word_by_word');
  return (
    <>
      <Dialog.Title className="wc-pub-dialog__title">{EXPORT_COMPLETE_HEADING}</Dialog.Title>
      <Dialog.Description asChild>
        <div className="wc-pub-notice wc-pub-notice--success" role="status">
          <p>{`${uploaded.length} item(s) uploaded to ${PROVIDER_NAME}.`}</p>
        </div>
      </Dialog.Description>
      {items.length > 0 ? (
        <ul className="wc-pub-summary" aria-label="Uploaded items">
          {items.map((item) => (
            <li key={`${item.type}:${item.id}`} className="wc-pub-summary__item">
              <span>
                <span className="wc-muted">{TYPE_LABELS[item.type]}: </span>
                {item.name}
              </span>
              <span className={`wc-pub-summary__status--${item.status}`}>{STATUS_LABELS[item.status]}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="wc-pub-dialog__actions">
        <button type="button" className="wc-button wc-button--primary" onClick={onClose}>
          Close
        </button>
      </div>
    </>
  );
}

function Failed({
  state,
  now,
  retrying,
  onRetry,
  onClose,
}: {
  state: Extract<ExportJobState, { phase: 'failed' }>;
  now: Date;
  retrying: boolean;
  onRetry: () => void;
  onClose: () => void;
}) {
  const summary = failureSummary(state.error);
  const retry = retryState(state.error, now, new Date(state.failedAt));
  // a refusal before any job existed has nothing to retry; the user publishes again instead
  const retryOffered = retry.offered && state.jobId !== null;
  const upgradeUrl = summary.upgradeUrl;
  return (
    <>
      <Dialog.Title className="wc-pub-dialog__title">{EXPORT_FAILED_HEADING}</Dialog.Title>
      <Dialog.Description asChild>
        <div className="wc-pub-notice wc-pub-notice--error" role="alert">
          <p>{summary.message}</p>
          {summary.quotaExceeded && upgradeUrl ? (
            <p>
              <a href={upgradeUrl} target="_blank" rel="noopener noreferrer">
                {UPGRADE_LINK_TEXT}
              </a>
            </p>
          ) : null}
        </div>
      </Dialog.Description>
      {retryOffered && retry.waitText ? (
        <p className="wc-muted" aria-live="polite">
          {retry.waitText}
        </p>
      ) : null}
      {summary.details ? (
        <details className="wc-pub-details">
          <summary>{TECHNICAL_DETAILS_LABEL}</summary>
          <pre>{summary.details}</pre>
        </details>
      ) : null}
      <div className="wc-pub-dialog__actions">
        <button type="button" className="wc-button" onClick={onClose}>
          Close
        </button>
        {summary.quotaExceeded && upgradeUrl ? (
          <button
            type="button"
            className="wc-button wc-button--primary"
            onClick={() => window.open(upgradeUrl, '_blank', 'noopener,noreferrer')}
          >
            {UPGRADE_BUTTON_LABEL}
          </button>
        ) : null}
        {retryOffered ? (
          <button type="button" className="wc-button wc-button--primary" disabled={retry.disabled || retrying} onClick={onRetry}>
            {retrying ? 'Retrying...' : 'Retry'}
          </button>
        ) : null}
      </div>
    </>
  );
}
