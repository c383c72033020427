import { useId, useState } from 'react';
import type { KeyMoment } from '@wordcut/contracts';
import { Tooltip } from '@wordcut/ui';
import { clock, lengthText } from './format';

/** What the engagement figure is, and what it is not. */
export const ENGAGEMENT_MEANING = 'A score from our signals in this moment (steps, quotes, key points, delivery), from 1 to 99: not a prediction of views.';

/** One moment: title, category, engagement, length and time range; its reasons on request. */
export function MomentCard({ moment, selected, onSelect }: { moment: KeyMoment; selected: boolean; onSelect: () => void }) {
  const [showReasons, setShowReasons] = useState(false);
  const reasonsId = useId();
  return (
    <li className={`wc-kc-card${selected ? ' wc-kc-card--selected' : ''}`} data-testid="keyclips-moment" data-selected={selected}>
      <button type="button" className="wc-kc-card__main" onClick={onSelect} aria-current={selected ? 'true' : undefined}>
        <span className="wc-kc-card__top">
          <span className={`wc-kc-badge wc-kc-badge--${moment.category.toLowerCase()}`}>{moment.category}</span>
        </span>
        <span className="wc-kc-card__title">{moment.title}</span>
        <span className="wc-kc-card__meta">
          {clock(moment.startTime)} – {clock(moment.endTime)} · {lengthText(moment.duration)}
        </span>
      </button>
      <div className="wc-kc-card__foot">
        <Tooltip content={ENGAGEMENT_MEANING}>
          <button type="button" className="wc-kc-card__engagement" data-testid="keyclips-engagement" aria-label={`${moment.engagement}% engagement: ${ENGAGEMENT_MEANING}`}>
            {moment.engagement}% engagement
          </button>
        </Tooltip>
        <button
          type="button"
          className="wc-kc-card__why"
          aria-expanded={showReasons}
          aria-controls={reasonsId}
          onClick={() => setShowReasons((v) => !v)}
        >
          {showReasons ? 'Hide why' : 'Why this moment?'}
        </button>
      </div>
      <div id={reasonsId} hidden={!showReasons} className="wc-kc-card__reasons">
        <p className="wc-kc-card__description">{moment.description}</p>
        <ul>
          {moment.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      </div>
    </li>
  );
}
