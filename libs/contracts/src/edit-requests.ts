import { z } from 'zod';
import { KEY_MOMENT_ZOOM_MAX, KEY_MOMENT_ZOOM_MIN } from './keymoments';
import { muteLevelSchema } from './mute-levels';

/**
 * Request bodies of the edit, job and clip routes: the gateway parses with them, and their types
 * are what a client sends.
 */

export const timeRangeRequestSchema = z.object({ start: z.number().finite().nonnegative(), end: z.number().finite().nonnegative() });
export const applyCutsRequestSchema = z.object({ cuts: z.array(timeRangeRequestSchema).min(1, 'Select at least one range to cut.').max(5000) });
export const removeFillersRequestSchema = z.object({ fillerWordIndices: z.array(z.number().int().nonnegative()).min(1, 'There are no filler words to remove.').max(50000) });
export const processSilenceRequestSchema = z.object({ silenceRanges: z.array(timeRangeRequestSchema).min(1, "No silences to remove: Mark silences as 'Remove' before processing").max(5000) });
export const muteJobRequestSchema = z.object({
  videoId: z.string(),
  pendingMutes: z
    .array(
      z.object({
        startTime: z.number().finite().nonnegative(),
        endTime: z.number().finite().nonnegative(),
        level: muteLevelSchema.default('silence'),
        wordIndices: z.array(z.number().int()).optional(),
        text: z.string().optional(),
        id: z.string().optional(),
      }),
    )
    .min(1, 'There are no muted regions to process.')
    .max(5000),
});
export const reorderRequestSchema = z
  .object({
    groupOrder: z.array(z.number().int().nonnegative()).optional(),
    spec: z
      .object({
        granularity: z.string().default('paragraph'),
        segments: z
          .array(
            z.object({
              id: z.union([z.string(), z.number()]).optional(),
              start: z.number().finite(),
              end: z.number().finite(),
              paragraphId: z.union([z.string(), z.number()]).optional(),
              wordIndices: z.array(z.number().int().nonnegative()).optional(),
              type: z.string().optional(),
            }),
          )
          .min(1),
      })
      .optional(),
    userId: z.union([z.string(), z.number()]).optional(),
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
  /** the zoom (1 to 2.5, as the dialog's slider) and pan (percent of the frame, 0 = centred) the preview showed */
  reframe: z
    .object({
      offsetX: z.number().min(-100).max(100).default(0),
      offsetY: z.number().min(-100).max(100).default(0),
      scale: z.number().min(KEY_MOMENT_ZOOM_MIN).max(KEY_MOMENT_ZOOM_MAX).default(1),
    })
    .optional(),
});

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
