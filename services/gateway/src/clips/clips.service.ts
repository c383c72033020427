import { DEFAULT_CAPTION_STYLE, ErrorCode, JOB_ID_PREFIX, StorageKeys, type CreateClipRequest } from '@wordcut/contracts';
import { applyCuts, outputDuration } from '@wordcut/edit-list';
import { AppError } from '@wordcut/platform';
import { clampWords, wordsToVtt } from '@wordcut/transcript';
import { ObjectNotFoundError, type ObjectStorage, type ObjectStream } from '@wordcut/storage';
import { randomUUID } from 'node:crypto';
import { editing } from '../http';
import type { ClipRow, ClipStore } from './clip-store';
import { currentEditList, type EditService } from '../edits/edits.service';
import type { RenderStore } from '../edits/render-store';
import type { TranscriptStore } from '../transcripts/transcript-store';

export interface CreatedClip {
  id: string;
  jobId: string;
  name: string;
  aspectRatio: CreateClipRequest['aspectRatio'];
  status: 'pending';
}

/**
 * Clips: a part of the current version rendered with its own captions; listed per video of its
 * owner, their files read, deleted with their files (a running render is cancelled first).
 */
export class ClipsService {
  constructor(
    private readonly edits: EditService,
    private readonly transcripts: TranscriptStore,
    private readonly storage: ObjectStorage,
    private readonly clips: ClipStore,
    private readonly renders: RenderStore,
  ) {}

  /**
   * A clip of the current version of one of `userId`'s videos (times in output seconds): its own
   * captions retimed to it, a clip row, and a render job from the original with the ratio and reframe.
   * Clips do not lock the video. Used by `POST /api/clips` and the key-moment export.
   */
  async create(request: CreateClipRequest, userId: string): Promise<CreatedClip> {
    if (!(request.endTime > request.startTime)) throw new AppError(400, ErrorCode.ValidationFailed, 'A clip must end after it starts.');
    const row = await this.edits.editableVideo(request.videoId, userId);
    const el = currentEditList(row);
    const duration = outputDuration(el);
    if (request.startTime >= duration) throw new AppError(422, ErrorCode.ValidationFailed, 'The clip starts after the end of the video.');
    const end = Math.min(request.endTime, duration);
    const clipId = randomUUID();
    const jobId = `${JOB_ID_PREFIX.clip}${randomUUID()}`;
    const clipEdit = editing(() => applyCuts(el, [{ start: 0, end: request.startTime }, { start: end, end: duration }].filter((r) => r.end > r.start)));
    const reframe = { aspectRatio: request.aspectRatio, offsetX: request.reframe?.offsetX ?? 0, offsetY: request.reframe?.offsetY ?? 0, scale: request.reframe?.scale ?? 1 };
    const outputKey = StorageKeys.clip(row.id, clipId, jobId);
    const vttKey = StorageKeys.clipVtt(row.id, clipId, jobId);
    // the clip's own captions: the words whose middle is inside it, retimed to it
    const transcript = await this.transcripts.getByVideo(row.id);
    const clipWords = clampWords(transcript?.words ?? [], duration)
      .filter((w) => (w.start + w.end) / 2 >= request.startTime && (w.start + w.end) / 2 < end)
      .map((w) => ({ ...w, start: Math.max(0, w.start - request.startTime), end: Math.min(end, w.end) - request.startTime }));
    await this.storage.upload(vttKey, Buffer.from(wordsToVtt(clipWords, { languageCode: transcript?.languageCode })), { contentType: 'text/vtt' });
    await this.edits.claim(row.id, jobId, 'clip', userId, row.edit_version, el, clipEdit, null);
    await this.clips.create({ id: clipId, videoId: row.id, name: request.name, startTime: request.startTime, endTime: end, aspectRatio: request.aspectRatio, reframe, jobId, outputKey, vttKey });
    await this.renders.setClip(jobId, clipId);
    await this.edits.publishRequest(jobId, 'clip', {
      videoId: row.id,
      userId,
      inputKey: row.original_key!,
      outputKey,
      segments: clipEdit.segments.map((s) => ({ start: s.start, end: s.end })),
      volumes: [],
      captions: request.captions && clipWords.length > 0 ? clipWords.map((w) => ({ text: w.text, start: w.start, end: w.end })) : null,
      captionStyle: request.captions ? (el.captionStyle ?? DEFAULT_CAPTION_STYLE) : null,
      reframe,
      summary: `clip '${request.name}' ${request.aspectRatio}`,
    });
    return { id: clipId, jobId, name: request.name, aspectRatio: request.aspectRatio, status: 'pending' };
  }

  /** The clips of one of `userId`'s videos. */
  async listForVideo(videoId: string, userId: string): Promise<ClipRow[]> {
    await this.edits.ownedVideo(videoId, userId);
    return this.clips.listForVideo(videoId);
  }

  /** A clip of one of `userId`'s videos (anyone else's answers 404 like a missing one). */
  async owned(id: string, userId: string): Promise<ClipRow> {
    const clip = await this.clips.getOwned(id, userId);
    if (!clip) throw new AppError(404, ErrorCode.NotFound, `There is no clip with id '${id}'.`);
    return clip;
  }

  async delete(clip: ClipRow, userId: string): Promise<void> {
    if (clip.status === 'pending' || clip.status === 'processing') await this.edits.cancel(clip.job_id, userId).catch(() => undefined);
    await this.clips.delete(clip.id);
    await Promise.all([this.storage.delete(clip.output_key), this.storage.delete(clip.vtt_key)]).catch(() => undefined);
  }

  /** One of a clip's files: 404 when it is gone from storage. */
  async file(key: string): Promise<ObjectStream> {
    try {
      return await this.storage.getStream(key);
    } catch (err) {
      if (err instanceof ObjectNotFoundError) throw new AppError(404, ErrorCode.NotFound, 'The file is no longer available.');
      throw err;
    }
  }
}
