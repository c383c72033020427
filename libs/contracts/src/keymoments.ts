import { z } from 'zod';

/**
 * Key moments (KeyClips): `POST /api/videos/{id}/find-key-moments` analyses the current version of
 * a video and answers its moments; `GET /api/videos/{id}/key-moments` answers the stored ones (an
 * empty list when the current version has not been analysed). The rules that find them are in
 * @wordcut/keymoments; docs/KEYMOMENTS.md.
 */

export const KEY_MOMENT_CATEGORIES = ['High-impact', 'Actionable', 'Entertaining', 'Quotable', 'Visual'] as const;
export const keyMomentCategorySchema = z.enum(KEY_MOMENT_CATEGORIES);
export type KeyMomentCategory = z.infer<typeof keyMomentCategorySchema>;

/** Moments per analysis: at least 5 when the video holds them, at most 10. */
export const KEY_MOMENTS_MIN = 5;
export const KEY_MOMENTS_MAX = 10;
/** Seconds a moment lasts: 15 to 60 (shorter only when the video is too short for five of 15 s). */
export const KEY_MOMENT_MIN_SECONDS = 15;
export const KEY_MOMENT_MAX_SECONDS = 60;

/** One moment, in seconds of the current version of the video; it starts and ends on sentence boundaries. */
export const keyMomentSchema = z.object({
  id: z.string(),
  /** a key phrase of the moment, in its own words */
  title: z.string(),
  /** what is said, in the moment's own words */
  description: z.string(),
  category: keyMomentCategorySchema,
  /** calibrated engagement score, as a whole percentage */
  engagement: z.number().int().min(0).max(100),
  startTime: z.number().nonnegative(),
  endTime: z.number().nonnegative(),
  duration: z.number().nonnegative(),
  /** the signals that made the moment, in words */
  reasons: z.array(z.string()),
});
export type KeyMoment = z.infer<typeof keyMomentSchema>;

/** `local`: the built-in analyser over the transcript and the audio; `llm`: the configured language model, its answer checked and repaired. */
export const keyMomentSourceSchema = z.enum(['local', 'llm']);
export type KeyMomentSource = z.infer<typeof keyMomentSourceSchema>;

/** The answer of both routes: moments by engagement, highest first. */
export const keyMomentsResponseSchema = z.object({
  moments: z.array(keyMomentSchema),
  /** when the moments were found (ISO 8601); null when the current version has none stored */
  analysedAt: z.string().nullable(),
  source: keyMomentSourceSchema.nullable(),
});
export type KeyMomentsResponse = z.infer<typeof keyMomentsResponseSchema>;
