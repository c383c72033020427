import type { Paragraph, Word } from '@wordcut/contracts';
import { detectFillerWords } from './fillers';

/**
 * What is wrong with a transcript's content, as readable sentences (empty when it is consistent):
 * word_order 0..n-1, times finite with end >= start, paragraphs in order each holding a run of
 * consecutive words so that every word is in exactly one, group_number / groupNumber equal to the
 * paragraph index, paragraph start/end equal to its words' earliest start / latest end, and (when
 * `fillers` is 'automatic') fillerWords equal to detectFillerWords(words). For tests and assertions.
 */
export function findInconsistencies(
  t: { words: readonly Word[]; paragraphs: readonly Paragraph[]; fillerWords: readonly number[] },
  fillers: 'automatic' | 'any' = 'automatic',
): string[] {
  const problems: string[] = [];
  t.words.forEach((w, i) => {
    if (w.word_order !== i) problems.push(`word ${i} has word_order ${w.word_order}`);
    if (!(Number.isFinite(w.start) && w.start >= 0 && Number.isFinite(w.end) && w.end >= w.start)) {
      problems.push(`word ${i} has start ${w.start} and end ${w.end}`);
    }
  });
  let next = 0;
  t.paragraphs.forEach((p, g) => {
    if (p.groupNumber !== g) problems.push(`paragraph ${g} has groupNumber ${p.groupNumber}`);
    if (p.wordIndices.length === 0) problems.push(`paragraph ${g} has no words`);
    let start = Infinity;
    let end = 0;
    for (const i of p.wordIndices) {
      if (i !== next) problems.push(`paragraph ${g} lists word ${i} where word ${next} was expected`);
      next = i + 1;
      const w = t.words[i];
      if (!w) continue;
      if (w.group_number !== g) problems.push(`word ${i} is in paragraph ${g} but has group_number ${w.group_number}`);
      start = Math.min(start, w.start);
      end = Math.max(end, w.end);
    }
    if (p.wordIndices.length && (p.start !== start || p.end !== end)) {
      problems.push(`paragraph ${g} spans ${p.start}..${p.end} but its words span ${start}..${end}`);
    }
  });
  if (next !== t.words.length) problems.push(`the paragraphs cover ${next} of ${t.words.length} words`);
  const sorted = t.fillerWords.every((f, k) => Number.isInteger(f) && f >= 0 && f < t.words.length && (k === 0 || f > t.fillerWords[k - 1]!));
  if (!sorted) problems.push('fillerWords are not ascending indices of words');
  if (fillers === 'automatic') {
    const expected = detectFillerWords(t.words);
    if (expected.length !== t.fillerWords.length || expected.some((f, k) => f !== t.fillerWords[k])) {
      problems.push(`fillerWords are [${t.fillerWords.join(', ')}], the automatic rules give [${expected.join(', ')}]`);
    }
  }
  return problems;
}
