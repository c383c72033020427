import { forwardRef, useCallback, useEffect, useId, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent, MouseEvent, PointerEvent } from 'react';
import { defaultRangeExtractor, measureElement, useVirtualizer } from '@tanstack/react-virtual';
import type { Range, Virtualizer } from '@tanstack/react-virtual';
import { isDrag, isSelected, selectRange, toggleWord, tripleClickRange } from '@wordcut/editor-core';
import { usePlayback, usePlaybackStore } from '../shared/playback';
import { useEditor, useEditorStore } from './editorContext';
import { ParagraphView } from './ParagraphView';
import { nextWordIndex, paragraphRows, rowOfWord, textDirection, wordAtTime } from './transcriptView';

/** The virtual list's estimated row height 120 px and overscan 15 rows; the editor area is at most 800 px high. */
export const ROW_ESTIMATE_PX = 120;
export const OVERSCAN_ROWS = 15;
export const LIST_MAX_HEIGHT_PX = 800;
/** A single click seeks after 300 ms (a double click edits instead). */
export const CLICK_SEEK_DELAY_MS = 300;
/** After a search moves the list, following playback waits 3 s. */
export const SCROLL_SUPPRESS_MS = 3000;

/** What the editor asks of the list. */
export interface TranscriptListApi {
  /** brings the word's paragraph into view; `suppressFollow` holds follow-playback off for 3 s */
  scrollToWord(index: number, suppressFollow?: boolean): void;
  /** moves the roving focus to the word (and the keyboard focus, once rendered) */
  focusWord(index: number): void;
  /** the word's element when it is rendered */
  wordElement(index: number): HTMLElement | null;
  /** the word holding keyboard focus */
  focusedWord(): number;
}

export interface TranscriptListProps {
  languageCode: string;
  followPlayback: boolean;
  focusMode: boolean;
  onEditWord: (index: number) => void;
  onContextWord: (index: number) => void;
}

/**
 * A row's height; a row that is not displayed (the editor is hidden in reorder mode) keeps the
 * height it had, else every row measures 0, the list collapses and nothing is rendered again.
 */
export function measureRow(element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, Element>): number {
  if (!element.isConnected || element.getClientRects().length === 0) {
    return instance.measurementsCache[instance.indexFromElement(element)]?.size ?? ROW_ESTIMATE_PX;
  }
  return measureElement(element, entry, instance);
}

function wordIndexOf(target: EventTarget | null): number | null {
  const el = (target as Element | null)?.closest?.('[data-word-index]');
  if (!el) return null;
  const index = Number((el as HTMLElement).dataset['wordIndex']);
  return Number.isInteger(index) ? index : null;
}

/**
 * The virtualised transcript: paragraphs with timestamps and clickable words. Words are one
 * roving tab stop: arrows move (Shift extends the selection), Home/End, Enter plays from the
 * word, Space plays or pauses, Shift+Space selects it, F2 edits it, the context-menu key opens its menu. Mouse: a click
 * selects and seeks after 300 ms, a double click edits, a triple click selects the sentence
 * (again: the paragraph), a drag past 2 px selects a run, Shift extends, Ctrl/Cmd toggles.
 */
export const TranscriptList = forwardRef<TranscriptListApi, TranscriptListProps>(function TranscriptList(
  { languageCode, followPlayback, focusMode, onEditWord, onContextWord },
  ref,
) {
  const hintId = useId();
  const playback = usePlaybackStore();
  const store = useEditorStore();
  const content = useEditor((s) => s.content);
  const words = content.words;
  const rows = useMemo(() => paragraphRows(content), [content]);
  const rowOf = useMemo(() => rowOfWord(rows, words.length), [rows, words.length]);
  const dir = textDirection(languageCode);
  const activeWord = usePlayback((s) => wordAtTime(words, s.currentTime));
  const [focusWord, setFocusWord] = useState(() => rows[0]?.wordIndices[0] ?? 0);
  const pendingFocus = useRef<number | null>(null);
  const clickTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const drag = useRef<{ index: number; x: number; y: number; dragging: boolean } | null>(null);
  const suppressClick = useRef(false);
  const followHeldUntil = useRef(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const safeFocus = focusWord < words.length ? focusWord : 0;
  const focusRow = rowOf[safeFocus] ?? -1;
  const activeRow = activeWord >= 0 ? (rowOf[activeWord] ?? -1) : -1;

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
    measureElement: measureRow,
  });

  useImperativeHandle(
    ref,
    () => ({
      scrollToWord(index, suppressFollow = false) {
        const row = rowOf[index] ?? -1;
        if (row < 0) return;
        if (suppressFollow) followHeldUntil.current = performance.now() + SCROLL_SUPPRESS_MS;
        virtualizer.scrollToIndex(row, { align: 'center' });
      },
      focusWord(index) {
        if (index < 0 || index >= words.length) return;
        setFocusWord(index);
        pendingFocus.current = index;
        const row = rowOf[index] ?? -1;
        if (row >= 0) virtualizer.scrollToIndex(row, { align: 'auto' });
      },
      wordElement(index) {
        return listRef.current?.querySelector<HTMLElement>(`[data-word-index="${index}"]`) ?? null;
      },
      focusedWord() {
        return safeFocus;
      },
    }),
    [rowOf, virtualizer, words.length, safeFocus],
  );

  useEffect(
    () => () => {
      if (clickTimer.current) clearTimeout(clickTimer.current);
    },
    [],
  );

  // Follow playback: keep the spoken paragraph in view (held off for 3 s after a search jump).
  useEffect(() => {
    if (!followPlayback || activeRow < 0) return;
    if (performance.now() < followHeldUntil.current) return;
    virtualizer.scrollToIndex(activeRow, { align: 'auto' });
  }, [followPlayback, activeRow, virtualizer]);

  // After a keyboard move, focus the word once its row is rendered.
  useLayoutEffect(() => {
    if (pendingFocus.current === null) return;
    const el = listRef.current?.querySelector<HTMLElement>(`[data-word-index="${pendingFocus.current}"]`);
    if (el) {
      el.focus({ preventScroll: false });
      pendingFocus.current = null;
    }
  });

  const seekToWord = useCallback(
    (index: number) => {
      const word = words[index];
      if (word) playback.seek(word.start);
    },
    [playback, words],
  );

  const cancelSeek = () => {
    if (clickTimer.current) clearTimeout(clickTimer.current);
    clickTimer.current = null;
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || event.shiftKey || event.ctrlKey || event.metaKey) return;
    const index = wordIndexOf(event.target);
    if (index === null) return;
    drag.current = { index, x: event.clientX, y: event.clientY, dragging: false };
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const gesture = drag.current;
    if (!gesture || (event.buttons & 1) === 0) return;
    if (!gesture.dragging && !isDrag(event.clientX - gesture.x, event.clientY - gesture.y)) return;
    gesture.dragging = true;
    const hit = typeof document.elementFromPoint === 'function' ? document.elementFromPoint(event.clientX, event.clientY) : event.target;
    const index = wordIndexOf(hit);
    if (index !== null) store.select(selectRange(gesture.index, index), gesture.index);
  };

  const onPointerUp = () => {
    suppressClick.current = drag.current?.dragging ?? false;
    drag.current = null;
  };

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const index = wordIndexOf(event.target);
    if (index === null) return;
    if (suppressClick.current) {
      suppressClick.current = false;
      return;
    }
    setFocusWord(index);
    const snapshot = store.getSnapshot();
    if (event.detail === 2) {
      cancelSeek();
      onEditWord(index);
      return;
    }
    if (event.detail >= 3) {
      cancelSeek();
      const range = tripleClickRange(words, content.paragraphs, index, snapshot.selection);
      store.select(selectRange(range.start, range.end), range.start);
      return;
    }
    if (event.shiftKey) {
      const anchor = snapshot.anchor ?? index;
      store.select(selectRange(anchor, index), anchor);
      return;
    }
    if (event.ctrlKey || event.metaKey) {
      store.select(toggleWord(snapshot.selection, index), index);
      return;
    }
    store.select(selectRange(index, index), index);
    cancelSeek();
    clickTimer.current = setTimeout(() => {
      clickTimer.current = null;
      seekToWord(index);
    }, CLICK_SEEK_DELAY_MS);
  };

  const onContextMenu = (event: MouseEvent<HTMLDivElement>) => {
    const index = wordIndexOf(event.target);
    if (index === null) {
      event.preventDefault();
      return;
    }
    const snapshot = store.getSnapshot();
    if (!isSelected(snapshot.selection, index)) store.select(selectRange(index, index), index);
    setFocusWord(index);
    onContextWord(index);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = wordIndexOf(event.target);
    if (index === null) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      seekToWord(index);
      return;
    }
    // Shift+Space selects the word, Ctrl/Cmd+Space adds or removes it; Space alone plays or pauses (the action registry)
    if (event.key === ' ' && (event.shiftKey || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      const snapshot = store.getSnapshot();
      store.select(event.ctrlKey || event.metaKey ? toggleWord(snapshot.selection, index) : selectRange(index, index), index);
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const next = nextWordIndex(event.key, index, rows, rowOf, dir === 'rtl');
    if (next === null) return;
    event.preventDefault();
    if (event.shiftKey) {
      const snapshot = store.getSnapshot();
      const anchor = snapshot.anchor ?? index;
      store.select(selectRange(anchor, next), anchor);
    }
    setFocusWord(next);
    pendingFocus.current = next;
    const row = rowOf[next] ?? -1;
    if (row >= 0) virtualizer.scrollToIndex(row, { align: 'auto' });
  };

  const focusCentre = activeRow >= 0 ? activeRow : focusRow;
  const items = virtualizer.getVirtualItems();
  return (
    <div
      ref={scrollRef}
      className="wc-transcript__scroll"
      style={{ maxHeight: `${LIST_MAX_HEIGHT_PX}px` }}
      data-testid="transcript-list"
      onContextMenu={onContextMenu}
    >
      <p id={hintId} className="wc-visually-hidden">
        Arrow keys move between words, Shift with an arrow extends the selection, Shift+Space selects the word, Space plays
        or pauses, Enter plays from the word, F2 edits it, the context menu key opens its actions, and question mark lists
        every shortcut.
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
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onClick={onClick}
        style={{ height: `${virtualizer.getTotalSize()}px` }}
      >
        {items.map((item) => {
          const row = rows[item.index]!;
          const inRow = (i: number) => i >= 0 && rowOf[i] === row.index;
          const dimmed = focusMode && focusCentre >= 0 && Math.abs(row.index - focusCentre) > 1;
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
                focusWord={inRow(safeFocus) ? safeFocus : -1}
                dimmed={dimmed}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
});
