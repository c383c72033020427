/**
 * Pauses: where a talk is silent, what kind of pause each silence is, and whether to remove it.
 * Pure and browser-safe. Three steps, each its own function (docs/SILENCE.md):
 *   1. findSilentSpans (silent-spans.ts): the silent stretches of the audio, from its stored
 *      frame-energy series, with a threshold relative to the recording's own noise floor;
 *   2. analysePauses (here): those stretches placed among the transcript's words
 *      (pause-placement.ts), each pause typed (technical, awkward, dramatic, natural) by a rule it
 *      names in `reason` (pause-classification.ts), a recommendation, the speaker's metrics and a
 *      threshold learnt from their own pauses;
 *   3. padRemovalRanges (pause-removal.ts): the ranges process-silence cuts, keeping a little
 *      silence next to speech.
 */
import type { DetectSilenceResponse, SilenceSegment, SpeechMetrics } from '@wordcut/contracts';
import { round, rhythmOf, secs, speechPatternOf, typePause } from './pause-classification';
import { candidatesOf } from './pause-placement';
import { padRemovalRanges } from './pause-removal';
import { PAUSE_RULES, type Evidence, type PauseAnalysisInput, type PauseWord } from './pause-rules';
import { isSentenceEnd, roundTime } from './text';

export * from './silent-spans';
export { KEY_POINT_OPENERS, PAUSE_RULES, type PauseAnalysisInput, type PauseWord } from './pause-rules';
export { MEDIA_EDGE_SEC, padRemovalRanges } from './pause-removal';

export interface PauseAnalysisOptions {
  minPauseDuration: number;
  contextWords: number;
  useAutoThresholds: boolean;
  /** silence process-silence keeps next to speech (padRemovalRanges), for estimatedTimeSaved */
  padding: number;
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
