/**
 * Pause classification: the speaker's rhythm, the rule that types each pause (technical, awkward,
 * dramatic, natural) with the reason it names, and the speaker's speech pattern.
 */
import type { PauseType, SpeechPattern } from '@wordcut/contracts';
import { FILLER_PATTERNS, FILLER_SOUNDS } from './fillers';
import { CLAUSE_BREAK, KEY_POINT_OPENERS, PAUSE_RULES, type Candidate, type PauseWord } from './pause-rules';
import { isSentenceEnd, normalizeWord } from './text';

/** What the rule that matched says of a pause. */
export interface Verdict {
  type: PauseType;
  /** how sure the rule is, before the evidence is weighed */
  certainty: number;
  reason: string;
  /** recommended for removal whatever its length */
  remove: boolean;
}

const median = (xs: readonly number[]): number => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
/** `x` to `digits` decimals. */
export const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
/** A duration as the reasons write it. */
export const secs = (x: number) => `${round(x, 1).toFixed(1)} s`;
const quote = (w: PauseWord | undefined) => (w ? `'${w.text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}'’]+$/gu, '')}'` : '');
const isFiller = (w: PauseWord | undefined): boolean => {
  if (!w) return false;
  if (w.filler) return true;
  const n = normalizeWord(w.text);
  return FILLER_SOUNDS.includes(n) || FILLER_PATTERNS.some((p) => p.test(n));
};

/** The speaker's rhythm: their usual pause between sentences, its spread, and all their pauses between words. */
export interface Rhythm {
  pauses: number[];
  usual: number;
  deviation: number;
  learnt: boolean;
}

export function rhythmOf(cands: readonly Candidate[], words: readonly PauseWord[]): Rhythm {
  const inner = cands.filter((c) => c.split > 0 && c.split < words.length && c.end - c.start >= PAUSE_RULES.distributionMinSec);
  const pauses = inner.map((c) => c.end - c.start);
  const sentence = inner.filter((c) => isSentenceEnd(words[c.split - 1]!.text)).map((c) => c.end - c.start);
  const basis = sentence.length >= PAUSE_RULES.minPausesToLearn ? sentence : pauses;
  const learnt = basis.length >= PAUSE_RULES.minPausesToLearn;
  const usual = learnt ? median(basis) : PAUSE_RULES.defaultUsualPauseSec;
  return { pauses, usual, deviation: learnt ? median(basis.map((d) => Math.abs(d - usual))) : 0, learnt };
}

/** The rule that types a pause (first match wins). */
export function typePause(c: Candidate, words: readonly PauseWord[], rhythm: Rhythm, noiseFloorDb: number | undefined, punctuated: boolean): Verdict {
  const d = c.end - c.start;
  const prev = words[c.split - 1];
  const next = words[c.split];
  const usual = rhythm.usual;
  if (!prev && !next) return { type: 'technical', certainty: 0.9, reason: `No speech at all for ${secs(d)}: dead air.`, remove: true };
  if (!prev) return { type: 'technical', certainty: 0.95, reason: `Dead air before the first word (${secs(d)}).`, remove: true };
  if (!next) return { type: 'technical', certainty: 0.95, reason: `Dead air after the last word (${secs(d)}).`, remove: true };
  if (
    c.levelDb !== null &&
    noiseFloorDb !== undefined &&
    noiseFloorDb > PAUSE_RULES.floorForDropoutsDb &&
    c.levelDb < noiseFloorDb - PAUSE_RULES.dropoutBelowFloorDb
  ) {
    return {
      type: 'technical',
      certainty: 0.9,
      reason: `The signal drops out: ${Math.round(noiseFloorDb - c.levelDb)} dB below the recording's own noise floor, so it is a recording fault, not a pause.`,
      remove: true,
    };
  }
  if (d >= Math.max(PAUSE_RULES.longGapSec, PAUSE_RULES.longGapFactor * usual)) {
    return { type: 'technical', certainty: 0.85, reason: `No speech for ${secs(d)}: far beyond any pause in conversation (this speaker's usual is ${secs(usual)}).`, remove: true };
  }
  if (isFiller(prev)) return { type: 'awkward', certainty: 0.9, reason: `A hesitation after the filler ${quote(prev)}.`, remove: true };
  // before a filler inside a sentence (a new sentence may open with one after an ordinary pause)
  if (isFiller(next) && !isSentenceEnd(prev.text)) return { type: 'awkward', certainty: 0.85, reason: `A hesitation before the filler ${quote(next)}.`, remove: true };
  const before = words.slice(Math.max(0, c.split - 2), c.split).map((w) => normalizeWord(w.text));
  const after = normalizeWord(next.text);
  if (!isSentenceEnd(prev.text) && (/[-–—]$/.test(prev.text.trim()) || (after !== '' && before.includes(after)))) {
    return { type: 'awkward', certainty: 0.8, reason: `A hesitation before a restart: ${quote(next)} picks up again after ${quote(prev)}.`, remove: true };
  }
  if (!punctuated) {
    return { type: 'natural', certainty: 0.6, reason: `A pause at about this speaker's rhythm; the transcript has no punctuation to tell sentences apart.`, remove: false };
  }
  if (!isSentenceEnd(prev.text)) {
    if (CLAUSE_BREAK.test(prev.text.trim()) && d <= usual * PAUSE_RULES.longerFactor) {
      return { type: 'natural', certainty: 0.7, reason: `A breath at a clause break after ${quote(prev)}.`, remove: false };
    }
    const where = CLAUSE_BREAK.test(prev.text.trim()) ? 'at a clause break inside a sentence' : 'inside a sentence';
    return { type: 'awkward', certainty: 0.85, reason: `A pause ${where}, between ${quote(prev)} and ${quote(next)} (${secs(d)}).`, remove: true };
  }
  const following = words
    .slice(c.split, c.split + 3)
    .map((w) => w.text.toLowerCase().replace(/[^\p{L}\p{N}'’ ]/gu, '').replace(/’/g, "'"))
    .join(' ');
  const keyPoint = KEY_POINT_OPENERS.find((k) => following === k || following.startsWith(`${k} `));
  const mark = prev.text.trim().replace(/["'”’)\]]+$/, '').slice(-1);
  if (mark === '?' || mark === '!') {
    return { type: 'dramatic', certainty: 0.75, reason: `After a ${mark === '?' ? 'question' : 'exclamation'}: a moment for it to land.`, remove: false };
  }
  if (keyPoint) return { type: 'dramatic', certainty: 0.65, reason: `Before a key point ('${keyPoint}…').`, remove: false };
  if (d > usual * PAUSE_RULES.longerFactor) {
    return { type: 'dramatic', certainty: 0.7, reason: `Longer than this speaker's usual ${secs(usual)} between sentences: lets the point land.`, remove: false };
  }
  return { type: 'natural', certainty: 0.8, reason: `Between sentences at this speaker's usual rhythm (about ${secs(usual)}).`, remove: false };
}

export function speechPatternOf(wpm: number, pauses: readonly number[]): { pattern: SpeechPattern; average: number } {
  const average = pauses.length ? pauses.reduce((a, b) => a + b, 0) / pauses.length : 0;
  const sd = pauses.length ? Math.sqrt(pauses.reduce((a, b) => a + (b - average) ** 2, 0) / pauses.length) : 0;
  const spread = average > 0 ? sd / average : 0;
  let pattern: SpeechPattern = 'steady';
  if (wpm >= PAUSE_RULES.fastWpm && average < PAUSE_RULES.fastMaxPauseSec) pattern = 'fast';
  else if ((wpm > 0 && wpm < PAUSE_RULES.slowWpm) || average >= PAUSE_RULES.deliberatePauseSec) pattern = 'deliberate';
  else if (pauses.length >= PAUSE_RULES.minPausesToLearn && spread > PAUSE_RULES.variedSpread) pattern = 'varied';
  return { pattern, average };
}
