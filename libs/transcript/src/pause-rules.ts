/** The tunable numbers of pause analysis and the words and candidate pauses its steps share. */
import type { SilentSpan, TimeSpan } from './silent-spans';

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

/** What shows a pause: the audio and the words agree, the audio alone (its place among the words estimated), or the words alone. */
export type Evidence = 'both' | 'audio' | 'transcript';

/** A pause to type: a silence (or a gap between words) and where it falls among the words. */
export interface Candidate extends TimeSpan {
  /** words[0..split) come before the pause, words[split..] after */
  split: number;
  evidence: Evidence;
  levelDb: number | null;
}

/** A word that ends a clause: a comma, semicolon, colon or dash, closing quotes allowed. */
export const CLAUSE_BREAK = /[,;:–—-]["'”’)\]]*$/;
