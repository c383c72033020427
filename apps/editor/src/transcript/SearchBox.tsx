import { useEffect, useRef, useState } from 'react';
import { SEARCH_DEBOUNCE_MS, matchCounter } from '@wordcut/editor-core';
import { replaceCurrentMatch } from './commands';
import { useEditor, useEditorStore } from './editorContext';
import { ToolButton } from './ToolButton';

/**
 * Search: case-insensitive substring over the words, run 300 ms after typing stops; Enter and
 * Shift+Enter step through the results ('n of m'); Replace changes the current result only.
 */
export function SearchBox({ onStep }: { onStep: (wordIndex: number) => void }) {
  const store = useEditorStore();
  const [query, setQuery] = useState('');
  const [replacement, setReplacement] = useState('');
  const search = useEditor((s) => s.search);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  const onQuery = (value: string) => {
    setQuery(value);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      store.setSearch(value);
      const first = store.getSnapshot().search.matches[0];
      if (first) onStep(first.first);
    }, SEARCH_DEBOUNCE_MS);
  };

  const step = (direction: 1 | -1) => {
    const match = store.stepSearch(direction);
    if (match) onStep(match.first);
  };

  const replace = () => replaceCurrentMatch(store, replacement);

  const count = search.matches.length;
  return (
    <div className="wc-search" role="search" data-testid="search">
      <SearchBarInput type="search" className="wc-search__input" label="Search transcript" value={query} onChange={onQuery} onEnter={(shift) => step(shift ? -1 : 1)} />
      <span className="wc-search__count" aria-live="polite" data-testid="search-count">
        {matchCounter(search.current, count)}
      </span>
      <ToolButton label="Previous result" iconOnly onClick={() => step(-1)} disabled={count === 0}>
        ↑
      </ToolButton>
      <ToolButton label="Next result" iconOnly onClick={() => step(1)} disabled={count === 0}>
        ↓
      </ToolButton>
      <SearchBarInput type="text" className="wc-search__input wc-search__input--replace" label="Replace with" value={replacement} onChange={setReplacement} onEnter={replace} />
      <ToolButton label="Replace" onClick={replace} disabled={count === 0} testId="replace" />
    </div>
  );
}

/** A text field of the search bar, named by its placeholder; Enter runs `onEnter` (told whether Shift was down) instead of what Enter would do. */
function SearchBarInput({ type, className, label, value, onChange, onEnter }: {
  type: 'search' | 'text';
  className: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onEnter: (shift: boolean) => void;
}) {
  return (
    <input
      type={type}
      className={className}
      aria-label={label}
      placeholder={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={(e) => {
        if (e.key !== 'Enter') return;
        e.preventDefault();
        onEnter(e.shiftKey);
      }}
    />
  );
}
