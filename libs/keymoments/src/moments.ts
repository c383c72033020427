/**
 * The key moments of a talk: the windows of whole sentences chosen, each category with clear
 * evidence first, then by score. The signal table, window scoring, fitting and descriptions live
 * in sentence-table.ts, window-score.ts, moment-fit.ts and moment-text.ts.
 */
import { KEY_MOMENT_MAX_SECONDS, KEY_MOMENTS_MAX, KEY_MOMENTS_MIN, type KeyMoment } from '@wordcut/contracts';
import type { EnergyLevels } from './audio';
import { longestMomentLength, momentsThatFit } from './moment-fit';
import { describeWindow } from './moment-text';
import { findSentences, type TimedWord } from './sentences';
import { CATEGORIES, SentenceTable } from './sentence-table';
import { evaluate } from './window-score';

export { longestMomentLength, momentsThatFit } from './moment-fit';

/** Bumped whenever the rules change what they answer: stored moments of older rules are not served. */
export const KEY_MOMENT_RULES_VERSION = 3;

export interface KeyMomentInput {
  /** the transcript's words, in time order */
  words: readonly TimedWord[];
  /** the frame-energy series of the media, when it has audio */
  energy?: EnergyLevels | null;
  /** the times (s) where the picture changes scene, when known */
  scenes?: readonly number[] | null;
}

/** A moment as the rules find it: the answer's fields but its id, and the words it spans. */
export interface FoundMoment extends Omit<KeyMoment, 'id'> {
  firstWord: number;
  lastWord: number;
}

/** Moments kept after the fifth only while their score is at least this share of the best one's. */
const KEEP_SHARE = 0.5;
/** Each moment of a category already chosen scales the next one's score by this while choosing. */
const SAME_CATEGORY_FACTOR = 0.85;
/** Evidence a category needs before it claims a moment of its own ahead of the others. */
const OWN_MOMENT_EVIDENCE = 0.3;

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Engagement percentage of a score: a flat moment about 13 %, one clear signal about 60 %, a strong one 90 % and more. */
export function engagementOf(score: number): number {
  return Math.max(1, Math.min(99, Math.round(100 / (1 + Math.exp(-5.5 * (score - 0.35))))));
}

interface Candidate {
  i: number;
  j: number;
  score: number;
  category: number;
  evidence: number;
  /** the shortest window from i that is long enough */
  shortest: boolean;
}

/**
 * The key moments of a transcript (and its audio's energy): 5 to 10 when the talk holds them, each
 * whole sentences lasting 15 to 60 s (shorter only as much as a talk too short for five of 15 s needs),
 * none overlapping, highest engagement first. Each category with clear evidence gets its best moment
 * first; the rest go by score.
 */
export function findKeyMoments(input: KeyMomentInput): FoundMoment[] {
  const words = input.words.filter((w) => Number.isFinite(w.start) && Number.isFinite(w.end) && w.end >= w.start);
  if (words.length === 0) return [];
  const sentences = findSentences(words);
  const t = new SentenceTable(sentences, input.energy, input.scenes);
  const n = t.n;
  const roomAround = (len: number, taken: ReadonlyArray<{ i: number; j: number }>, enough: number) => momentsThatFit(sentences, len, taken, enough);
  const longestFitting = (taken: ReadonlyArray<{ i: number; j: number }>, count: number) => longestMomentLength(sentences, taken, count);
  /** Every window of whole sentences from `minLen` to 60 s, best first (equal scores: the tighter one first). */
  const windows = (minLen: number): Candidate[] => {
    const out: Candidate[] = [];
    for (let i = 0; i < n; i++) {
      let maxQuote = 0;
      let lo = Infinity;
      let hi = -Infinity;
      let first = true;
      for (let j = i; j < n; j++) {
        const s = sentences[j]!;
        maxQuote = Math.max(maxQuote, t.quotability[j]!);
        lo = Math.min(lo, s.signals.sentiment);
        hi = Math.max(hi, s.signals.sentiment);
        const span = s.end - sentences[i]!.start;
        if (span > KEY_MOMENT_MAX_SECONDS) break;
        if (span < minLen - 1e-9) continue;
        const ev = evaluate(t, i, j, maxQuote, hi - lo);
        out.push({ i, j, score: ev.score, category: ev.category, evidence: ev.categories[ev.category]!, shortest: first });
        first = false;
      }
    }
    return out.sort((a, b) => b.score - a.score || a.j - a.i - (b.j - b.i) || a.i - b.i);
  };

  const chosen: Candidate[] = [];
  const overlaps = (c: Candidate): boolean => chosen.some((x) => c.i <= x.j && x.i <= c.j);
  // first, each category with clear evidence gets its own best moment, 15 s or more (less only when five such do not fit the talk)
  let candidates = windows(longestFitting([], KEY_MOMENTS_MIN));
  const order = CATEGORIES.map((_, category) => ({ category, best: candidates.find((x) => x.category === category && x.evidence >= OWN_MOMENT_EVIDENCE) }))
    .filter((x) => x.best)
    .sort((a, b) => b.best!.score - a.best!.score);
  for (const { category } of order) {
    const pick = candidates.find((x) => x.category === category && x.evidence >= OWN_MOMENT_EVIDENCE && !overlaps(x));
    if (pick && chosen.length < KEY_MOMENTS_MAX) chosen.push(pick);
  }
  // then the best of the rest, as long as what is left still holds the five (shorter ones only when it must)
  const target = Math.min(KEY_MOMENTS_MIN, chosen.length + roomAround(0, chosen, KEY_MOMENTS_MIN));
  const fillLen = longestFitting(chosen, target - chosen.length);
  candidates = windows(fillLen);
  const fits = (c: Candidate): boolean => {
    if (overlaps(c)) return false;
    const need = target - chosen.length - 1;
    return need <= 0 || roomAround(fillLen, [...chosen, c], need) >= need;
  };
  const best = Math.max(candidates[0]?.score ?? 0, ...chosen.map((c) => c.score));
  // each moment already of a category makes the next of it count a little less, so a long talk
  // that repeats one kind of moment still shows the others it has
  const sameCategory = (c: Candidate) => chosen.filter((x) => x.category === c.category).length;
  const refused = new Set<Candidate>();
  while (chosen.length < KEY_MOMENTS_MAX) {
    let pick: Candidate | null = null;
    let pickScore = -Infinity;
    for (const c of candidates) {
      if (c.score <= pickScore) break;
      if (refused.has(c) || overlaps(c)) continue;
      const adjusted = c.score * SAME_CATEGORY_FACTOR ** sameCategory(c);
      if (adjusted > pickScore) {
        pick = c;
        pickScore = adjusted;
      }
    }
    if (!pick || (chosen.length >= KEY_MOMENTS_MIN && pick.score < best * KEEP_SHARE)) break;
    if (fits(pick)) chosen.push(pick);
    else refused.add(pick);
  }
  // too few still: the shortest windows fit where longer ones did not
  for (const c of candidates) if (c.shortest && chosen.length < target && fits(c)) chosen.push(c);

  return chosen
    .map((c) => {
      const a = sentences[c.i]!;
      const b = sentences[c.j]!;
      let maxQuote = 0;
      let lo = Infinity;
      let hi = -Infinity;
      for (let k = c.i; k <= c.j; k++) {
        maxQuote = Math.max(maxQuote, t.quotability[k]!);
        lo = Math.min(lo, sentences[k]!.signals.sentiment);
        hi = Math.max(hi, sentences[k]!.signals.sentiment);
      }
      const ev = evaluate(t, c.i, c.j, maxQuote, hi - lo);
      return {
        ...describeWindow(t, c.i, c.j, ev),
        category: CATEGORIES[ev.category]!,
        engagement: engagementOf(ev.score),
        startTime: round3(a.start),
        endTime: round3(b.end),
        duration: round3(b.end - a.start),
        firstWord: a.first,
        lastWord: b.last,
      };
    })
    .sort((x, y) => y.engagement - x.engagement || x.startTime - y.startTime);
}
