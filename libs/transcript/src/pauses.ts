import {
  ENERGY_DB_STEP,
  ENERGY_FLOOR_DB,
  energyDb,
  type DetectSilenceResponse,
  type PauseType,
  type SilenceSegment,
  type SpeechMetrics,
  type SpeechPattern,
} from '@wordcut/contracts';
import { FILLER_PATTERNS, FILLER_SOUNDS } from './fillers';
import { lowerBound } from './sorted-search';
import { isSentenceEnd, normalizeWord, roundTime } from './text';

/**
 * Pauses: where a talk is silent, what kind of pause each silence is, and whether to remove it.
 * Pure and browser-safe. Three steps, each its own function (docs/SILENCE.md):
 *   1. findSilentSpans: the silent stretches of the audio, from its stored frame-energy series, with
 *      a threshold relative to the recording's own noise floor;
 *   2. analysePauses: those stretches joined with the transcript's words: each pause typed
 *      (technical, awkward, dramatic, natural) by a rule it names in `reason`, a recommendation, the
 *      speaker's metrics and a threshold learnt from their own pauses;
 *   3. padRemovalRanges: the ranges process-silence cuts, keeping a little silence next to speech.
 */

export interface TimeSpan {
  start: number;
  end: number;
}

/** A silent stretch of the audio and its mean level (dBFS). */
export interface SilentSpan extends TimeSpan {
  levelDb: number;
}

/** What findSilentSpans reads: EnergySeries of @wordcut/contracts, or any level bytes. */
export interface EnergyLevels {
  durationSec: number;
  framesPerSecond: number;
  /** one level byte per frame (energyDb) */
  levels: ArrayLike<number>;
}

export interface SilentSpans {
  spans: SilentSpan[];
  /** the recording's noise floor, its speech level and the threshold between them (dBFS) */
  noiseFloorDb: number;
  speechLevelDb: number;
  thresholdDb: number;
}

/** The tunable numbers of findSilentSpans. */
export const SILENCE_LEVEL_RULES = Object.freeze({
  /** the noise floor is this percentile of the frame levels (the quietest tenth of the recording) */
  floorPercentile: 10,
  /** the speech level is this percentile */
  speechPercentile: 95,
  /** the threshold sits this share of the way from the floor to the speech level ... */
  marginShare: 0.25,
  /** ... but at least this far above the floor, and at most this far */
  minMarginDb: 6,
  maxMarginDb: 18,
  /** frames at or below this are silent whatever the floor (inaudible when played back) */
  inaudibleDb: -80,
  /** and the threshold stays at least this far below the speech level */
  speechHeadroomDb: 12,
  /** less contrast than this between floor and speech: one level throughout, no pauses to find */
  minContrastDb: 12,
  /** a sound of at most this many frames between silences, quieter than threshold + clickHeadroomDb, is a click, not speech */
  maxClickFrames: 2,
  clickHeadroomDb: 10,
  /** silent stretches shorter than this are gaps inside speech, not pauses */
  minSpanSec: 0.1,
});

/**
 * The silent stretches of a recording. A frame is silent when its level is at or below the
 * threshold: the noise floor (a low percentile of all frame levels) plus a share of the distance
 * to the speech level, never below what is inaudible anyway and never close to speech. One- or
 * two-frame clicks between silences do not break them; stretches shorter than minSpanSec are not
 * kept. The edges sit in the middle of the frame where the sound stops or starts (the frame is
 * 10 ms at 100 frames/s), except at the media's start and end.
 */
export function findSilentSpans(series: EnergyLevels, rules: typeof SILENCE_LEVEL_RULES = SILENCE_LEVEL_RULES): SilentSpans {
  const { levels, framesPerSecond: fps, durationSec } = series;
  const n = levels.length;
  const hist = new Array<number>(256).fill(0);
  for (let i = 0; i < n; i++) hist[levels[i]!]!++;
  const percentile = (p: number): number => {
    const rank = Math.max(1, Math.ceil((p / 100) * n));
    let seen = 0;
    for (let b = 0; b < 256; b++) {
      seen += hist[b]!;
      if (seen >= rank) return b;
    }
    return 255;
  };
  const noiseFloorDb = n === 0 ? ENERGY_FLOOR_DB : energyDb(percentile(rules.floorPercentile));
  const speechLevelDb = n === 0 ? ENERGY_FLOOR_DB : energyDb(percentile(rules.speechPercentile));
  const contrast = speechLevelDb - noiseFloorDb;
  let thresholdDb = noiseFloorDb + Math.min(rules.maxMarginDb, Math.max(rules.minMarginDb, contrast * rules.marginShare));
  thresholdDb = Math.min(Math.max(thresholdDb, rules.inaudibleDb), speechLevelDb - rules.speechHeadroomDb);
  if (contrast < rules.minContrastDb) {
    // one level throughout: all silence when that level is inaudible, otherwise no pause at all
    thresholdDb = speechLevelDb <= rules.inaudibleDb ? rules.inaudibleDb : ENERGY_FLOOR_DB - 1;
  }
  const silentMax = Math.floor((thresholdDb - ENERGY_FLOOR_DB) / ENERGY_DB_STEP + 1e-9);
  const clickMax = Math.floor((thresholdDb + rules.clickHeadroomDb - ENERGY_FLOOR_DB) / ENERGY_DB_STEP + 1e-9);
  const silent = new Uint8Array(n);
  for (let i = 0; i < n; i++) silent[i] = levels[i]! <= silentMax ? 1 : 0;
  // clicks: short faint sounds with silence on both sides
  for (let i = 1; i < n; i++) {
    if (silent[i] || !silent[i - 1]) continue;
    let j = i;
    while (j < n && !silent[j] && j - i < rules.maxClickFrames + 1) j++;
    if (j < n && silent[j] && j - i <= rules.maxClickFrames) {
      let faint = true;
      for (let k = i; k < j; k++) faint &&= levels[k]! <= clickMax;
      if (faint) for (let k = i; k < j; k++) silent[k] = 1;
    }
    i = j;
  }
  const spans: SilentSpan[] = [];
  for (let a = 0; a < n; ) {
    if (!silent[a]) {
      a++;
      continue;
    }
    let b = a;
    let sum = 0;
    while (b < n && silent[b]) sum += energyDb(levels[b++]!);
    const start = a === 0 ? 0 : Math.max(0, (a - 0.5) / fps);
    const end = b === n ? durationSec : (b + 0.5) / fps;
    const clipped = { start: roundTime(Math.min(start, durationSec)), end: roundTime(Math.min(end, durationSec)) };
    if (clipped.end - clipped.start >= rules.minSpanSec) spans.push({ ...clipped, levelDb: Math.round((sum / (b - a)) * 10) / 10 });
    a = b;
  }
  return { spans, noiseFloorDb, speechLevelDb, thresholdDb };
}

// ---- pauses: silences joined with the words ----------------------------------------------------

/** A word as the pause rules see it. */
export interface PauseWord {
  text: string;
  start: number;
  end: number;
  /** flagged as a filler in the transcript */
  filler?: boolean;
}

export interface PauseAnalysisInput {
  /** the transcript's words, in order, in seconds of the same media as the silences */
  words: readonly PauseWord[];
  /** silent stretches of the audio (findSilentSpans); null when the media has no audio: word gaps only */
  silences: readonly SilentSpan[] | null;
  /** the media's duration */
  duration: number;
  /** the recording's noise floor (findSilentSpans), for telling signal dropouts from pauses */
  noiseFloorDb?: number;
  /** muted stretches of the current version: silent because muted, not pauses */
  mutedRanges?: readonly TimeSpan[];
}

export interface PauseAnalysisOptions {
  minPauseDuration: number;
  contextWords: number;
  useAutoThresholds: boolean;
  /** silence process-silence keeps next to speech (padRemovalRanges), for estimatedTimeSaved */
  padding: number;
}

/** The tunable numbers of analysePauses. */
export const PAUSE_RULES = Object.freeze({
  /** silences at least this long, between two words, make up the speaker's pause distribution */
  distributionMinSec: 0.2,
  /** the usual pause when a talk has too few to learn from */
  defaultUsualPauseSec: 0.7,
  /** pauses needed to learn a speaker's rhythm (usual pause, suggested threshold) */
  minPausesToLearn: 3,
  /** the suggested threshold: this many times the usual pause, or usual + this many median deviations, whichever is longer */
  suggestFactor: 1.5,
  suggestDeviations: 2,
  suggestMinSec: 0.3,
  suggestMaxSec: 10,
  /** a pause this much longer than usual (ratio) is 'longer than usual' (dramatic) ... */
  longerFactor: 1.5,
  /** ... and this much, and at least farExtraSec more, 'far longer': removal is recommended even for natural and dramatic pauses */
  farFactor: 2.5,
  farExtraSec: 1,
  /** no speech for this long (and 4x the usual pause) is dead air even between words */
  longGapSec: 5,
  longGapFactor: 4,
  /** a silence this far under the noise floor of a recording that has one is a signal dropout */
  dropoutBelowFloorDb: 20,
  /** a floor quieter than this is digital silence: no dropout can be told apart */
  floorForDropoutsDb: -100,
  /** a silence reaches the threshold within one 10 ms frame (its edges are measured to one frame) */
  thresholdToleranceSec: 0.01,
  /** a transcript with fewer sentence ends than one per this many words has no punctuation to go by */
  wordsPerSentenceEnd: 60,
  /** a silence whose span the transcript fills with words more than this share has coarse word times */
  coveredShare: 0.5,
  /** wpm at or above which speech is fast; below which deliberate */
  fastWpm: 160,
  slowWpm: 110,
  /** average pause at or above which speech is deliberate; fast speech pauses less than fastMaxPauseSec */
  deliberatePauseSec: 1.2,
  fastMaxPauseSec: 0.8,
  /** pauses whose spread (standard deviation / mean) exceeds this make speech 'varied' */
  variedSpread: 0.6,
});

/** Openings that announce a key point (a pause before one is dramatic). */
export const KEY_POINT_OPENERS: readonly string[] = [
  "here's", 'here is', 'the key', 'the point', 'the secret', 'the truth', 'the answer', 'the bottom line', 'the trick', 'remember',
  'importantly', 'most importantly', 'first', 'second', 'third', 'finally', 'in short', 'in summary', 'to sum up',
];

type Evidence = 'both' | 'audio' | 'transcript';

interface Candidate extends TimeSpan {
  /** words[0..split) come before the pause, words[split..] after */
  split: number;
  evidence: Evidence;
  levelDb: number | null;
}

interface Verdict {
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
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const secs = (x: number) => `${round(x, 1).toFixed(1)} s`;
const quote = (w: PauseWord | undefined) => (w ? `'${w.text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}'’]+$/gu, '')}'` : '');
const isFiller = (w: PauseWord | undefined): boolean => {
  if (!w) return false;
  if (w.filler) return true;
  const n = normalizeWord(w.text);
  return FILLER_SOUNDS.includes(n) || FILLER_PATTERNS.some((p) => p.test(n));
};
const CLAUSE_BREAK = /[,;:–—-]["'”’)\]]*$/;

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
function candidatesOf(input: PauseAnalysisInput): Candidate[] {
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

/** The speaker's rhythm: their usual pause between sentences, its spread, and all their pauses between words. */
interface Rhythm {
  pauses: number[];
  usual: number;
  deviation: number;
  learnt: boolean;
}

function rhythmOf(cands: readonly Candidate[], words: readonly PauseWord[]): Rhythm {
  const inner = cands.filter((c) => c.split > 0 && c.split < words.length && c.end - c.start >= PAUSE_RULES.distributionMinSec);
  const pauses = inner.map((c) => c.end - c.start);
  const sentence = inner.filter((c) => isSentenceEnd(words[c.split - 1]!.text)).map((c) => c.end - c.start);
  const basis = sentence.length >= PAUSE_RULES.minPausesToLearn ? sentence : pauses;
  const learnt = basis.length >= PAUSE_RULES.minPausesToLearn;
  const usual = learnt ? median(basis) : PAUSE_RULES.defaultUsualPauseSec;
  return { pauses, usual, deviation: learnt ? median(basis.map((d) => Math.abs(d - usual))) : 0, learnt };
}

/** The rule that types a pause (first match wins). */
function typePause(c: Candidate, words: readonly PauseWord[], rhythm: Rhythm, noiseFloorDb: number | undefined, punctuated: boolean): Verdict {
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

const EVIDENCE_WEIGHT: Record<Evidence, number> = { both: 1, audio: 0.75, transcript: 0.6 };
const EVIDENCE_NOTE: Record<Evidence, string> = {
  both: '',
  audio: ' The transcript spreads words over this silence, so where it falls among them is estimated.',
  transcript: ' Found from the word times alone: the media has no audio to confirm it.',
};

/** The words on each side of a split, as text. */
const contextOf = (words: readonly PauseWord[], split: number, n: number) => ({
  precedingText: n > 0 ? words.slice(Math.max(0, split - n), split).map((w) => w.text).join(' ') : '',
  followingText: n > 0 ? words.slice(split, split + n).map((w) => w.text).join(' ') : '',
});

function speechPatternOf(wpm: number, pauses: readonly number[]): { pattern: SpeechPattern; average: number } {
  const average = pauses.length ? pauses.reduce((a, b) => a + b, 0) / pauses.length : 0;
  const sd = pauses.length ? Math.sqrt(pauses.reduce((a, b) => a + (b - average) ** 2, 0) / pauses.length) : 0;
  const spread = average > 0 ? sd / average : 0;
  let pattern: SpeechPattern = 'steady';
  if (wpm >= PAUSE_RULES.fastWpm && average < PAUSE_RULES.fastMaxPauseSec) pattern = 'fast';
  else if ((wpm > 0 && wpm < PAUSE_RULES.slowWpm) || average >= PAUSE_RULES.deliberatePauseSec) pattern = 'deliberate';
  else if (pauses.length >= PAUSE_RULES.minPausesToLearn && spread > PAUSE_RULES.variedSpread) pattern = 'varied';
  return { pattern, average };
}

/**
 * The pauses of a talk, typed and recommended, with the speaker's metrics. The threshold learnt
 * from the speaker (1.5x their usual pause between sentences, or usual + 2 median deviations) is
 * applied instead of the requested one when useAutoThresholds is on and it is lower, so it finds
 * pauses that stand out for this speaker and the requested one would miss.
 */
export function analysePauses(input: PauseAnalysisInput, o: PauseAnalysisOptions): DetectSilenceResponse {
  const words = input.words;
  const cands = candidatesOf(input);
  const rhythm = rhythmOf(cands, words);
  const suggested = rhythm.learnt
    ? round(Math.min(PAUSE_RULES.suggestMaxSec, Math.max(PAUSE_RULES.suggestMinSec, rhythm.usual * PAUSE_RULES.suggestFactor, rhythm.usual + PAUSE_RULES.suggestDeviations * rhythm.deviation)), 1)
    : o.minPauseDuration;
  const autoThresholdApplied = o.useAutoThresholds && suggested < o.minPauseDuration;
  // without sentence ends (automatic captions often have none) the sentence rules cannot apply
  const punctuated = words.length === 0 || words.filter((w) => isSentenceEnd(w.text)).length * PAUSE_RULES.wordsPerSentenceEnd >= words.length;
  const threshold = autoThresholdApplied ? suggested : o.minPauseDuration;
  const silences: SilenceSegment[] = [];
  let saved = 0;
  for (const c of cands) {
    const d = c.end - c.start;
    if (d + PAUSE_RULES.thresholdToleranceSec < threshold) continue;
    const v = typePause(c, words, rhythm, input.noiseFloorDb, punctuated);
    const far = d > rhythm.usual * PAUSE_RULES.farFactor && d > rhythm.usual + PAUSE_RULES.farExtraSec;
    const remove = v.remove || far;
    const reason = `${v.reason}${!v.remove && far ? ` Far longer than this speaker's usual ${secs(rhythm.usual)}, so removing it is recommended.` : ''}${EVIDENCE_NOTE[c.evidence]}`;
    const startTime = roundTime(c.start);
    const endTime = roundTime(c.end);
    if (remove) for (const r of padRemovalRanges([{ start: startTime, end: endTime }], { padding: o.padding, duration: input.duration })) saved += r.end - r.start;
    silences.push({
      id: `pause-${Math.round(startTime * 1000)}`,
      startTime,
      endTime,
      duration: roundTime(endTime - startTime),
      recommendation: remove ? 'remove' : 'keep',
      pauseType: v.type,
      confidence: round(v.certainty * EVIDENCE_WEIGHT[c.evidence], 2),
      reason,
      ...contextOf(words, c.split, o.contextWords),
    });
  }
  const spoken = words.length ? words[words.length - 1]!.end - words[0]!.start : 0;
  const wpm = spoken > 0 ? Math.round((words.length / spoken) * 60) : 0;
  const { pattern, average } = speechPatternOf(wpm, rhythm.pauses);
  const speechMetrics: SpeechMetrics = {
    wordsPerMinute: wpm,
    speechPattern: pattern,
    averagePauseDuration: round(average, 2),
    suggestedThresholds: { minPauseDuration: suggested },
  };
  const recommended = silences.filter((s) => s.recommendation === 'remove');
  return {
    silences,
    speechMetrics,
    summary: {
      total: silences.length,
      recommended: recommended.length,
      totalDuration: roundTime(silences.reduce((a, s) => a + s.duration, 0)),
      recommendedDuration: roundTime(recommended.reduce((a, s) => a + s.duration, 0)),
      estimatedTimeSaved: roundTime(saved),
      minPauseDuration: threshold,
      autoThresholdApplied,
      padding: o.padding,
    },
  };
}

// ---- removal -------------------------------------------------------------------------------------

/** Closer than this to the media's start or end, a range has no speech on that side. */
export const MEDIA_EDGE_SEC = 0.1;

/**
 * The ranges process-silence cuts: each pause keeps `padding` seconds of silence on every side that
 * touches speech (a quarter of the pause when it is shorter than four paddings, so every range still
 * removes something), and none at the media's start or end. Ranges are held inside the media and
 * come back in the order given.
 */
export function padRemovalRanges(ranges: readonly TimeSpan[], o: { padding: number; duration: number }): TimeSpan[] {
  const out: TimeSpan[] = [];
  for (const range of ranges) {
    const r = { start: Math.max(0, range.start), end: Math.min(range.end, o.duration) };
    const length = r.end - r.start;
    if (!(length > 0)) continue;
    const keep = Math.min(Math.max(0, o.padding), length / 4);
    const start = r.start <= MEDIA_EDGE_SEC ? r.start : r.start + keep;
    const end = r.end >= o.duration - MEDIA_EDGE_SEC ? r.end : r.end - keep;
    if (end > start) out.push({ start: roundTime(start), end: roundTime(end) });
  }
  return out;
}
