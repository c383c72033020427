/**
 * Over 400 lines: the render lifecycle (request, claim, apply, end) and the steps between edit
 * versions (restore, revert) share one transaction discipline on the video row; the version
 * records themselves live in edit-versions.ts.
 */
import {
  ErrorCode,
  JOB_ID_PREFIX,
  jobCancelledEventSchema,
  jobFailedEventSchema,
  jobRequestedSubject,
  jobStatusSchema,
  rpcJobCancelReplySchema,
  StorageKeys,
  Streams,
  Subjects,
  videoRenderCompletedEventSchema,
  jobEstimateSchema,
  type JobEstimate,
  type JobCompletedEvent,
  type JobKind,
  type JobRequestedEvent,
  type JobStatus,
  type ProbeResult,
  type RenderJobInput,
  type RpcJobCancelReply,
  type VideoRenderCompletedEvent,
  Consumers,
  DEFAULT_CAPTION_STYLE,
  jobIdSchema,
  jobKindFromId,
} from '@wordcut/contracts';
import { decodeFrameGrid, identityEditList, outputDuration, outputMutes, parseEditList, quantize, retimeWords, type EditList, type FrameGrid } from '@wordcut/edit-list';
import type { ConsumerDef, InboundMessage, Messaging } from '@wordcut/messaging';
import { AppError, type Logger } from '@wordcut/platform';
import { readObjectBytes, type ObjectStorage } from '@wordcut/storage';
import { clampWords, originRuns, tidyKeptWords, transcriptForVersion, wordsToVtt, wordsToWordByWord, type OriginRun } from '@wordcut/transcript';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { editing, videoNotFound } from '../http';
import type { ActiveJobs } from '../limits/limits';
import type { ClipStore } from '../clips/clip-store';
import type { RenderRow, RenderStore } from './render-store';
import type { TranscriptStore } from '../transcripts/transcript-store';
import type { VideoRow, VideoStore } from '../videos/video-store';
import { EditVersions, storedTranscriptSchema, versionSnapshot, type StoredTranscript, type VersionStep } from './edit-versions';
import { VersionStore } from './version-store';

export const EDIT_CONSUMERS = {
  renders: Consumers.gatewayRenders,
  failures: Consumers.gatewayJobFailures,
  cancels: Consumers.gatewayJobCancels,
} as const satisfies Record<string, ConsumerDef>;

export const BUSY_MESSAGE = 'Another edit is still being processed for this video. Please wait for it to finish, then try again.';
export const CHANGED_MESSAGE = 'This video changed since you loaded it (in another tab or on another device). Reload the page to see the latest.';


/** Frame rate of a video's original, for snapping edits to frames (30 when unknown). */
export function videoFrameRate(probe: ProbeResult | null): number {
  const v = probe?.streams.find((s) => s.codecType === 'video');
  return v?.frameRate && v.frameRate > 0 && v.frameRate < 1000 ? v.frameRate : 30;
}

/** The edit list of a video (the identity over the original when it has none). */
export function currentEditList(row: VideoRow & { edit_list?: unknown }): EditList {
  if (row.edit_list) return parseEditList(row.edit_list);
  const duration = row.duration ?? 0;
  if (!(duration > 0)) throw new AppError(409, ErrorCode.Conflict, 'This video has no known duration yet, so it cannot be edited.');
  return identityEditList(duration);
}

export interface EditVideoRow extends VideoRow {
  edit_list: unknown;
  edit_version: number;
  source_playback_key: string | null;
  render_summary?: unknown;
}

export type { VersionStep } from './edit-versions';

/**
 * Edits become media (ADR 0008). A render job is requested with the edit list it will produce;
 * one video render runs per video at a time (a partial unique index on library.renders decides,
 * so two concurrent requests cannot both start). When a media worker reports the render, this
 * applies it in one transaction: the transcript follows the media (removed words leave, kept
 * words are retimed through the edit lists, paragraphs and fillers rebuilt), the video points at
 * the new media and its flags are set; the regenerated VTT and word-by-word files are stored
 * beside the render. Only then is the job completed, so a client that sees "completed" reads
 * the new transcript. Failed and cancelled jobs release the video.
 */
export class EditService {
  constructor(
    private readonly ds: DataSource,
    private readonly bus: Messaging,
    private readonly storage: ObjectStorage,
    private readonly videos: VideoStore,
    private readonly transcripts: TranscriptStore,
    private readonly logger: Logger,
    private readonly activeJobs: ActiveJobs,
    private readonly renders: RenderStore,
    private readonly clips: ClipStore,
    versions: VersionStore = new VersionStore(ds),
  ) {
    this.editVersions = new EditVersions(storage, versions, logger);
  }

  /** the video's edit versions (also used by the transcript replacement) */
  readonly editVersions: EditVersions;

  async start(): Promise<void> {
    await this.bus.provision([Streams.videos, Streams.jobs], Object.values(EDIT_CONSUMERS));
    await this.bus.consume({ consumer: EDIT_CONSUMERS.renders, schema: videoRenderCompletedEventSchema, concurrency: 2, handler: (m) => this.onRenderCompleted(m) });
    await this.bus.consume({ consumer: EDIT_CONSUMERS.failures, schema: jobFailedEventSchema, handler: (m) => this.onJobEnded(m.data.jobId, 'failed', m.data.error) });
    await this.bus.consume({ consumer: EDIT_CONSUMERS.cancels, schema: jobCancelledEventSchema, handler: (m) => this.onJobEnded(m.data.jobId, 'cancelled', 'Cancelled') });
  }

  async getVideo(id: string, m: EntityManager | DataSource = this.ds): Promise<EditVideoRow | null> {
    return (await this.videos.get(id, m)) as EditVideoRow | null;
  }

  /**
   * The frames edits of this video are cut on: its constant rate, or (a variable rate) each frame's
   * start as the ingest stored it, so the render cuts exactly where the edit list says.
   */
  async frameGrid(row: Pick<VideoRow, 'id' | 'probe'>): Promise<FrameGrid> {
    const fps = { fps: videoFrameRate(row.probe) };
    if (!row.probe?.streams.some((s) => s.codecType === 'video' && s.variableFrameRate)) return fps;
    try {
      const bytes = await readObjectBytes(this.storage, StorageKeys.frameGrid(row.id));
      if (bytes) return decodeFrameGrid(bytes);
    } catch (err) {
      this.logger.warn({ err, videoId: row.id }, 'the stored frame grid cannot be read');
    }
    // the renderer still cuts on the source's own frames; the edit list is only less exact
    this.logger.warn({ videoId: row.id }, 'a variable-frame-rate video without its frame grid: snapped to its nominal rate');
    return fps;
  }

  /** A video of `ownerId`'s; anyone else's answers 404 like a missing one. */
  async ownedVideo(id: string, ownerId: string): Promise<EditVideoRow> {
    const row = (await this.videos.getOwned(id, ownerId)) as EditVideoRow | null;
    if (!row) throw videoNotFound(id);
    return row;
  }

  /** A completed video of `ownerId`'s, ready to edit, or the matching error. */
  async editableVideo(id: string, ownerId: string): Promise<EditVideoRow> {
    const row = await this.ownedVideo(id, ownerId);
    if (row.status !== 'completed' || !row.original_key) throw new AppError(409, ErrorCode.Conflict, 'The video is still being prepared. Please wait until it is ready.');
    return row;
  }

  /** Starts a render of a video with the edit list `next` (computed from `base`). Answers the job id. */
  async requestRender(row: EditVideoRow, kind: JobKind, userId: string, base: EditList, next: EditList, summary: string): Promise<string> {
    const grid = await this.frameGrid(row);
    const snapped = editing(() => quantize(next, grid));
    if (snapped.segments.length === 0) throw new AppError(422, ErrorCode.ValidationFailed, 'This edit would remove the whole video.');
    const jobId = `${JOB_ID_PREFIX[kind]}${randomUUID()}`;
    await this.claim(row.id, jobId, kind, userId, row.edit_version, base, snapped, null);
    let captions: RenderJobInput['captions'] = null;
    if (snapped.burnCaptions) {
      const t = await this.transcripts.getByVideo(row.id);
      const words = t ? clampWords(t.words, outputDuration(base)) : null;
      captions = words ? tidyKeptWords(words, retimeWords(base, snapped, words)).map((w) => ({ text: w.text, start: w.start, end: w.end })) : null;
    }
    const input: RenderJobInput = {
      videoId: row.id,
      userId,
      inputKey: row.original_key!,
      outputKey: StorageKeys.render(row.id, jobId),
      segments: snapped.segments.map((s) => ({ start: s.start, end: s.end })),
      volumes: outputMutes(snapped).map((m) => ({ start: m.start, end: m.end, volume: m.volume })),
      captions,
      captionStyle: captions ? (snapped.captionStyle ?? DEFAULT_CAPTION_STYLE) : null,
      reframe: null,
      summary,
    };
    await this.publishRequest(jobId, kind, input);
    this.logger.info({ jobId, videoId: row.id, kind, summary }, 'render requested');
    return jobId;
  }

  /** Records an active render; a video render while another is active answers 409 (a stale claim of a finished job is released first). */
  async claim(videoId: string, jobId: string, kind: JobKind, userId: string, baseVersion: number, base: EditList, next: EditList, clipId: string | null): Promise<void> {
    const insert = () =>
      this.ds.transaction(async (tx) => {
        // the edit was made on edit version `baseVersion`: a restore or revert since then refuses it
        if ((await this.videos.lockEditVersion(tx, videoId)) !== baseVersion) throw new AppError(409, ErrorCode.Conflict, CHANGED_MESSAGE);
        await this.activeJobs.reserve(tx, userId);
        await this.renders.insertActive(tx, { jobId, videoId, kind, userId, baseVersion, base, next, clipId });
      });
    try {
      await insert();
    } catch (err) {
      if ((err as { code?: string }).code !== '23505') throw err;
      if (!(await this.releaseStaleClaim(videoId))) throw new AppError(409, ErrorCode.Conflict, BUSY_MESSAGE);
      try {
        await insert();
      } catch (again) {
        if ((again as { code?: string }).code === '23505') throw new AppError(409, ErrorCode.Conflict, BUSY_MESSAGE);
        throw again;
      }
    }
  }

  /** An active claim whose job the jobs service reports finished (an event was lost) is released. */
  private async releaseStaleClaim(videoId: string): Promise<boolean> {
    const active = await this.renders.activeVideoRender(videoId);
    if (!active) return true;
    const status = await this.jobStatus(active).catch(() => null);
    if (!status || !['completed', 'error', 'cancelled'].includes(status.status)) return false;
    if (status.status === 'completed') return false; // being applied right now
    await this.onJobEnded(active, status.status === 'cancelled' ? 'cancelled' : 'failed', status.error ?? 'Failed');
    return true;
  }

  async publishRequest(jobId: string, kind: JobKind, input: RenderJobInput): Promise<void> {
    const event: JobRequestedEvent = { jobId, kind, input, requestedAt: new Date().toISOString() };
    try {
      await this.bus.publish(jobRequestedSubject(jobId), event, { msgId: `${jobId}:requested` });
    } catch (err) {
      await this.onJobEnded(jobId, 'failed', 'could not be queued');
      this.logger.error({ err, jobId }, 'could not publish a job request');
      throw new AppError(503, ErrorCode.ServiceUnavailable, 'The job could not be started right now. Please try again.');
    }
  }

  /**
   * How long a job of `kind` on this video will likely take: the median of recent ones on media
   * of about its length (the jobs service keeps them), or nothing when too few or unknown.
   */
  async jobEstimate(videoId: string, ownerId: string, kind: JobKind): Promise<JobEstimate> {
    const row = await this.ownedVideo(videoId, ownerId);
    try {
      return await this.bus.request(Subjects.rpcJobsEstimate, { kind, sizeSec: row.duration ?? null }, jobEstimateSchema);
    } catch (err) {
      this.logger.warn({ err, videoId, kind }, 'job estimate unavailable');
      return { typicalSec: null, basedOn: 0 };
    }
  }

  async jobStatus(jobId: string): Promise<JobStatus | null> {
    return this.bus.request(Subjects.rpcJobGet, { jobId }, jobStatusSchema.nullable());
  }

  /** A job of `userId`'s of one of `kinds` (anyone else's answers 404 like a missing one). */
  async ownedJob(jobId: string, kinds: readonly JobKind[], userId: string): Promise<JobStatus> {
    const missing = () => new AppError(404, ErrorCode.NotFound, `There is no job with id '${jobId.slice(0, 80)}'.`);
    const kind = jobKindFromId(jobId);
    if (!jobIdSchema.safeParse(jobId).success || !kind || !kinds.includes(kind)) throw missing();
    const job = await this.jobStatus(jobId).catch((err: unknown) => {
      this.logger.warn({ err, jobId }, 'job status request failed');
      throw new AppError(503, ErrorCode.ServiceUnavailable, 'Job status is unavailable right now. Please try again.');
    });
    if (!job || job.userId !== userId) throw missing();
    return job;
  }

  async cancel(jobId: string, userId: string | null): Promise<RpcJobCancelReply> {
    const reply = await this.bus.request(Subjects.rpcJobCancel, { jobId, userId }, rpcJobCancelReplySchema);
    if (reply.ok) await this.onJobEnded(jobId, 'cancelled', 'Cancelled');
    return reply;
  }

  /** Applies a finished render (idempotent: a repeated event changes nothing and completes the job again). */
  async onRenderCompleted(m: InboundMessage<VideoRenderCompletedEvent>): Promise<void> {
    const e = m.data;
    const render = await this.renders.get(e.jobId);
    if (!render) {
      this.logger.warn({ jobId: e.jobId }, 'render completed for an unknown job; output removed');
      await this.storage.delete(e.outputKey).catch(() => undefined);
      return;
    }
    if (render.state === 'cancelled' || render.state === 'failed') {
      await this.storage.delete(e.outputKey).catch(() => undefined);
      this.logger.info({ jobId: e.jobId, state: render.state }, 'render finished after its job ended; output removed');
      return;
    }
    let result: Record<string, unknown> = { ...e.summary, videoId: e.videoId };
    if (render.state === 'active') {
      if (render.kind === 'clip') {
        await this.clips.completeForJob(e.jobId);
        await this.renders.markApplied(e.jobId);
        result = { ...result, clipId: render.clip_id };
      } else {
        result = { ...result, ...(await this.applyVideoRender(render, e)) };
      }
    }
    const done: JobCompletedEvent = { jobId: e.jobId, result, worker: e.worker, at: new Date().toISOString() };
    await this.bus.publish(Subjects.jobCompleted, done, { msgId: `${e.jobId}:completed` });
  }

  private async applyVideoRender(render: RenderRow, e: VideoRenderCompletedEvent): Promise<Record<string, unknown>> {
    const base = parseEditList(render.base_edit);
    const next = parseEditList(render.new_edit);
    const processedFilename = `${e.jobId}.mp4`;
    const vttKey = StorageKeys.renderVtt(e.videoId, e.jobId);
    const wordsKey = StorageKeys.renderWordByWord(e.videoId, e.jobId);
    return this.ds.transaction(async (tx) => {
      if ((await this.renders.lockState(tx, e.jobId)) !== 'active') return { processedFilename };
      await this.videos.lock(tx, e.videoId);
      const video = await this.getVideo(e.videoId, tx);
      if (!video) return { processedFilename };
      const transcript = await this.transcripts.getByVideo(e.videoId);
      const before = await this.editVersions.current(tx, video, transcript);
      let wordCount = 0;
      let origins: OriginRun[] | null = null;
      let after: StoredTranscript = { languageCode: transcript?.languageCode ?? video.language_code, words: [], paragraphs: [], fillerWords: [] };
      if (transcript) {
        const current = clampWords(transcript.words, outputDuration(base));
        const kept = retimeWords(base, next, current);
        const { words, paragraphs, fillerWords } = transcriptForVersion(current, kept);
        origins = originRuns(kept.map((k) => k.index));
        after = { languageCode: transcript.languageCode, words, paragraphs, fillerWords };
        await this.transcripts.replaceForVideo(tx, e.videoId, after);
        wordCount = words.length;
        // Stored beside the render (keyed by job id: a repeat overwrites the same objects).
        await this.storage.upload(vttKey, Buffer.from(wordsToVtt(words, { languageCode: transcript.languageCode })), { contentType: 'text/vtt' });
        await this.storage.upload(wordsKey, Buffer.from(JSON.stringify(wordsToWordByWord(words, transcript.languageCode))), { contentType: 'application/json' });
      }
      const durationSec = e.summary.outputDurationSec || outputDuration(next);
      const summary = { ...e.summary, jobId: e.jobId, vttKey, wordBywordKey: wordsKey };
      await this.videos.applyRender(tx, e.videoId, { editList: next, playbackKey: e.outputKey, processedFilename, durationSec, summary });
      const seq = await this.editVersions.insert(tx, e.videoId, {
        kind: render.kind, job_id: e.jobId, edit_list: next, playback_key: e.outputKey, media_version: processedFilename, processed_filename: processedFilename, duration: durationSec, render_summary: summary,
      }, versionSnapshot(after));
      await this.videos.setCurrentVersion(tx, e.videoId, seq);
      await this.renders.markApplied(e.jobId, tx);
      this.logger.info({ jobId: e.jobId, videoId: e.videoId, path: e.summary.path, wordCount, version: seq }, 'render applied');
      const version: VersionStep = { before, after: seq, origins };
      return { processedFilename, wordCount, version };
    });
  }

  /**
   * Shows an earlier (or, after an undo, a later) version again: its edit list, its media and its
   * transcript, at once (a version's media is kept as long as its video). `expected` is the
   * version the caller believes is shown; another one answers 409 (another tab changed it).
   */
  async restoreVersion(videoId: string, ownerId: string, seq: number, expected: number | null): Promise<VersionStep> {
    await this.editableVideo(videoId, ownerId);
    const target = await this.editVersions.get(videoId, seq);
    if (!target) throw new AppError(404, ErrorCode.NotFound, `This video has no version ${seq}.`);
    if (await this.renders.hasActive(videoId)) throw new AppError(409, ErrorCode.Conflict, BUSY_MESSAGE);
    const snapshot = await this.editVersions.readTranscript(target);
    if (target.playback_key && !(await this.storage.head(target.playback_key))) {
      throw new AppError(409, ErrorCode.Conflict, 'The media of this version is no longer stored, so it cannot be shown again.');
    }
    return this.ds.transaction(async (tx) => {
      await this.videos.lock(tx, videoId);
      const video = (await this.getVideo(videoId, tx))!;
      if (await this.renders.hasActive(videoId)) throw new AppError(409, ErrorCode.Conflict, BUSY_MESSAGE);
      const transcript = await this.transcripts.getByVideo(videoId);
      // the page's version is the one shown, or one whose edit and words the video has again
      // (its text undo was saved after an edit version was recorded on top of it)
      const before = await this.editVersions.current(tx, video, transcript, expected);
      const shown = video.current_version ?? null;
      if (expected !== null && shown !== expected && before !== expected) throw new AppError(409, ErrorCode.Conflict, CHANGED_MESSAGE, { currentVersion: shown });
      if (before === seq) return { before, after: seq };
      const burns = (target.edit_list as { burnCaptions?: boolean } | null)?.burnCaptions === true;
      await this.videos.applyVersion(tx, videoId, {
        seq, editList: target.edit_list, playbackKey: target.playback_key, mediaVersion: target.media_version, processedFilename: target.processed_filename, durationSec: target.duration, summary: target.render_summary,
        // the original has nothing changed; an edit version's words differ from its media's (and its burned captions)
        captionsChanged: target.kind !== 'original' && target.kind !== 'revert',
        captionsStale: burns && target.kind === 'edit',
      });
      if (transcript || snapshot.words.length > 0) await this.transcripts.replaceForVideo(tx, videoId, snapshot);
      this.logger.info({ videoId, from: before, to: seq }, 'version restored');
      return { before, after: seq };
    });
  }

  /** A job failed or was cancelled: release the video (and fail its clip). Idempotent. */
  async onJobEnded(jobId: string, state: 'failed' | 'cancelled', error: string): Promise<void> {
    const { clipId } = await this.renders.end(jobId, state, error);
    if (clipId) await this.clips.fail(clipId, state === 'cancelled' ? 'Cancelled' : error);
  }

  /**
   * Revert to original: the clips go, the video plays its original again and the transcript is
   * the one its ingest built. It is a new version, so the step can be undone (the clips stay
   * deleted, as the dialog says). Refused while a render runs.
   */
  async revertToOriginal(videoId: string, ownerId: string): Promise<VersionStep> {
    const row = await this.editableVideo(videoId, ownerId);
    if (await this.renders.hasActive(videoId)) throw new AppError(409, ErrorCode.Conflict, BUSY_MESSAGE);
    const stored = row.ingest_job_id ? await this.readIngestTranscript(videoId, row.ingest_job_id) : null;
    const clips = await this.clips.objectsOfVideo(videoId);
    const step = await this.ds.transaction(async (tx) => {
      await this.videos.lock(tx, videoId);
      const video = (await this.getVideo(videoId, tx))!;
      const base = video.edit_list ? parseEditList(video.edit_list) : null;
      const transcript = await this.transcripts.getByVideo(videoId);
      const before = await this.editVersions.current(tx, video, transcript);
      await this.clips.deleteForVideo(tx, videoId);
      await this.videos.revertToOriginal(tx, videoId, base?.sourceDuration ?? null);
      if (stored) await this.transcripts.replaceForVideo(tx, videoId, stored);
      const words = stored ?? transcript ?? { languageCode: video.language_code, words: [], paragraphs: [], fillerWords: [] };
      const after = await this.editVersions.insert(tx, videoId, {
        kind: 'revert', job_id: null, edit_list: null, playback_key: null, media_version: 'original', processed_filename: null, duration: base?.sourceDuration ?? video.duration, render_summary: null,
      }, versionSnapshot(words));
      await this.videos.setCurrentVersion(tx, videoId, after);
      return { before, after, origins: null };
    });
    await Promise.all(clips.flatMap((c) => [this.storage.delete(c.output_key), this.storage.delete(c.vtt_key)])).catch(() => undefined);
    return step;
  }

  private async readIngestTranscript(videoId: string, ingestJobId: string) {
    try {
      const obj = await this.storage.getStream(StorageKeys.ingestTranscript(videoId, ingestJobId));
      const chunks: Buffer[] = [];
      for await (const c of obj.body as AsyncIterable<Buffer>) chunks.push(c);
      return storedTranscriptSchema.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    } catch (err) {
      this.logger.warn({ err, videoId }, 'the original transcript could not be read; the current one stays');
      return null;
    }
  }
}
