import { z } from 'zod';

/**
 * What a job does to its video: `version` jobs render a new version from the edit list and run
 * one at a time per video (the renders table's unique index; the editor's exclusion rule); `clip`
 * renders beside them; `ingest` and `analysis` change no version.
 */
export type JobFamily = 'ingest' | 'version' | 'clip' | 'analysis';

/** The seed's status path a kind is polled on (each with its own status words). */
export type JobStatusRoute = 'video-processing' | 'caption' | 'silence' | 'jobs';

/** What the editor shows while a job of a kind runs, and when it fails or is cancelled. */
export interface JobOverlay {
  title: string;
  failureTitle: string;
  failureDefault: string;
  cancelledTitle?: string;
}

export interface JobKindSpec {
  prefix: string;
  family: JobFamily;
  /** Its name in Active Jobs. */
  label: string;
  statusRoute: JobStatusRoute;
  overlay: JobOverlay | null;
}

const VIDEO_FAILED = 'Video processing failed';

/** The one registry of job kinds: everything else about a kind is derived from here. */
export const JOB_KINDS = {
  probe: { prefix: 'probe_', family: 'ingest', label: 'Processing', statusRoute: 'jobs', overlay: null },
  cut: { prefix: 'cut_', family: 'version', label: 'Apply Cuts', statusRoute: 'video-processing', overlay: { title: 'Processing video', failureTitle: VIDEO_FAILED, failureDefault: 'The video could not be processed. Please try again.' } },
  filler: { prefix: 'filler_', family: 'version', label: 'Remove Filler Words', statusRoute: 'video-processing', overlay: { title: 'Removing filler words', failureTitle: VIDEO_FAILED, failureDefault: 'The filler words could not be removed. Please try again.' } },
  silence: { prefix: 'silence_', family: 'version', label: 'Remove Silences', statusRoute: 'silence', overlay: { title: 'Removing silences', failureTitle: 'Silence removal failed', failureDefault: 'The silences could not be removed. Please try again.' } },
  caption: { prefix: 'caption_', family: 'version', label: 'Burn Captions', statusRoute: 'caption', overlay: { title: 'Burning captions', failureTitle: 'Caption processing failed', failureDefault: 'The captions could not be burned in. Please try again.' } },
  mute: {
    prefix: 'mute_',
    family: 'version',
    label: 'Processing',
    statusRoute: 'jobs',
    overlay: { title: 'Processing audio', failureTitle: 'Mute processing failed', failureDefault: 'The muted regions could not be applied. Please try again.', cancelledTitle: 'Mute processing cancelled' },
  },
  reorder: { prefix: 'reorder_', family: 'version', label: 'Processing', statusRoute: 'jobs', overlay: { title: 'Reordering video', failureTitle: 'Video reordering failed', failureDefault: 'The video could not be reordered. Please try again.' } },
  clip: { prefix: 'clip_', family: 'clip', label: 'Processing', statusRoute: 'jobs', overlay: null },
  keymoments: { prefix: 'keymoments_', family: 'analysis', label: 'Processing', statusRoute: 'jobs', overlay: null },
} as const satisfies Record<string, JobKindSpec>;

/** Job kinds: the registry's keys; the id prefix tells the kind (cut_, filler_, silence_, caption_ ...). */
export type JobKind = keyof typeof JOB_KINDS;
export const jobKindSchema = z.enum(Object.keys(JOB_KINDS) as [JobKind, ...JobKind[]]);

export const JOB_ID_PREFIX = Object.fromEntries(Object.entries(JOB_KINDS).map(([k, s]) => [k, s.prefix])) as { [K in JobKind]: (typeof JOB_KINDS)[K]['prefix'] };

/** Kinds that render a new version of a video from its edit list (one at a time per video). */
export type RenderJobKind = { [K in JobKind]: (typeof JOB_KINDS)[K]['family'] extends 'version' ? K : never }[JobKind];
export const isVideoRenderKind = (k: JobKind): k is RenderJobKind => JOB_KINDS[k].family === 'version';
export const RENDER_JOB_KINDS: readonly RenderJobKind[] = (Object.keys(JOB_KINDS) as JobKind[]).filter(isVideoRenderKind);

/** Kinds that exclude each other on one video: the version jobs. */
export const excludeEachOther = (a: JobKind, b: JobKind): boolean => JOB_KINDS[a].family === 'version' && JOB_KINDS[b].family === 'version';

/** The kind a job id names by its prefix, or null. */
export function jobKindFromId(jobId: string): JobKind | null {
  const prefix = /^([a-z]+)_/.exec(jobId)?.[1];
  return prefix && (jobKindSchema.options as readonly string[]).includes(prefix) ? (prefix as JobKind) : null;
}

/** A job's name in Active Jobs, from its id ('Processing' for kinds without their own). */
export const jobKindLabel = (jobId: string): string => {
  const kind = jobKindFromId(jobId);
  return kind ? JOB_KINDS[kind].label : 'Processing';
};

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
  /** a video whose frames do not all last the same (phones): its frame starts are stored (StorageKeys.frameGrid) */
  variableFrameRate: z.boolean().optional(),
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
