import { z } from 'zod';
import { captionStyleSchema } from './caption-style';
import { MAX_INSERTED_WORDS, MAX_WORD_DELTAS } from './limits';

/**
 * Videos, transcripts and waveforms as the browser sees them.
 * The gateway owns these records (schema `library`); media workers produce their content.
 */

export const videoStatusSchema = z.enum(['uploaded', 'processing', 'completed', 'failed']);
export type VideoStatus = z.infer<typeof videoStatusSchema>;

/** The transcript method the deployment is configured with (GET /api/vtt/status). */
export const VTT_METHOD_UPLOAD = 'VTT Upload';
/** The transcript of a video that came without captions: speech to text with word timings. */
export const VTT_METHOD_TRANSCRIPTION = 'Transcription';

export const uploadStatusSchema = z.enum(['none', 'pending', 'uploading', 'uploaded', 'failed']);
export type UploadStatus = z.infer<typeof uploadStatusSchema>;

export const videoSchema = z.object({
  id: z.string().uuid(),
  title: z.string(),
  originalName: z.string(),
  /** seconds; null until probed */
  duration: z.number().nullable(),
  /** display name of the original media file (objects live under generated keys) */
  filename: z.string(),
  /** name of the current rendered media, null while the original is current */
  processedFilename: z.string().nullable(),
  lastProcessedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  status: videoStatusSchema,
  /** 0..100 while the transcript is being built */
  vttProgress: z.number().min(0).max(100),
  vttMethod: z.string(),
  vttError: z.string().nullable(),
  videoChanged: z.boolean(),
  vttChanged: z.boolean(),
  wordBywordChanged: z.boolean(),
  languageCode: z.string(),
  /** media facts the editor needs */
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  hasAudio: z.boolean().nullable(),
  fileSize: z.number().int().nullable(),
  /** the media version the waveform and stream belong to: processedFilename or 'original' */
  mediaVersion: z.string(),
  providerSessionId: z.string().nullable(),
  providerVideoId: z.string().nullable(),
  providerIsClone: z.boolean(),
  providerMainVideoUploadStatus: uploadStatusSchema,
  providerVttUploadStatus: uploadStatusSchema,
  /** mutes the current version carries (processed mutes), on its timeline; volume: MUTE_VOLUME of its level */
  mutedSegments: z.array(z.object({ start: z.number(), end: z.number(), volume: z.number() })).default([]),
  transcriptId: z.string().uuid().nullable(),
  /** the edit version shown (docs/EDIT-VERSIONS.md); null until the first render or revert */
  currentVersion: z.number().int().nonnegative().nullable().default(null),
  /** the current version's burned captions (null: none): their style, and `stale` once the words changed after the burn */
  burnedCaptions: z.object({ style: captionStyleSchema, stale: z.boolean() }).nullable().default(null),
  /** the provider's library holds other media than the current version's (publishing would change it) */
  providerMediaStale: z.boolean().optional(),
  /** the provider holds captions of another transcript version than the current one */
  providerCaptionsStale: z.boolean().optional(),
  /** GET /api/videos/{id} only: the current media's URL, signed for the caller (a player cannot send a bearer header) */
  streamUrl: z.string().optional(),
  /** GET /api/videos/{id} only: the current transcript as WebVTT (the player's captions track), signed for the caller */
  subtitlesUrl: z.string().optional(),
});
export type Video = z.infer<typeof videoSchema>;

/** PATCH /api/videos/{id}: the flags the editor resets on revert. */
export const videoPatchSchema = z
  .object({
    vttChanged: z.literal(false).optional(),
    wordBywordChanged: z.literal(false).optional(),
    title: z.string().trim().min(1).max(200).optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'Send at least one of vttChanged, wordBywordChanged, title.' });
export type VideoPatch = z.infer<typeof videoPatchSchema>;

/** A word of the transcript. Times are seconds on the current media's timeline. */
export const wordSchema = z.object({
  text: z.string(),
  start: z.number().nonnegative(),
  end: z.number().nonnegative(),
  confidence: z.number().min(0).max(1),
  /** the paragraph (group) the word belongs to */
  group_number: z.number().int().nonnegative(),
  /** the word's position in the transcript, 0..n-1 */
  word_order: z.number().int().nonnegative(),
});
export type Word = z.infer<typeof wordSchema>;

/** Largest transcript we store (words); a 3-hour talk is about 30,000. */
export const MAX_TRANSCRIPT_WORDS = 200_000;

/** wordIndices: at most MAX_TRANSCRIPT_WORDS */
export const paragraphSchema = z.object({
  start: z.number().nonnegative(),
  end: z.number().nonnegative(),
  wordIndices: z.array(z.number().int().nonnegative()).max(MAX_TRANSCRIPT_WORDS),
  groupNumber: z.number().int().nonnegative().optional(),
});
export type Paragraph = z.infer<typeof paragraphSchema>;

/** Something the ingest skipped or repaired in a caption file: its line (null for JSON entries) and why. */
export const captionWarningSchema = z.object({ line: z.number().int().positive().nullable(), message: z.string() });
export type CaptionWarning = z.infer<typeof captionWarningSchema>;

export const transcriptSchema = z.object({
  id: z.string().uuid(),
  videoId: z.string().uuid(),
  /** optimistic-concurrency version; every accepted PATCH increments it */
  version: z.number().int().positive(),
  languageCode: z.string(),
  words: z.array(wordSchema),
  paragraphs: z.array(paragraphSchema),
  /** indices into words */
  fillerWords: z.array(z.number().int().nonnegative()),
  /** what the ingest skipped in the caption file, in file order (none: empty or absent) */
  warnings: z.array(captionWarningSchema).optional(),
  updatedAt: z.string(),
});
export type Transcript = z.infer<typeof transcriptSchema>;

/**
 * One change to one word, addressed by its word_order (`wordDeltas`):
 * - `changes`: new text / start / end / confidence of the word;
 * - `delete: true`: the word leaves the transcript;
 * - `insertAfter`: new words placed after the word (word_order -1 places them first).
 * Deltas apply in order against the version the client read; word_order values are then
 * renumbered 0..n-1.
 */
export const wordChangesSchema = z
  .object({
    text: z.string().min(1).max(200).optional(),
    start: z.number().nonnegative().optional(),
    end: z.number().nonnegative().optional(),
    confidence: z.number().min(0).max(1).optional(),
  })
  .strict();
export const newWordSchema = z.object({
  text: z.string().min(1).max(200),
  start: z.number().nonnegative(),
  end: z.number().nonnegative(),
  confidence: z.number().min(0).max(1).default(0.9),
});
export const wordDeltaSchema = z.union([
  z.object({ word_order: z.number().int().nonnegative(), changes: wordChangesSchema }).strict(),
  z.object({ word_order: z.number().int().nonnegative(), delete: z.literal(true) }).strict(),
  z.object({ word_order: z.number().int().min(-1), insertAfter: z.array(newWordSchema).min(1).max(MAX_INSERTED_WORDS, `At most ${MAX_INSERTED_WORDS} words can be inserted in one place.`) }).strict(),
]);
export type WordDelta = z.infer<typeof wordDeltaSchema>;

const tooManyWords = `A transcript holds at most ${MAX_TRANSCRIPT_WORDS} words.`;
const insertedWords = (deltas: readonly WordDelta[]): number => deltas.reduce((n, d) => n + ('insertAfter' in d ? d.insertAfter.length : 0), 0);


/**
 * PATCH /api/transcripts/{id}: full replacement (words, paragraphs, fillerWords) or word deltas.
 * `version` (or an `If-Match: "<version>"` header) makes the write conditional: a stale version
 * answers 409 and nothing is written. Lists: words, paragraphs and fillerWords at most
 * MAX_TRANSCRIPT_WORDS; at most MAX_WORD_DELTAS deltas, inserting at most MAX_TRANSCRIPT_WORDS words in all.
 */
export const transcriptPatchSchema = z.union([
  z
    .object({
      version: z.number().int().positive().optional(),
      words: z.array(wordSchema).max(MAX_TRANSCRIPT_WORDS, tooManyWords),
      paragraphs: z.array(paragraphSchema).max(MAX_TRANSCRIPT_WORDS, `At most ${MAX_TRANSCRIPT_WORDS} paragraphs can be sent.`).optional(),
      fillerWords: z.array(z.number().int().nonnegative()).max(MAX_TRANSCRIPT_WORDS, `At most ${MAX_TRANSCRIPT_WORDS} filler words can be sent.`).optional(),
    })
    .strict(),
  z
    .object({
      version: z.number().int().positive().optional(),
      wordDeltas: z
        .array(wordDeltaSchema)
        .min(1)
        .max(MAX_WORD_DELTAS, `At most ${MAX_WORD_DELTAS} word changes can be sent at once.`)
        .superRefine((deltas, ctx) => {
          if (insertedWords(deltas) > MAX_TRANSCRIPT_WORDS) ctx.addIssue({ code: 'too_big', origin: 'array', maximum: MAX_TRANSCRIPT_WORDS, inclusive: true, message: tooManyWords, input: deltas });
        }),
    })
    .strict(),
]);
export type TranscriptPatch = z.infer<typeof transcriptPatchSchema>;

/** GET /api/videos/{id}/waveform?v=&points= */
export const waveformSchema = z.object({
  /** 0..1 peak amplitude per bucket, evenly spread over duration */
  peaks: z.array(z.number().min(0).max(1)),
  duration: z.number().nonnegative(),
  /** true when served from the stored peaks, false when computed for this request */
  cached: z.boolean(),
});
export type Waveform = z.infer<typeof waveformSchema>;
export const WAVEFORM_DEFAULT_POINTS = 1000;
export const WAVEFORM_MAX_POINTS = 20000;
/** Resolution of the stored peaks (per second of media). */
export const WAVEFORM_STORED_PEAKS_PER_SECOND = 100;

/** GET /api/vtt/status */
export const vttStatusSchema = z.object({
  configured: z.boolean(),
  method: z.string(),
  legacyUploadEnabled: z.boolean(),
  /** a transcription service is set up: an upload may come without captions, and 'Retry transcription' works */
  transcription: z.boolean().optional(),
});
export type VttStatus = z.infer<typeof vttStatusSchema>;

/** Multipart field names of POST /api/videos/upload. */
export const UPLOAD_VIDEO_FIELD = 'video';
export const UPLOAD_VTT_FIELD = 'vtt';
/** Largest VTT accepted (bytes). */
export const MAX_VTT_BYTES = 20 * 1024 * 1024;

/** POST /api/provider/sessions answer. */
export const providerSessionResponseSchema = z.object({
  success: z.literal(true),
  video: z.object({ id: z.string().uuid(), title: z.string() }),
  /** true when this session had already been opened (same video returned) */
  existing: z.boolean(),
});
export type ProviderSessionResponse = z.infer<typeof providerSessionResponseSchema>;

/** Languages the transcript list shows right to left: primary subtag of languageCode. */
export const RTL_LANGUAGES = ['ar', 'fa', 'he', 'ur', 'dv', 'ku', 'ps', 'sd', 'ae'] as const;
