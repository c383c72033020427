import { z } from 'zod';

/** Job kinds; the id prefix tells the kind (cut_, filler_, silence_, caption_ ...). */
export const jobKindSchema = z.enum(['probe', 'cut', 'filler', 'silence', 'caption', 'mute', 'reorder', 'clip', 'keymoments']);
export type JobKind = z.infer<typeof jobKindSchema>;

export const JOB_ID_PREFIX: Record<JobKind, string> = {
  probe: 'probe_',
  cut: 'cut_',
  filler: 'filler_',
  silence: 'silence_',
  caption: 'caption_',
  mute: 'mute_',
  reorder: 'reorder_',
  clip: 'clip_',
  keymoments: 'keymoments_',
};

/** Kinds that render a new version of a video from its edit list (one at a time per video). */
export const RENDER_JOB_KINDS = ['cut', 'filler', 'silence', 'caption', 'mute', 'reorder'] as const satisfies readonly JobKind[];
export type RenderJobKind = (typeof RENDER_JOB_KINDS)[number];
export const isVideoRenderKind = (k: JobKind): k is RenderJobKind => (RENDER_JOB_KINDS as readonly string[]).includes(k);

/** The kind a job id names by its prefix, or null. */
export function jobKindFromId(jobId: string): JobKind | null {
  const prefix = /^([a-z]+)_/.exec(jobId)?.[1];
  return prefix && (jobKindSchema.options as readonly string[]).includes(prefix) ? (prefix as JobKind) : null;
}

export const jobIdSchema = z
  .string()
  .regex(/^[a-z]+_[0-9a-f-]{36}$/, 'job id must look like <kind>_<uuid>');

/** Status values of editing jobs as the browser sees them. */
export const jobStatusValueSchema = z.enum(['pending', 'processing', 'completed', 'error', 'cancelled']);
export type JobStatusValue = z.infer<typeof jobStatusValueSchema>;

export const probeStreamSchema = z.object({
  index: z.number().int(),
  codecType: z.string(),
  codecName: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  frameRate: z.number().nullable(),
  sampleRate: z.number().int().nullable(),
  channels: z.number().int().nullable(),
  durationSec: z.number().nullable(),
  /** pixel format of a video stream (e.g. yuv420p, yuv420p10le); absent in results from older workers */
  pixFmt: z.string().nullable().optional(),
  /** display rotation of a video stream in degrees (display matrix / rotate tag), normalised to 0, 90, 180 or 270 */
  rotation: z.number().nullable().optional(),
  /** codec profile as ffprobe names it (e.g. 'High', 'High 10', 'Main 10') */
  profile: z.string().nullable().optional(),
});
export type ProbeStream = z.infer<typeof probeStreamSchema>;

/** What ffprobe tells about a media object. */
export const probeResultSchema = z.object({
  formatName: z.string(),
  durationSec: z.number().nullable(),
  sizeBytes: z.number().int().nullable(),
  bitRate: z.number().int().nullable(),
  streams: z.array(probeStreamSchema),
});
export type ProbeResult = z.infer<typeof probeResultSchema>;

/** GET /api/jobs/{jobId}/status */
export const jobStatusSchema = z.object({
  id: z.string(),
  kind: jobKindSchema,
  status: jobStatusValueSchema,
  progress: z.number().min(0).max(100),
  message: z.string(),
  estimatedTimeRemaining: z.number().nullable(),
  error: z.string().nullable(),
  /** probe jobs: the ProbeResult; render jobs: a RenderSummary */
  result: z.record(z.string(), z.unknown()).nullable(),
  videoId: z.string().nullable().optional(),
  userId: z.string().nullable().optional(),
  attempts: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
});
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** 202 answer of POST /api/probe-jobs */
export const jobAcceptedSchema = z.object({ jobId: z.string() });
export type JobAccepted = z.infer<typeof jobAcceptedSchema>;

/** How a render was made (job result of render and clip jobs). */
export const renderSummarySchema = z.object({
  /** smart: whole GOPs copied, partial GOPs re-encoded; copy-video: nothing cut, the video copied; reencode: one full pass */
  path: z.enum(['smart', 'copy-video', 'reencode']),
  fallbackReason: z.string().nullable(),
  /** copy-packets: source AAC packets; spliced: those, with the packets around mutes re-encoded; reencoded: the whole audio */
  audio: z.enum(['none', 'copy-packets', 'spliced', 'reencoded']),
  /** why mutes could not be spliced and the whole audio was encoded once instead */
  audioFallbackReason: z.string().nullable().optional(),
  /** spliced audio: regions and packets re-encoded, fidelity outside the mutes against the source (dB) */
  audioSplice: z.object({ regions: z.number().int(), replacedPackets: z.number().int(), snrDb: z.number() }).optional(),
  encodedShare: z.number().min(0).max(1),
  outputDurationSec: z.number().nonnegative(),
  sizeBytes: z.number().int().nonnegative(),
  renderMs: z.number().int().nonnegative(),
  /** the worker's other time: getting the original (download or cache), and the upload still running after the render */
  fetchMs: z.number().int().nonnegative().optional(),
  uploadWaitMs: z.number().int().nonnegative().optional(),
  /** smart path: re-encoded pieces reused from earlier renders of the same original, and pieces made */
  pieces: z.object({ reused: z.number().int().nonnegative(), made: z.number().int().nonnegative() }).optional(),
  /** the original was already on the worker (nothing downloaded) */
  sourceCached: z.boolean().optional(),
});
export type RenderSummary = z.infer<typeof renderSummarySchema>;

/** Status values per polling path: a failure reads 'error' for most jobs, 'failed' for mute and reorder jobs. */
export type ProcessingStatus = 'pending' | 'processing' | 'completed' | 'error' | 'cancelled';
export type MuteReorderStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';
export function toFailedVocabulary(s: JobStatusValue): MuteReorderStatus {
  return s === 'error' ? 'failed' : s;
}
