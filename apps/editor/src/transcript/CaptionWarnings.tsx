import { useId, useState } from 'react';
import type { Transcript } from '@wordcut/contracts';
import { browserStorage } from '../shared/storage';
import { captionWarningSummary, captionWarningText, captionWarningsSeen, markCaptionWarningsSeen } from './captionWarnings';

/**
 * What the ingest skipped or repaired in the caption file, shown once per transcript above the
 * words: the count, the details on request, and Dismiss (remembered in this browser).
 */
export function CaptionWarnings({ transcript }: { transcript: Pick<Transcript, 'id' | 'warnings'> }) {
  const warnings = transcript.warnings ?? [];
  const [dismissed, setDismissed] = useState(() => captionWarningsSeen(browserStorage(), transcript.id));
  const [open, setOpen] = useState(false);
  const listId = useId();
  if (warnings.length === 0 || dismissed) return null;
  const dismiss = () => {
    markCaptionWarningsSeen(browserStorage(), transcript.id);
    setDismissed(true);
  };
  return (
    <div className="wc-caption-warnings" role="status" data-testid="caption-warnings">
      <div className="wc-caption-warnings__head">
        <strong>{captionWarningSummary(warnings)}</strong>
        <button type="button" className="wc-button wc-button--small" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((v) => !v)}>
          {open ? 'Hide details' : 'Show details'}
        </button>
        <button type="button" className="wc-button wc-button--small" onClick={dismiss}>
          Dismiss
        </button>
      </div>
      <ul id={listId} className="wc-caption-warnings__list" hidden={!open}>
        {warnings.map((w, i) => (
          <li key={i}>{captionWarningText(w)}</li>
        ))}
      </ul>
    </div>
  );
}
