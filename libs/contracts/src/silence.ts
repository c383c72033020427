import { z } from 'zod';

/**
 * Pause detection (`POST /api/videos/{id}/detect-silence`): the request, and the analysis it
 * answers. The rules that fill it are in @wordcut/transcript (pauses.ts); docs/SILENCE.md.
 */

/** The minimum-pause slider: 0.1 to 10 s in steps of 0.1, default 2 s. */
export const MIN_PAUSE_DURATION_DEFAULT = 2;
export const MIN_PAUSE_DURATION_MIN = 0.1;
export const MIN_PAUSE_DURATION_MAX = 10;
/** Words of context on each side of a pause. */
export const PAUSE_CONTEXT_WORDS_DEFAULT = 5;
export const PAUSE_CONTEXT_WORDS_MAX = 50;

export const detectSilenceRequestSchema = z.object({
  /** shortest pause reported, in seconds */
  minPauseDuration: z.number().finite().min(MIN_PAUSE_DURATION_MIN).max(MIN_PAUSE_DURATION_MAX).default(MIN_PAUSE_DURATION_DEFAULT),
  /** words of text kept on each side (precedingText, followingText) */
  contextWords: z.number().int().min(0).max(PAUSE_CONTEXT_WORDS_MAX).default(PAUSE_CONTEXT_WORDS_DEFAULT),
  /** use the speaker's own threshold when it finds pauses the requested one would miss */
  useAutoThresholds: z.boolean().default(true),
});
export type DetectSilenceRequest = z.infer<typeof detectSilenceRequestSchema>;

export const PAUSE_TYPES = ['dramatic', 'natural', 'awkward', 'technical'] as const;
export const pauseTypeSchema = z.enum(PAUSE_TYPES);
export type PauseType = z.infer<typeof pauseTypeSchema>;

export const silenceRecommendationSchema = z.enum(['remove', 'keep']);
export type SilenceRecommendation = z.infer<typeof silenceRecommendationSchema>;

export const SPEECH_PATTERNS = ['fast', 'steady', 'deliberate', 'varied'] as const;
export const speechPatternSchema = z.enum(SPEECH_PATTERNS);
export type SpeechPattern = z.infer<typeof speechPatternSchema>;

/** One pause, in seconds of the current version of the video. */
export const silenceSegmentSchema = z.object({
  id: z.string(),
  startTime: z.number().nonnegative(),
  endTime: z.number().nonnegative(),
  duration: z.number().nonnegative(),
  recommendation: silenceRecommendationSchema,
  pauseType: pauseTypeSchema,
  /** how sure the rules are of the type (0..1) */
  confidence: z.number().min(0).max(1),
  /** the rule that typed it, in words */
  reason: z.string(),
  /** up to contextWords words before and after */
  precedingText: z.string(),
  followingText: z.string(),
});
export type SilenceSegment = z.infer<typeof silenceSegmentSchema>;

export const speechMetricsSchema = z.object({
  wordsPerMinute: z.number().nonnegative(),
  speechPattern: speechPatternSchema,
  /** mean of the speaker's pauses between words (dead air at the start and end left out) */
  averagePauseDuration: z.number().nonnegative(),
  suggestedThresholds: z.object({
    /** the shortest pause that stands out from this speaker's own rhythm */
    minPauseDuration: z.number().nonnegative(),
  }),
});
export type SpeechMetrics = z.infer<typeof speechMetricsSchema>;

export const silenceSummarySchema = z.object({
  /** pauses found */
  total: z.number().int().nonnegative(),
  /** of which recommended for removal */
  recommended: z.number().int().nonnegative(),
  /** seconds in all pauses found, and in the recommended ones */
  totalDuration: z.number().nonnegative(),
  recommendedDuration: z.number().nonnegative(),
  /** seconds removing the recommended pauses takes off the video (their padding kept) */
  estimatedTimeSaved: z.number().nonnegative(),
  /** the threshold applied: the request's, or the suggestion when automatic thresholds chose it */
  minPauseDuration: z.number().nonnegative(),
  autoThresholdApplied: z.boolean(),
  /** seconds of silence process-silence keeps on each side of a removed pause next to speech */
  padding: z.number().nonnegative(),
});
export type SilenceSummary = z.infer<typeof silenceSummarySchema>;

export const detectSilenceResponseSchema = z.object({
  silences: z.array(silenceSegmentSchema),
  speechMetrics: speechMetricsSchema,
  summary: silenceSummarySchema,
});
export type DetectSilenceResponse = z.infer<typeof detectSilenceResponseSchema>;
