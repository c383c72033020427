import { memo } from 'react';
import type { Word } from '@wordcut/contracts';
import { MUTE_LEVEL_CODE, isCutMark, isSelected, muteLevelOfMark } from '@wordcut/editor-core';
import { formatTimestamp } from '../shared/format';
import { SilenceMark, useSilenceMarks } from '../silence/SilenceMarks';
import { useEditor } from './editorContext';
import type { EditorSnapshot } from './editorSnapshot';
import { confidenceLevel } from './transcriptView';
import type { ParagraphRow } from './transcriptView';

// decoration bits of one word: what the paragraph's one-character-per-word string carries
const SEL = 1;
const CUT = 2;
const FILLER = 4;
const FOUND = 8;
const CURRENT = 16;
const OUTSIDE_KEEP = 32;
const MUTE_SHIFT = 6; // two bits: the level's MUTE_LEVEL_CODE (1 silence, 2 whisper, 3 background)

function wordDecoration(snapshot: EditorSnapshot, index: number): number {
  let bits = 0;
  if (isSelected(snapshot.selection, index)) bits |= SEL;
  const mark = snapshot.marks[index] ?? 0;
  if (isCutMark(mark)) bits |= CUT;
  const level = muteLevelOfMark(mark);
  if (level) bits |= MUTE_LEVEL_CODE[level] << MUTE_SHIFT;
  if (snapshot.fillers[index]) bits |= FILLER;
  const found = snapshot.found[index] ?? 0;
  if (found) bits |= found === 2 ? FOUND | CURRENT : FOUND;
  const keep = snapshot.keepPreview;
  if (keep && (index < keep.start || index > keep.end)) bits |= OUTSIDE_KEEP;
  return bits;
}

/** One string per paragraph: a char per word (primitive, so unchanged paragraphs skip rendering). */
function paragraphDecoration(snapshot: EditorSnapshot, row: ParagraphRow): string {
  let out = '';
  for (const index of row.wordIndices) out += String.fromCharCode(48 + wordDecoration(snapshot, index));
  return out;
}

interface ParagraphViewProps {
  row: ParagraphRow;
  words: readonly Word[];
  /** the word being spoken, -1 when it is not in this paragraph */
  activeWord: number;
  /** the roving tab stop, -1 when it is not in this paragraph */
  focusWord: number;
  /** focus mode: outside the one-paragraph neighbourhood */
  dimmed: boolean;
}

const MUTE_CLASS = ['', 'wc-word--mute-silence', 'wc-word--mute-whisper', 'wc-word--mute-background'] as const;
const MUTE_LABEL = ['', 'muted (silence)', 'muted (whisper)', 'muted (background)'] as const;

/** One paragraph: its timestamp and its words, re-rendered only when its own decoration changes. */
export const ParagraphView = memo(function ParagraphView({ row, words, activeWord, focusWord, dimmed }: ParagraphViewProps) {
  const decoration = useEditor((snapshot) => paragraphDecoration(snapshot, row));
  // pauses marked for removal show between the words
  const silences = useSilenceMarks(row.wordIndices, words);
  return (
    <div className={`wc-paragraph${dimmed ? ' wc-paragraph--dimmed' : ''}`} data-testid="transcript-paragraph">
      <time className="wc-paragraph__time" dateTime={`PT${Math.floor(row.start)}S`} dir="ltr">
        {formatTimestamp(row.start)}
      </time>
      <p className="wc-paragraph__text">
        {row.wordIndices.map((index, position) => {
          const word = words[index]!;
          const bits = decoration.charCodeAt(position) - 48;
          const level = confidenceLevel(word.confidence);
          const active = index === activeWord;
          const mute = (bits >> MUTE_SHIFT) & 3;
          let className = `wc-word wc-word--${level}`;
          if (active) className += ' wc-word--active';
          if (bits & SEL) className += ' wc-word--selected';
          if (bits & CUT) className += ' wc-word--cut';
          if (mute) className += ` ${MUTE_CLASS[mute]}`;
          if (bits & FILLER) className += ' wc-word--filler';
          if (bits & FOUND) className += bits & CURRENT ? ' wc-word--found wc-word--found-current' : ' wc-word--found';
          if (bits & OUTSIDE_KEEP) className += ' wc-word--outside-keep';
          const states = [bits & CUT ? 'marked for cutting' : '', mute ? MUTE_LABEL[mute] : '', bits & FILLER ? 'filler' : ''].filter(Boolean);
          return (
            <span key={index}>
              {position > 0 ? ' ' : null}
              {silences?.has(index) ? <SilenceMark seconds={silences.get(index)!} /> : null}
              <span
                role="button"
                tabIndex={index === focusWord ? 0 : -1}
                className={className}
                data-word-index={index}
                data-start={word.start}
                data-confidence={level}
                data-testid="transcript-word"
                aria-current={active ? 'true' : undefined}
                aria-pressed={bits & SEL ? 'true' : 'false'}
                aria-description={states.length ? states.join(', ') : undefined}
                data-marks={states.length ? states.join(',') : undefined}
                title={`${formatTimestamp(word.start)} · confidence ${Math.round(word.confidence * 100)}%`}
              >
                {word.text}
              </span>
            </span>
          );
        })}
        {silences?.has(words.length) ? <SilenceMark seconds={silences.get(words.length)!} /> : null}
      </p>
    </div>
  );
});

