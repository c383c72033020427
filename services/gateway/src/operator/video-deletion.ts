import {
  ErrorCode,
  StorageKeys,
  Subjects,
  rpcJobsDeleteOfVideosReplySchema,
  rpcJobsOfVideosReplySchema,
  type BulkDeletionPreview,
  type DeletionPreview,
  type DeletionResult,
  type RpcJobsOfVideosReply,
} from '@wordcut/contracts';
import type { Messaging } from '@wordcut/messaging';
import { AppError, type Logger } from '@wordcut/platform';
import type { ObjectStorage } from '@wordcut/storage';
import type { DataSource } from 'typeorm';
import type { ClipStore } from '../clips/clip-store';
import { videoNotFound } from '../http';
import type { KeyMomentStore } from '../key-moments/key-moment-store';
import type { RenderStore } from '../edits/render-store';
import type { SilenceAnalysisStore } from '../silence/silence-store';
import type { TranscriptStore } from '../transcripts/transcript-store';
import type { VideoRow, VideoStore } from '../videos/video-store';

export const JOB_RUNNING_MESSAGE = 'This video has a job running. Wait for it to finish (or cancel it), then delete the video.';
export const DELETION_UNFINISHED_MESSAGE =
  'The video could not be deleted completely right now. It is hidden and marked, and its remaining data will be removed automatically.';
/** A marked video younger than this belongs to a deletion still in progress; the sweeper leaves it alone. */
const SWEEP_GRACE_MS = 60 * 1000;
const RUNNING = new Set(['pending', 'processing']);

export interface VideoDeletionDeps {
  ds: DataSource;
  bus: Messaging;
  storage: ObjectStorage;
  logger: Logger;
  videos: VideoStore;
  transcripts: TranscriptStore;
  clips: ClipStore;
  keyMoments: KeyMomentStore;
  renders: RenderStore;
  silence: SilenceAnalysisStore;
  rpcTimeoutMs: number;
}

/**
 * Deleting videos (docs/ANALYTICS.md). The preview names every row (video, transcript and its
 * words, clips, key moments, renders, silence analyses, the jobs service's job records) and every
 * object under the video's storage prefix; a deletion removes exactly those. It is refused while a
 * job of the video runs. The video is first marked (hidden from its owner and the lists, no new
 * jobs), then job records, objects and finally its rows go; when a step fails the mark stays and
 * the sweeper finishes the deletion later.
 */
export class VideoDeletion {
  constructor(private readonly deps: VideoDeletionDeps) {}

  /** What deleting each video would remove (404 when one is missing or already being deleted). */
  async preview(ids: string[]): Promise<DeletionPreview[]> {
    const rows = await this.liveVideos(ids);
    const jobs = await this.jobsOf(ids);
    const { transcripts, clips, keyMoments, renders, silence, storage } = this.deps;
    const [transcriptCounts, wordCounts, clipCounts, momentCounts, renderSummary, silenceCounts] = await Promise.all([
      transcripts.countByVideo(ids),
      transcripts.wordsByVideo(ids),
      clips.countByVideo(ids),
      keyMoments.countByVideo(ids),
      renders.summaryByVideo(ids),
      silence.countByVideo(ids),
    ]);
    const previews: DeletionPreview[] = [];
    for (const row of rows) {
      const objects = (await storage.list(StorageKeys.videoPrefix(row.id))).map((o) => ({ key: o.key, size: o.sizeBytes }));
      const summary = renderSummary.get(row.id);
      previews.push({
        video: { id: row.id, originalName: row.original_name, title: row.title, userId: row.owner_id },
        transcripts: transcriptCounts.get(row.id) ?? 0,
        transcriptWords: wordCounts.get(row.id) ?? 0,
        clips: clipCounts.get(row.id) ?? 0,
        keyMoments: momentCounts.get(row.id) ?? 0,
        captionJobs: summary?.byKind['caption'] ?? 0,
        reorderJobs: summary?.byKind['reorder'] ?? 0,
        renders: summary?.total ?? 0,
        silenceAnalyses: silenceCounts.get(row.id) ?? 0,
        jobs: jobs.filter((j) => j.videoId === row.id).length,
        files: objects.map((o) => o.key),
        objects,
        totalSize: objects.reduce((sum, o) => sum + o.size, 0),
      });
    }
    return previews;
  }

  async bulkPreview(ids: string[]): Promise<BulkDeletionPreview> {
    return summarize(await this.preview(ids));
  }

  /**
   * Deletes the videos: refused (409) while one has a running job or is still being prepared; once
   * marked, a failure midway answers 503 and leaves the rest to the sweeper.
   */
  async delete(ids: string[], by: string): Promise<DeletionResult> {
    await this.liveVideos(ids);
    const jobs = await this.jobsOf(ids);
    if (jobs.some((j) => RUNNING.has(j.status))) throw new AppError(409, ErrorCode.Conflict, JOB_RUNNING_MESSAGE);
    await this.deps.ds.transaction(async (tx) => {
      // the lock waits for renders being claimed right now; later claims find the video marked
      const locked = await this.deps.videos.lockForDeletion(tx, ids);
      for (const id of ids) {
        const row = locked.find((r) => r.id === id);
        if (!row || row.deleting_at) throw videoNotFound(id);
        if (row.status === 'uploaded' || row.status === 'processing') throw new AppError(409, ErrorCode.Conflict, JOB_RUNNING_MESSAGE);
      }
      const active = await this.deps.renders.summaryByVideo(ids);
      if ([...active.values()].some((s) => s.active > 0)) throw new AppError(409, ErrorCode.Conflict, JOB_RUNNING_MESSAGE);
      await this.deps.videos.markDeleting(tx, ids);
    });
    let objects = 0;
    const deleted: string[] = [];
    try {
      for (const id of ids) {
        objects += await this.finish(id, jobs.filter((j) => j.videoId === id).map((j) => j.id));
        deleted.push(id);
        this.deps.logger.info({ videoId: id, by }, 'video deleted');
      }
    } catch (err) {
      this.deps.logger.error({ err, videoIds: ids.filter((id) => !deleted.includes(id)), by }, 'video deletion unfinished: left marked for the sweeper');
      throw new AppError(503, ErrorCode.ServiceUnavailable, DELETION_UNFINISHED_MESSAGE, { deleted });
    }
    return { deleted, objects, message: ids.length === 1 ? 'Video deleted.' : `${ids.length} videos deleted.` };
  }

  /** Finishes deletions a failure left marked (the sweeper); answers how many it finished. */
  async finishMarked(limit: number, now: Date = new Date()): Promise<number> {
    let finished = 0;
    for (const row of await this.deps.videos.markedForDeletion(limit, new Date(now.getTime() - SWEEP_GRACE_MS))) {
      try {
        const jobs = await this.jobsOf([row.id]);
        await this.finish(row.id, jobs.filter((j) => !RUNNING.has(j.status)).map((j) => j.id));
        finished++;
        this.deps.logger.info({ videoId: row.id }, 'video deletion finished by the sweeper');
      } catch (err) {
        this.deps.logger.warn({ err, videoId: row.id }, 'video deletion still unfinished');
      }
    }
    return finished;
  }

  /** Job records, then objects, then rows (they cascade): the row goes last, so a failure keeps the mark. */
  private async finish(videoId: string, jobIds: string[]): Promise<number> {
    if (jobIds.length > 0) {
      await this.deps.bus.request(Subjects.rpcJobsDeleteOfVideos, { videoIds: [videoId], jobIds }, rpcJobsDeleteOfVideosReplySchema, this.deps.rpcTimeoutMs);
    }
    const objects = await this.deps.storage.deletePrefix(StorageKeys.videoPrefix(videoId));
    await this.deps.videos.delete(videoId);
    return objects;
  }

  private async liveVideos(ids: string[]): Promise<VideoRow[]> {
    const rows: VideoRow[] = [];
    for (const id of ids) {
      const row = await this.deps.videos.get(id);
      if (!row || row.deleting_at) throw videoNotFound(id);
      rows.push(row);
    }
    return rows;
  }

  private async jobsOf(ids: string[]): Promise<RpcJobsOfVideosReply> {
    try {
      return await this.deps.bus.request(Subjects.rpcJobsOfVideos, { videoIds: ids }, rpcJobsOfVideosReplySchema, this.deps.rpcTimeoutMs);
    } catch (err) {
      this.deps.logger.warn({ err }, 'the jobs service did not answer for a deletion');
      throw new AppError(503, ErrorCode.ServiceUnavailable, 'The jobs service is not answering, so the video cannot be checked for running jobs. Please try again in a moment.');
    }
  }
}

/** The totals of several videos' previews. */
export function summarize(videos: DeletionPreview[]): BulkDeletionPreview {
  const total = (pick: (p: DeletionPreview) => number) => videos.reduce((sum, p) => sum + pick(p), 0);
  return {
    videos,
    totalTranscripts: total((p) => p.transcripts),
    totalClips: total((p) => p.clips),
    totalKeyMoments: total((p) => p.keyMoments),
    totalCaptionJobs: total((p) => p.captionJobs),
    totalReorderJobs: total((p) => p.reorderJobs),
    totalRenders: total((p) => p.renders),
    totalSilenceAnalyses: total((p) => p.silenceAnalyses),
    totalJobs: total((p) => p.jobs),
    totalFiles: videos.flatMap((p) => p.files),
    totalSize: total((p) => p.totalSize),
  };
}
