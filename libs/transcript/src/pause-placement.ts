/**
 * Pause candidates: the audio's silences placed among the words (re-estimated where the transcript
 * draws words over them), or, without audio, the gaps between words.
 */
import { CLAUSE_BREAK, PAUSE_RULES, type Candidate, type Evidence, type PauseAnalysisInput, type PauseWord } from './pause-rules';
import type { TimeSpan } from './silent-spans';
import { lowerBound } from './sorted-search';
import { isSentenceEnd, normalizeWord } from './text';

/** Stretches of `spans` minus `holes`. */
function subtract<S extends TimeSpan>(spans: readonly S[], holes: readonly TimeSpan[]): S[] {
  if (holes.length === 0) return [...spans];
  const sorted = [...holes].filter((h) => h.end > h.start).sort((a, b) => a.start - b.start);
  const out: S[] = [];
  for (const s of spans) {
    let from = s.start;
    for (const h of sorted) {
      if (h.end <= from || h.start >= s.end) continue;
      if (h.start > from) out.push({ ...s, start: from, end: h.start });
      from = Math.max(from, h.end);
    }
    if (from < s.end) out.push({ ...s, start: from, end: s.end });
  }
  return out;
}

/** A split after a sentence or clause end is where a pause is likelier (re-splitting coarse word times). */
const PUNCTUATION_PULL = 0.05;

/**
 * Where a silence falls among the words. Normally the words whose middle is before the silence's
 * middle come before it. When the transcript draws words over the silence (times spread over a
 * whole caption cue), the split is re-estimated: in the stretch of speech between the silences
 * before and after this one, the share heard before it is matched to the share of the letters of
 * that stretch's words, a split after a sentence or clause end pulling a little.
 */
function placeSilence(words: readonly PauseWord[], mids: readonly number[], silences: readonly TimeSpan[], k: number, duration: number): { split: number; evidence: Evidence } {
  const s = silences[k]!;
  const mid = (s.start + s.end) / 2;
  const split = lowerBound(mids, (m) => m >= mid);
  let covered = 0;
  for (let j = split - 1; j >= 0 && words[j]!.end > s.start; j--) covered += Math.max(0, Math.min(words[j]!.end, s.end) - Math.max(words[j]!.start, s.start));
  for (let j = split; j < words.length && words[j]!.start < s.end; j++) covered += Math.max(0, Math.min(words[j]!.end, s.end) - Math.max(words[j]!.start, s.start));
  if (covered <= PAUSE_RULES.coveredShare * (s.end - s.start)) return { split, evidence: 'both' };
  const from = k > 0 ? silences[k - 1]!.end : 0;
  const to = k < silences.length - 1 ? silences[k + 1]!.start : Math.max(duration, s.end);
  const r0 = lowerBound(words, (w) => w.end > from);
  const r1 = lowerBound(words, (w) => w.start >= to) - 1;
  const before = Math.max(0, s.start - from);
  const after = Math.max(0, to - s.end);
  if (r0 > r1 || before + after <= 0) return { split, evidence: 'audio' };
  const share = before / (before + after);
  const letters = words.slice(r0, r1 + 1).map((w) => Math.max(1, normalizeWord(w.text).length));
  const total = letters.reduce((a, b) => a + b, 0);
  let best = split;
  let bestScore = Infinity;
  let cum = 0;
  for (let j = r0; j <= r1 + 1; j++) {
    const prev = words[j - 1];
    const pull = prev && (isSentenceEnd(prev.text) || CLAUSE_BREAK.test(prev.text.trim())) ? PUNCTUATION_PULL : 0;
    const score = Math.abs(cum / total - share) - pull;
    if (score < bestScore) {
      bestScore = score;
      best = j;
    }
    if (j <= r1) cum += letters[j - r0]!;
  }
  return { split: best, evidence: 'audio' };
}

/** Pause candidates: the audio's silences placed among the words, or, without audio, the gaps between words. */
export function candidatesOf(input: PauseAnalysisInput): Candidate[] {
  const { words, duration } = input;
  if (input.silences === null) {
    const out: Candidate[] = [];
    const gap = (start: number, end: number, split: number) => {
      if (end - start > 0) out.push({ start, end, split, evidence: 'transcript', levelDb: null });
    };
    if (words.length === 0) return out;
    gap(0, words[0]!.start, 0);
    for (let i = 1; i < words.length; i++) gap(words[i - 1]!.end, words[i]!.start, i);
    gap(words[words.length - 1]!.end, duration, words.length);
    return out;
  }
  const silences = subtract(input.silences, input.mutedRanges ?? []).filter((s) => s.end - s.start > 0);
  const mids = words.map((w) => (w.start + w.end) / 2);
  return silences.map((s, k) => ({ start: s.start, end: s.end, levelDb: s.levelDb, ...placeSilence(words, mids, silences, k, duration) }));
}
