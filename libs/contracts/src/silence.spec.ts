import { detectSilenceRequestSchema, detectSilenceResponseSchema } from './silence';

describe('detect-silence request', () => {
  it('defaults to a 2 s minimum pause, 5 context words and automatic thresholds', () => {
    expect(detectSilenceRequestSchema.parse({})).toEqual({ minPauseDuration: 2, contextWords: 5, useAutoThresholds: true });
    expect(detectSilenceRequestSchema.parse({ minPauseDuration: 0.7, contextWords: 0, useAutoThresholds: false })).toEqual({
      minPauseDuration: 0.7,
      contextWords: 0,
      useAutoThresholds: false,
    });
  });

  it('keeps the minimum pause to the slider range, 0.1 to 10 s', () => {
    expect(detectSilenceRequestSchema.safeParse({ minPauseDuration: 0.05 }).success).toBe(false);
    expect(detectSilenceRequestSchema.safeParse({ minPauseDuration: 10.5 }).success).toBe(false);
    expect(detectSilenceRequestSchema.safeParse({ contextWords: 2.5 }).success).toBe(false);
    expect(detectSilenceRequestSchema.safeParse({ useAutoThresholds: 'yes' }).success).toBe(false);
  });
});

describe('detect-silence response', () => {
  it('has silences, speechMetrics and summary with the fields the panel reads', () => {
    const answer = {
      silences: [
        {
          id: 'pause-0',
          startTime: 0,
          endTime: 2,
          duration: 2,
          recommendation: 'remove',
          pauseType: 'technical',
          confidence: 0.95,
          reason: 'Dead air before the first word (2.0 s).',
          precedingText: '',
          followingText: 'Welcome back',
        },
      ],
      speechMetrics: { wordsPerMinute: 130, speechPattern: 'steady', averagePauseDuration: 1.03, suggestedThresholds: { minPauseDuration: 1.2 } },
      summary: { total: 1, recommended: 1, totalDuration: 2, recommendedDuration: 2, estimatedTimeSaved: 1.9, minPauseDuration: 1.2, autoThresholdApplied: true, padding: 0.1 },
    };
    expect(detectSilenceResponseSchema.parse(answer)).toEqual(answer);
    expect(detectSilenceResponseSchema.safeParse({ ...answer, silences: [{ ...answer.silences[0], pauseType: 'long' }] }).success).toBe(false);
  });
});
