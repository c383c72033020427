import { memo, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent, MouseEvent } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';
import type { Range } from '@tanstack/react-virtual';
import type { Transcript, Video, Word } from '@wordcut/contracts';
import { describeError } from '@wordcut/ui';
import { isVideoPending } from './api';
import { usePlayback, usePlaybackStore } from './playback';
import {
  confidenceLevel,
  formatTimestamp,
  nextWordIndex,
  paragraphRows,
  rowOfWord,
  textDirection,
  wordAtTime,
} from './transcriptView';
import type { ParagraphRow } from './transcriptView';

/** Seed 000 §9: estimated row height 120 px, overscan 15; the editor area is at most 800 px high. */
export const ROW_ESTIMATE_PX = 120;
export const OVERSCAN_ROWS = 15;
export const LIST_MAX_HEIGHT_PX = 800;
/** Seed 000 §4 "Word clicks": a single click seeks after 300 ms (a double click is kept for editing). */
export const CLICK_SEEK_DELAY_MS = 300;

/** The transcript panel and its states (seed 000 §2 "Transcript editor panel states"). */
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
    body = <TranscriptList transcript={transcript.data} languageCode={video.languageCode} />;
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

/**
 * The virtualised paragraph list. Words are one roving tab stop: Tab reaches the list's
 * focused word, arrow keys (Up/Down by paragraph, Home/End) move, Enter or Space seeks.
 * The row holding the focused word is always rendered, so the tab stop never disappears.
 */
export function TranscriptList({ transcript, languageCode }: { transcript: Pick<Transcript, 'words' | 'paragraphs'>; languageCode: string }) {
  const hintId = useId();
  const store = usePlaybackStore();
  const words = transcript.words;
  const rows = useMemo(() => paragraphRows(transcript), [transcript]);
  const rowOf = useMemo(() => rowOfWord(rows, words.length), [rows, words.length]);
  const dir = textDirection(languageCode);
  const activeWord = usePlayback((s) => wordAtTime(words, s.currentTime));
  const [focusWord, setFocusWord] = useState(() => rows[0]?.wordIndices[0] ?? 0);
  const pendingFocus = useRef<number | null>(null);
  const clickTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const focusRow = rowOf[focusWord] ?? -1;

  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (focusRow >= 0 && !indexes.includes(focusRow)) {
        indexes.push(focusRow);
        indexes.sort((a, b) => a - b);
      }
      return indexes;
    },
    [focusRow],
  );

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: OVERSCAN_ROWS,
    rangeExtractor,
  });

  useEffect(
    () => () => {
      if (clickTimer.current) clearTimeout(clickTimer.current);
    },
    [],
  );

  // After a keyboard move, focus the word once its row is rendered.
  useLayoutEffect(() => {
    if (pendingFocus.current === null) return;
    const el = listRef.current?.querySelector<HTMLElement>(`[data-word-index="${pendingFocus.current}"]`);
    if (el) {
      el.focus();
      pendingFocus.current = null;
    }
  });

  const seekToWord = useCallback(
    (index: number) => {
      const word = words[index];
      if (word) store.seek(word.start);
    },
    [store, words],
  );

  const onWordClick = useCallback(
    (index: number, event: MouseEvent<HTMLElement>) => {
      setFocusWord(index);
      if (clickTimer.current) clearTimeout(clickTimer.current);
      clickTimer.current = null;
      if (event.detail > 1) return; // double and triple clicks are for editing and selection
      clickTimer.current = setTimeout(() => {
        clickTimer.current = null;
        seekToWord(index);
      }, CLICK_SEEK_DELAY_MS);
    },
    [seekToWord],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    const raw = target.dataset['wordIndex'];
    if (raw === undefined) return;
    const index = Number(raw);
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      seekToWord(index);
      return;
    }
    const next = nextWordIndex(event.key, index, rows, rowOf, dir === 'rtl');
    if (next === null) return;
    event.preventDefault();
    setFocusWord(next);
    pendingFocus.current = next;
    const row = rowOf[next] ?? -1;
    if (row >= 0) virtualizer.scrollToIndex(row, { align: 'auto' });
  };

  const items = virtualizer.getVirtualItems();
  return (
    <div
      ref={scrollRef}
      className="wc-transcript__scroll"
      style={{ maxHeight: `${LIST_MAX_HEIGHT_PX}px` }}
      data-testid="transcript-list"
    >
      <p id={hintId} className="wc-visually-hidden">
        Use the arrow keys to move between words and Enter to play from a word.
      </p>
      <div
        ref={listRef}
        className="wc-transcript__list"
        dir={dir}
        lang={languageCode || undefined}
        role="group"
        aria-label="Transcript words"
        aria-describedby={hintId}
        onKeyDown={onKeyDown}
        style={{ height: `${virtualizer.getTotalSize()}px` }}
      >
        {items.map((item) => {
          const row = rows[item.index]!;
          const inRow = (i: number) => i >= 0 && rowOf[i] === row.index;
          return (
            <div
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              className="wc-paragraph-slot"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <ParagraphView
                row={row}
                words={words}
                activeWord={inRow(activeWord) ? activeWord : -1}
                focusWord={inRow(focusWord) ? focusWord : -1}
                onWordClick={onWordClick}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}

interface ParagraphViewProps {
  row: ParagraphRow;
  words: readonly Word[];
  /** the word being spoken, -1 when it is not in this paragraph */
  activeWord: number;
  /** the roving tab stop, -1 when it is not in this paragraph */
  focusWord: number;
  onWordClick: (index: number, event: MouseEvent<HTMLElement>) => void;
}

/** One paragraph: its timestamp and its words. Re-renders only when its own highlight or focus changes. */
const ParagraphView = memo(function ParagraphView({ row, words, activeWord, focusWord, onWordClick }: ParagraphViewProps) {
  return (
    <div className="wc-paragraph" data-testid="transcript-paragraph">
      <time className="wc-paragraph__time" dateTime={`PT${Math.floor(row.start)}S`} dir="ltr">
        {formatTimestamp(row.start)}
      </time>
      <p className="wc-paragraph__text">
        {row.wordIndices.map((i, n) => {
          const word = words[i]!;
          const level = confidenceLevel(word.confidence);
          const active = i === activeWord;
          return (
            <span key={i}>
              {n > 0 ? ' ' : null}
              <span
                role="button"
                tabIndex={i === focusWord ? 0 : -1}
                className={`wc-word wc-word--${level}${active ? ' wc-word--active' : ''}`}
                data-word-index={i}
                data-start={word.start}
                data-confidence={level}
                data-testid="transcript-word"
                aria-current={active ? 'true' : undefined}
                title={`${formatTimestamp(word.start)} · confidence ${Math.round(word.confidence * 100)}%`}
                onClick={(event) => onWordClick(i, event)}
              >
                {word.text}
              </span>
            </span>
          );
        })}
      </p>
    </div>
  );
});
