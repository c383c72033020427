import { z } from 'zod';
import { KEY_MOMENT_ZOOM_MAX, KEY_MOMENT_ZOOM_MIN } from './keymoments';
import { MAX_EDIT_RANGES, MAX_FILLER_WORDS, MAX_REORDER_ENTRIES } from './limits';
import { muteLevelSchema } from './mute-levels';
import { MAX_TRANSCRIPT_WORDS } from './videos';

/**
 * Request bodies of the edit, job and clip routes: the gateway parses with them, and their types
 * are what a client sends. Every list is bounded (limits.ts); over a bound answers 400.
 */

/** At most `max` entries, said in the words of the list. */
const atMost = (max: number, what: string) => `At most ${max.toLocaleString('en-US')} ${what} can be sent at once.`;
/** Word positions of one transcript: never more than it may hold. */
const wordIndicesSchema = z.array(z.number().int().nonnegative()).max(MAX_TRANSCRIPT_WORDS, atMost(MAX_TRANSCRIPT_WORDS, 'word indices'));

export const timeRangeRequestSchema = z.object({ start: z.number().finite().nonnegative(), end: z.number().finite().nonnegative() });
/** cuts: at most MAX_EDIT_RANGES ranges */
export const applyCutsRequestSchema = z.object({ cuts: z.array(timeRangeRequestSchema).min(1, 'Select at least one range to cut.').max(MAX_EDIT_RANGES, atMost(MAX_EDIT_RANGES, 'cuts')) });
/** fillerWordIndices: at most MAX_FILLER_WORDS words */
export const removeFillersRequestSchema = z.object({
  fillerWordIndices: z.array(z.number().int().nonnegative()).min(1, 'There are no filler words to remove.').max(MAX_FILLER_WORDS, atMost(MAX_FILLER_WORDS, 'filler words')),
});
/** silenceRanges: at most MAX_EDIT_RANGES ranges */
export const processSilenceRequestSchema = z.object({
  silenceRanges: z
    .array(timeRangeRequestSchema)
    .min(1, "No silences to remove: Mark silences as 'Remove' before processing")
    .max(MAX_EDIT_RANGES, atMost(MAX_EDIT_RANGES, 'silences')),
});
/** pendingMutes: at most MAX_EDIT_RANGES regions, each naming at most a transcript's words */
export const muteJobRequestSchema = z.object({
  videoId: z.string(),
  pendingMutes: z
    .array(
      z.object({
        startTime: z.number().finite().nonnegative(),
        endTime: z.number().finite().nonnegative(),
        level: muteLevelSchema.default('silence'),
        wordIndices: z.array(z.number().int()).max(MAX_TRANSCRIPT_WORDS, atMost(MAX_TRANSCRIPT_WORDS, 'word indices')).optional(),
        text: z.string().max(100_000).optional(),
        id: z.string().max(200).optional(),
      }),
    )
    .min(1, 'There are no muted regions to process.')
    .max(MAX_EDIT_RANGES, atMost(MAX_EDIT_RANGES, 'muted regions')),
});
/**
 * groupOrder or spec.segments: at most MAX_REORDER_ENTRIES entries (and the gateway places at most
 * MAX_REORDER_BLOCKS blocks apart); a segment's wordIndices at most a transcript's words
 */
export const reorderRequestSchema = z
  .object({
    groupOrder: z.array(z.number().int().nonnegative()).max(MAX_REORDER_ENTRIES, atMost(MAX_REORDER_ENTRIES, 'paragraphs')).optional(),
    spec: z
      .object({
        granularity: z.string().max(50).default('paragraph'),
        segments: z
          .array(
            z.object({
              id: z.union([z.string().max(200), z.number()]).optional(),
              start: z.number().finite(),
              end: z.number().finite(),
              paragraphId: z.union([z.string().max(200), z.number()]).optional(),
              wordIndices: wordIndicesSchema.optional(),
              type: z.string().max(50).optional(),
            }),
          )
          .min(1)
          .max(MAX_REORDER_ENTRIES, atMost(MAX_REORDER_ENTRIES, 'segments')),
      })
      .optional(),
    userId: z.union([z.string().max(200), z.number()]).optional(),
    /** the transcript version the client reordered (optional; If-Match works too) */
    transcriptVersion: z.number().int().positive().optional(),
  })
  .refine((b) => b.groupOrder !== undefined || b.spec !== undefined, 'Send groupOrder or spec.');
export const createClipRequestSchema = z.object({
  videoId: z.string(),
  name: z.string().trim().min(1, 'A clip needs a name.').max(200),
  startTime: z.number().finite().nonnegative(),
  endTime: z.number().finite().nonnegative(),
  aspectRatio: z.enum(['16:9', '9:16', '1:1', '4:5', '21:9', 'Original']).default('Original'),
  /** burn the clip's words into its picture (in the version's caption style, else the default) */
  captions: z.boolean().default(false),
  /** the zoom (1 to 2.5, as the dialog's slider) and pan (percent of the frame, 0 = centred) the preview showed */
  reframe: z
    .object({
      offsetX: z.number().min(-100).max(100).default(0),
      offsetY: z.number().min(-100).max(100).default(0),
      scale: z.number().min(KEY_MOMENT_ZOOM_MIN).max(KEY_MOMENT_ZOOM_MAX).default(1),
    })
    .optional(),
});

/** POST /api/videos/{id}/versions/{seq}/restore: the version the caller sees now (another answers 409). */
export const restoreVersionRequestSchema = z.object({ expectedVersion: z.number().int().nonnegative().optional() });

/** Where each word of a new version came from: runs [first index before, count] (libs/transcript origins). */
export const originRunsSchema = z.array(z.tuple([z.number().int().nonnegative(), z.number().int().positive()]));

/** A step between edit versions: a render's job result (`result.version`), a restore's and a revert's answer. */
export const versionStepSchema = z.object({
  before: z.number().int().nonnegative(),
  after: z.number().int().nonnegative(),
  origins: originRunsSchema.nullable().optional(),
});
export type VersionStepAnswer = z.infer<typeof versionStepSchema>;

/** POST /api/videos/{id}/transcript/replace: the new version, its words, and what the import skipped. */
export const replaceTranscriptAnswerSchema = z.object({
  version: versionStepSchema,
  wordCount: z.number().int().nonnegative(),
  warnings: z.array(z.object({ line: z.number().int().positive().nullable(), message: z.string() })),
});
export type ReplaceTranscriptAnswer = z.infer<typeof replaceTranscriptAnswerSchema>;

export type ApplyCutsRequest = z.infer<typeof applyCutsRequestSchema>;
export type RemoveFillersRequest = z.infer<typeof removeFillersRequestSchema>;
export type ProcessSilenceRequest = z.infer<typeof processSilenceRequestSchema>;
export type MuteJobRequest = z.infer<typeof muteJobRequestSchema>;
export type ReorderRequest = z.infer<typeof reorderRequestSchema>;
export type CreateClipRequest = z.infer<typeof createClipRequestSchema>;

/** What the browser sends (defaults not yet applied): its API clients build these. */
export type ApplyCutsBody = z.input<typeof applyCutsRequestSchema>;
export type RemoveFillersBody = z.input<typeof removeFillersRequestSchema>;
export type ProcessSilenceBody = z.input<typeof processSilenceRequestSchema>;
export type MuteJobBody = z.input<typeof muteJobRequestSchema>;
export type ReorderBody = z.input<typeof reorderRequestSchema>;
export type CreateClipBody = z.input<typeof createClipRequestSchema>;
export type RestoreVersionBody = z.input<typeof restoreVersionRequestSchema>;

/** GET /api/videos/{id}/export/{format}: the edit for other applications, or its captions and words. */
export const EDIT_EXPORT_FORMATS = {
  otio: { label: 'OpenTimelineIO (.otio)', extension: 'otio', contentType: 'application/json' },
  fcpxml: { label: 'Final Cut Pro XML 1.10 (.fcpxml: Final Cut, Resolve, Premiere)', extension: 'fcpxml', contentType: 'application/xml' },
  edl: { label: 'CMX3600 EDL (.edl)', extension: 'edl', contentType: 'text/plain' },
  mlt: { label: 'MLT XML (.mlt: Shotcut, Kdenlive)', extension: 'mlt', contentType: 'application/xml' },
  srt: { label: 'SubRip captions (.srt)', extension: 'srt', contentType: 'application/x-subrip' },
  vtt: { label: 'WebVTT captions (.vtt)', extension: 'vtt', contentType: 'text/vtt' },
  'words.json': { label: 'Word timings (.words.json)', extension: 'words.json', contentType: 'application/json' },
} as const;
export type EditExportFormat = keyof typeof EDIT_EXPORT_FORMATS;
export const editExportFormatSchema = z.enum(Object.keys(EDIT_EXPORT_FORMATS) as [EditExportFormat, ...EditExportFormat[]]);
