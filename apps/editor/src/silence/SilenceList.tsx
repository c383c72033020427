import { useRef } from 'react';
import type { MouseEvent } from 'react';
import { measureElement, useVirtualizer } from '@tanstack/react-virtual';
import type { Virtualizer } from '@tanstack/react-virtual';
import type { SilenceRecommendation, SilenceSegment } from '@wordcut/contracts';
import { formatTimestamp } from '../shared/format';
import { followingContext, formatSeconds, precedingContext } from './silenceState';

/** Rows are measured as they render; this is the first guess. */
const ESTIMATED_ROW_PX = 120;
const OVERSCAN = 8;

/** A row's height; a row not laid out (the panel closing) keeps its last height rather than collapsing the list. */
function measureRow(element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, Element>): number {
  if (!element.isConnected || element.getClientRects().length === 0) {
    return instance.measurementsCache[instance.indexFromElement(element)]?.size ?? ESTIMATED_ROW_PX;
  }
  return measureElement(element, entry, instance);
}

/**
 * The pauses found, in a 400 px scroll area that renders only the rows in view (thousands of
 * pauses stay responsive). Each row: where, how long, its type, confidence, the rule's reason and
 * the words around it; a click (or Preview) plays it, the toggle marks it remove or keep.
 */
export function SilenceList({ silences, decisionOf, selectedId, onToggle, onPreview }: {
  silences: readonly SilenceSegment[];
  decisionOf: (silence: SilenceSegment) => SilenceRecommendation;
  selectedId: string | null;
  onToggle: (id: string) => void;
  onPreview: (id: string) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: silences.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: OVERSCAN,
    getItemKey: (index) => silences[index]!.id,
    measureElement: measureRow,
  });
  if (silences.length === 0) {
    return (
      <p className="wc-muted" data-testid="silence-empty">
        No pauses at or above this minimum length. Lower the minimum pause and detect again.
      </p>
    );
  }
  return (
    <div ref={scroller} className="wc-silence-list" data-testid="silence-list" tabIndex={0} role="region" aria-label="Pauses found">
      <ul className="wc-silence-list__inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const silence = silences[item.index]!;
          return (
            <SilenceRow
              key={item.key}
              index={item.index}
              total={silences.length}
              silence={silence}
              decision={decisionOf(silence)}
              selected={silence.id === selectedId}
              onToggle={onToggle}
              onPreview={onPreview}
              measure={virtualizer.measureElement}
              top={item.start}
            />
          );
        })}
      </ul>
    </div>
  );
}

const TYPE_LABEL: Record<SilenceSegment['pauseType'], string> = { technical: 'Technical', awkward: 'Awkward', dramatic: 'Dramatic', natural: 'Natural' };

/** One pause's row. */
function SilenceRow({ index, total, silence, decision, selected, onToggle, onPreview, measure, top }: {
  index: number;
  total: number;
  silence: SilenceSegment;
  decision: SilenceRecommendation;
  selected: boolean;
  onToggle: (id: string) => void;
  onPreview: (id: string) => void;
  measure: (element: Element | null) => void;
  top: number;
}) {
  const remove = decision === 'remove';
  const at = formatTimestamp(silence.startTime);
  // a click anywhere on the row but its buttons plays the pause
  const onRowClick = (event: MouseEvent<HTMLLIElement>) => {
    if ((event.target as HTMLElement).closest('button, label, input')) return;
    onPreview(silence.id);
  };
  return (
    <li
      ref={measure}
      data-index={index}
      aria-posinset={index + 1}
      aria-setsize={total}
      className={`wc-silence-row wc-silence-row--${decision}${selected ? ' wc-silence-row--selected' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      data-testid="silence-row"
      data-silence-id={silence.id}
      data-decision={decision}
      data-start={silence.startTime}
      data-end={silence.endTime}
      onClick={onRowClick}
    >
      <div className="wc-silence-row__head">
        <span className="wc-silence-row__time">
          {at} · {formatSeconds(silence.duration)}
        </span>
        <span className={`wc-badge wc-silence-type wc-silence-type--${silence.pauseType}`} data-testid="silence-type">
          {TYPE_LABEL[silence.pauseType]}
        </span>
        <span className="wc-silence-row__confidence" data-testid="silence-confidence">
          {Math.round(silence.confidence * 100)}% confidence
        </span>
      </div>
      <p className="wc-silence-row__context">
        <span>{precedingContext(silence.precedingText) || '(start of the video)'}</span>
        <span className="wc-silence-row__gap">
          {' '}
          [{formatSeconds(silence.duration)}]{' '}
        </span>
        <span>{followingContext(silence.followingText) || '(end of the video)'}</span>
      </p>
      <p className="wc-silence-row__reason" data-testid="silence-reason">
        {silence.reason}
      </p>
      <div className="wc-silence-row__actions">
        <button type="button" className="wc-button wc-button--small" onClick={() => onPreview(silence.id)}>
          Preview<span className="wc-visually-hidden"> the pause at {at}</span>
        </button>
        <label className={`wc-silence-toggle${remove ? ' wc-silence-toggle--remove' : ''}`}>
          <input type="checkbox" checked={remove} onChange={() => onToggle(silence.id)} data-testid="silence-toggle" />
          Remove<span className="wc-visually-hidden"> the pause at {at}</span>
        </label>
      </div>
    </li>
  );
}
