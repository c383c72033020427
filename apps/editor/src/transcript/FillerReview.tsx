import { useMemo, useState } from 'react';
import { fillerReview } from '@wordcut/editor-core';
import type { FillerKind } from '@wordcut/editor-core';
import { InfoPopover } from '../shared/dialogs';
import { formatTimestamp } from '../shared/format';
import { plural } from './commands';

/** Occurrences listed per kind before 'and N more' (the kind's box still covers them all). */
export const FILLER_REVIEW_SHOWN = 25;

/**
 * The body of 'Remove Filler Words': every flagged word by kind with its count and context, each
 * with a box (checked: removed). A kind's box keeps or removes all of that kind. `kept` is the
 * caller's, so confirming removes exactly what is shown checked.
 */
export function FillerReview({ words, fillerWords, kept, onKept }: {
  words: readonly { text: string; start: number }[];
  fillerWords: readonly number[];
  kept: ReadonlySet<number>;
  onKept: (kept: Set<number>) => void;
}) {
  const kinds = useMemo(() => fillerReview(words, fillerWords), [words, fillerWords]);
  const removing = fillerWords.filter((i) => !kept.has(i)).length;
  const toggle = (indices: readonly number[], remove: boolean) => {
    const next = new Set(kept);
    for (const i of indices) {
      if (remove) next.delete(i);
      else next.add(i);
    }
    onKept(next);
  };
  return (
    <div className="wc-filler-review" data-testid="filler-review">
      <p className="wc-dialog__text">
        {plural(removing, 'filler word')} of {fillerWords.length} will be cut from the video. Clear a box to keep that word.{' '}
        <InfoPopover label="What counts as a filler word">
          <p>
            Hesitations (um, uh, er, ah, hmm), drawn-out sounds, a word repeated at once, and quick or uncertain discourse words (like,
            you know, so, well, actually…). Phrases such as “I mean” flag their first word. Ctrl+M flags the common ones regardless of
            timing.
          </p>
        </InfoPopover>
      </p>
      <div className="wc-filler-review__list">
        {kinds.map((k) => (
          <KindGroup key={k.kind} kind={k} kept={kept} onToggle={toggle} />
        ))}
      </div>
    </div>
  );
}

function KindGroup({ kind, kept, onToggle }: { kind: FillerKind; kept: ReadonlySet<number>; onToggle: (indices: readonly number[], remove: boolean) => void }) {
  const all = kind.occurrences.map((o) => o.index);
  const removed = all.filter((i) => !kept.has(i)).length;
  const [open, setOpen] = useState(kind.occurrences.length <= 5);
  const shown = kind.occurrences.slice(0, FILLER_REVIEW_SHOWN);
  return (
    <fieldset className="wc-filler-review__kind" data-testid="filler-kind" data-kind={kind.kind}>
      <legend>
        <label>
          <input
            type="checkbox"
            checked={removed === all.length}
            ref={(el) => {
              if (el) el.indeterminate = removed > 0 && removed < all.length;
            }}
            onChange={(e) => onToggle(all, e.target.checked)}
          />{' '}
          “{kind.kind}” <span className="wc-muted">× {kind.count}</span>
        </label>{' '}
        <button type="button" className="wc-button wc-button--small" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide' : 'Show'} {plural(kind.count, 'occurrence')}
        </button>
      </legend>
      {open ? (
        <ul>
          {shown.map((o) => (
            <li key={o.index}>
              <label>
                <input type="checkbox" checked={!kept.has(o.index)} onChange={(e) => onToggle([o.index], e.target.checked)} data-testid="filler-occurrence" data-index={o.index} />{' '}
                <span className="wc-muted">{formatTimestamp(o.start)}</span> {o.before ? `…${o.before} ` : ''}
                <mark>{o.text}</mark>
                {o.after ? ` ${o.after}…` : ''}
              </label>
            </li>
          ))}
          {kind.occurrences.length > shown.length ? <li className="wc-muted">and {kind.occurrences.length - shown.length} more (the box above covers them)</li> : null}
        </ul>
      ) : null}
    </fieldset>
  );
}
