import type { DetectSilenceResponse, SilenceSegment } from '@wordcut/contracts';

/** Pauses and analyses for the silence specs. */

export function pause(startTime: number, endTime: number, recommendation: 'remove' | 'keep', extra: Partial<SilenceSegment> = {}): SilenceSegment {
  return {
    id: `pause-${Math.round(startTime * 1000)}`,
    startTime,
    endTime,
    duration: Math.round((endTime - startTime) * 1000) / 1000,
    recommendation,
    pauseType: recommendation === 'remove' ? 'awkward' : 'natural',
    confidence: 0.85,
    reason: 'A pause inside a sentence.',
    precedingText: 'before',
    followingText: 'after',
    ...extra,
  };
}

export function analysisOf(silences: SilenceSegment[], padding = 0.1): DetectSilenceResponse {
  const recommended = silences.filter((s) => s.recommendation === 'remove');
  return {
    silences,
    speechMetrics: { wordsPerMinute: 150, speechPattern: 'steady', averagePauseDuration: 0.8, suggestedThresholds: { minPauseDuration: 1.2 } },
    summary: {
      total: silences.length,
      recommended: recommended.length,
      totalDuration: 0,
      recommendedDuration: 0,
      estimatedTimeSaved: 0,
      minPauseDuration: 2,
      autoThresholdApplied: false,
      padding,
    },
  };
}
