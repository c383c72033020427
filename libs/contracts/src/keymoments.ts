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

/**
 * A key-moment analysis as a job of the media workers (`keymoments_<uuid>`): the transcript's words
 * wait in storage at `wordsKey`; the worker reads (or makes) the media's energy series and scene
 * changes, finds the moments and writes them at `resultKey`.
 */
export const keyMomentsJobInputSchema = z.object({
  videoId: z.string().uuid(),
  userId: z.string().nullable(),
  /** the media the energy and scenes are read from; null: the words alone */
  mediaKey: z.string().nullable(),
  hasAudio: z.boolean(),
  energyKey: z.string(),
  scenesKey: z.string(),
  wordsKey: z.string(),
  resultKey: z.string(),
  /** what the stored moments are keyed by */
  editVersion: z.number().int(),
  transcriptVersion: z.number().int(),
  params: z.string(),
  summary: z.string(),
});
export type KeyMomentsJobInput = z.infer<typeof keyMomentsJobInputSchema>;

/** The words a key-moment job reads (JSON at its `wordsKey`). */
export const keyMomentsJobWordsSchema = z.object({ words: z.array(z.object({ text: z.string(), start: z.number(), end: z.number() })) });

/** What a key-moment job found (JSON at its `resultKey`): the moments without their ids. */
export const keyMomentsJobResultSchema = z.object({ moments: z.array(keyMomentSchema.omit({ id: true })), sceneChanges: z.number().int().nullable(), withAudio: z.boolean() });
export type KeyMomentsJobResult = z.infer<typeof keyMomentsJobResultSchema>;

/** `POST /api/videos/{id}/find-key-moments` while the analysis is still running: 202 with its job. */
export const keyMomentsPendingSchema = z.object({ jobId: z.string(), status: z.literal('processing'), moments: z.array(keyMomentSchema).length(0) });
export type KeyMomentsPending = z.infer<typeof keyMomentsPendingSchema>;
/** The answer of find-key-moments: the moments, or (202) the job still finding them. */
export const keyMomentsFindAnswerSchema = z.union([keyMomentsResponseSchema, keyMomentsPendingSchema]);

/** The KeyClips zoom range (1 = the window just covers the target). */
export const KEY_MOMENT_ZOOM_MIN = 1;
export const KEY_MOMENT_ZOOM_MAX = 2.5;

/**
 * `POST /api/key-moments/{momentId}/export`: the moment becomes a clip of its video, in a ratio, with
 * the zoom and pan the preview showed. `reframe` (offsets in percent of the frame, 0 = centred; the
 * zoom) says where the window sits; without it, `crop` (the part of the source the preview showed, in
 * source pixels) does. The pan is clamped so the window stays on the frame.
 */
export const exportKeyMomentRequestSchema = z.object({
  aspectRatio: z.enum(['16:9', '9:16', '1:1', '4:5', '21:9', 'Original']).default('Original'),
  mode: z.literal('reframe').default('reframe'),
  crop: z
    .object({ x: z.number().finite(), y: z.number().finite(), width: z.number().finite().positive(), height: z.number().finite().positive() })
    .optional(),
  reframe: z
    .object({
      offsetX: z.number().min(-100).max(100).default(0),
      offsetY: z.number().min(-100).max(100).default(0),
      scale: z.number().min(KEY_MOMENT_ZOOM_MIN).max(KEY_MOMENT_ZOOM_MAX).default(1),
    })
    .optional(),
});
export type ExportKeyMomentRequest = z.infer<typeof exportKeyMomentRequestSchema>;
export type ExportKeyMomentBody = z.input<typeof exportKeyMomentRequestSchema>;

/** The answer (202): the clip being rendered, as `POST /api/clips` answers, and how it is framed. */
export const exportKeyMomentResponseSchema = z.object({
  id: z.string(),
  jobId: z.string(),
  name: z.string(),
  aspectRatio: z.string(),
  status: z.literal('pending'),
  momentId: z.string(),
  /** original: the native frame; ratio-match: scaled whole; crop: cropped, scaled (and padded) */
  mode: z.enum(['original', 'ratio-match', 'crop']),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  reframe: z.object({ offsetX: z.number(), offsetY: z.number(), scale: z.number() }),
  /** output pixels per source pixel */
  upscale: z.number().positive(),
});
export type ExportKeyMomentResponse = z.infer<typeof exportKeyMomentResponseSchema>;
