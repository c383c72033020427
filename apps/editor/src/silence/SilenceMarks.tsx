import { useMemo } from 'react';
import { useOptionalSilence } from './silenceContext';
import { formatSeconds, removalMarksByWord } from './silenceState';
import type { SilenceState } from './silenceState';

type Timed = { start: number; end: number };

// one placement for all paragraphs of a render: recomputed when the pauses, decisions or words change
let cache: { analysis: SilenceState['analysis']; decisions: SilenceState['decisions']; words: readonly Timed[]; marks: Map<number, number> } | null = null;

function marksOf(state: SilenceState, words: readonly Timed[]): Map<number, number> {
  if (!cache || cache.analysis !== state.analysis || cache.decisions !== state.decisions || cache.words !== words) {
    cache = { analysis: state.analysis, decisions: state.decisions, words, marks: removalMarksByWord(words, state) };
  }
  return cache.marks;
}

/**
 * The pauses marked remove inside one paragraph: word index -> seconds, shown before that word
 * (a pause after the last word shows after it). Null when none (or outside a video page).
 */
export function useSilenceMarks(wordIndices: readonly number[], words: readonly Timed[]): Map<number, number> | null {
  const last = wordIndices[wordIndices.length - 1];
  // a primitive per paragraph, so a paragraph re-renders only when its own marks change
  const key = useOptionalSilence((state) => {
    if (!state.analysis) return '';
    const marks = marksOf(state, words);
    if (marks.size === 0) return '';
    let out = '';
    for (const index of wordIndices) if (marks.has(index)) out += `${index}:${marks.get(index)};`;
    if (last === words.length - 1 && marks.has(words.length)) out += `${words.length}:${marks.get(words.length)};`;
    return out;
  });
  return useMemo(() => {
    if (!key) return null;
    const map = new Map<number, number>();
    for (const part of key.split(';')) {
      if (!part) continue;
      const [index, seconds] = part.split(':');
      map.set(Number(index), Number(seconds));
    }
    return map;
  }, [key]);
}

/** A pause marked for removal, in the transcript's text. */
export function SilenceMark({ seconds }: { seconds: number }) {
  return (
    <span className="wc-silence-mark" data-testid="silence-mark">
      <span aria-hidden="true">pause {formatSeconds(seconds)}</span>
      <span className="wc-visually-hidden">pause of {formatSeconds(seconds)} marked for removal</span>
    </span>
  );
}
