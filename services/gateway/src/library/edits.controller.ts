import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { GatewayTokens } from '../auth/gateway-tokens';
import { Caller, SignedMedia, type Identity } from '../auth/identity';
import { ErrorCode, JOB_ID_PREFIX, StorageKeys, Subjects, jobStatusSchema, type JobKind, type JobStatus, type ProcessingStatus } from '@wordcut/contracts';
import { applyCuts, applyMute, applyReorder, EditListError, outputDuration, withCaptions, type MuteLevel, type TimeRange } from '@wordcut/edit-list';
import { downloadFileName } from '@wordcut/editor-core';
import { AppError } from '@wordcut/platform';
import { ObjectNotFoundError } from '@wordcut/storage';
import { wordsToVtt } from '@wordcut/transcript';
import type { Response } from 'express';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { clampWords, currentEditList, EditService, type EditVideoRow } from './edits';
import type { ClipRow } from './clip-store';
import { LIBRARY_DEPS, type LibraryDeps } from './videos.controller';
import type { Readable } from 'node:stream';

export const EDIT_SERVICE = Symbol('EDIT_SERVICE');

const uuid = z.string().uuid();
const range = z.object({ start: z.number().finite().nonnegative(), end: z.number().finite().nonnegative() });
const cutsBody = z.object({ cuts: z.array(range).min(1, 'Select at least one range to cut.').max(5000) });
const fillerBody = z.object({ fillerWordIndices: z.array(z.number().int().nonnegative()).min(1, 'There are no filler words to remove.').max(50000) });
const silenceBody = z.object({ silenceRanges: z.array(range).min(1, "No silences to remove: Mark silences as 'Remove' before processing").max(5000) });
const muteBody = z.object({
  videoId: z.string(),
  pendingMutes: z
    .array(
      z.object({
        startTime: z.number().finite().nonnegative(),
        endTime: z.number().finite().nonnegative(),
        level: z.enum(['silence', 'whisper', 'background']).default('silence'),
        wordIndices: z.array(z.number().int()).optional(),
        text: z.string().optional(),
        id: z.string().optional(),
      }),
    )
    .min(1, 'There are no muted regions to process.')
    .max(5000),
});
const reorderBody = z
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
const clipBody = z.object({
  videoId: z.string(),
  name: z.string().trim().min(1, 'A clip needs a name.').max(200),
  startTime: z.number().finite().nonnegative(),
  endTime: z.number().finite().nonnegative(),
  aspectRatio: z.enum(['16:9', '9:16', '1:1', '4:5', '21:9', 'Original']).default('Original'),
  reframe: z
    .object({ offsetX: z.number().min(-100).max(100).default(0), offsetY: z.number().min(-100).max(100).default(0), scale: z.number().min(0.25).max(4).default(1) })
    .optional(),
});

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body ?? {});
  if (!r.success) {
    const first = r.error.issues[0];
    throw new AppError(400, ErrorCode.ValidationFailed, first ? `${first.path.length ? `${first.path.join('.')}: ` : ''}${first.message}` : 'Invalid request.', {
      issues: r.error.issues,
    });
  }
  return r.data;
}

function parseId(id: string, what = 'video'): string {
  if (!uuid.safeParse(id).success) throw new AppError(404, ErrorCode.NotFound, `There is no ${what} with id '${id.slice(0, 64)}'.`);
  return id;
}

/** Edit-list errors are the client's: 422 with the library's message. */
function editing<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof EditListError) throw new AppError(422, ErrorCode.ValidationFailed, err.message, { reason: err.code });
    throw err;
  }
}

/** Merges time ranges that touch or overlap (after sorting). */
function mergeRanges(ranges: readonly TimeRange[], gap = 0): TimeRange[] {
  const sorted = [...ranges].filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const out: TimeRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end + gap) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function toApiClip(r: ClipRow) {
  return {
    id: r.id,
    videoId: r.video_id,
    name: r.name,
    startTime: r.start_time,
    endTime: r.end_time,
    aspectRatio: r.aspect_ratio,
    reframe: r.reframe ?? null,
    status: r.status,
    jobId: r.job_id,
    outputPath: `/api/clips/${r.id}/download`,
    s3ClipKey: r.output_key,
    vttPath: `/api/clips/${r.id}/vtt`,
    s3VttKey: r.vtt_key,
    error: r.error,
    createdAt: r.created_at.toISOString(),
    providerUploadStatus: r.provider_upload_status ?? 'none',
    providerVideoId: r.provider_video_id ?? null,
  };
}

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, "'");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Edit jobs (seed 000 §7, seed 002 §7): apply cuts (also keep selection), remove filler words,
 * remove silences, mutes, reorder, burn captions and clips; their polling paths; the user's jobs
 * and cancel; revert to original. Each edit composes onto the video's edit list (libs/edit-list)
 * and a media worker renders the result from the original.
 */
@Controller('api')
export class EditsController {
  constructor(
    @Inject(LIBRARY_DEPS) private readonly d: LibraryDeps,
    @Inject(EDIT_SERVICE) private readonly edits: EditService,
    @Inject(GatewayTokens) private readonly tokens: GatewayTokens,
  ) {}

  private async render(row: EditVideoRow, kind: JobKind, userId: string, edit: (el: ReturnType<typeof currentEditList>) => ReturnType<typeof currentEditList>, summary: string) {
    const base = currentEditList(row);
    const next = editing(() => edit(base));
    const jobId = await this.edits.requestRender(row, kind, userId, base, next, summary);
    return { jobId, success: true, status: 'pending' as const };
  }

  @Post('videos/:id/apply-cuts')
  @HttpCode(202)
  async applyCuts(@Param('id') id: string, @Body() body: unknown, @Caller() caller: Identity) {
    const userId = caller.userId;
    const { cuts } = parse(cutsBody, body);
    const row = await this.edits.editableVideo(parseId(id), caller.userId);
    const ranges = mergeRanges(cuts);
    return this.render(row, 'cut', userId, (el) => applyCuts(el, ranges), `${plural(ranges.length, 'cut')}`);
  }

  @Post('videos/:id/remove-filler-words')
  @HttpCode(202)
  async removeFillers(@Param('id') id: string, @Body() body: unknown, @Caller() caller: Identity) {
    const userId = caller.userId;
    const { fillerWordIndices } = parse(fillerBody, body);
    const row = await this.edits.editableVideo(parseId(id), caller.userId);
    const transcript = await this.d.transcripts.getByVideo(row.id);
    if (!transcript) throw new AppError(409, ErrorCode.Conflict, 'The video has no transcript yet.');
    const bad = fillerWordIndices.find((i) => i >= transcript.words.length);
    if (bad !== undefined) throw new AppError(409, ErrorCode.OutdatedTranscript, `Word ${bad} does not exist: the transcript changed. Please reload.`);
    const words = clampWords(transcript.words, outputDuration(currentEditList(row)));
    const ranges = mergeRanges(fillerWordIndices.map((i) => ({ start: words[i]!.start, end: words[i]!.end })));
    if (ranges.length === 0) throw new AppError(422, ErrorCode.ValidationFailed, 'The filler words have no duration to remove.');
    return this.render(row, 'filler', userId, (el) => applyCuts(el, ranges), `${plural(fillerWordIndices.length, 'filler word')}`);
  }

  @Post('videos/:id/process-silence')
  @HttpCode(202)
  async processSilence(@Param('id') id: string, @Body() body: unknown, @Caller() caller: Identity) {
    const userId = caller.userId;
    const { silenceRanges } = parse(silenceBody, body);
    const row = await this.edits.editableVideo(parseId(id), caller.userId);
    const ranges = mergeRanges(silenceRanges);
    return this.render(row, 'silence', userId, (el) => applyCuts(el, ranges), `${plural(ranges.length, 'silence')}`);
  }

  @Post('mute/jobs')
  @HttpCode(202)
  async mute(@Body() body: unknown, @Caller() caller: Identity) {
    const userId = caller.userId;
    const { videoId, pendingMutes } = parse(muteBody, body);
    const row = await this.edits.editableVideo(parseId(videoId), caller.userId);
    const byLevel = new Map<MuteLevel, TimeRange[]>();
    for (const m of pendingMutes) {
      if (!(m.endTime > m.startTime)) throw new AppError(400, ErrorCode.ValidationFailed, 'A muted region must end after it starts.');
      byLevel.set(m.level, [...(byLevel.get(m.level) ?? []), { start: m.startTime, end: m.endTime }]);
    }
    return this.render(
      row,
      'mute',
      userId,
      (el) => [...byLevel].reduce((acc, [level, ranges]) => applyMute(acc, mergeRanges(ranges), level), el),
      `${plural(pendingMutes.length, 'muted region')}`,
    );
  }

  @Post('videos/:id/reorder')
  @HttpCode(202)
  async reorder(@Param('id') id: string, @Body() body: unknown, @Caller() caller: Identity, @Headers('if-match') ifMatch: string | undefined) {
    const userId = caller.userId;
    const b = parse(reorderBody, body);
    const row = await this.edits.editableVideo(parseId(id), caller.userId);
    const transcript = await this.d.transcripts.getByVideo(row.id);
    if (!transcript) throw new AppError(409, ErrorCode.Conflict, 'The video has no transcript yet.');
    const outdated = () => new AppError(409, ErrorCode.OutdatedTranscript, 'The transcript changed since it was loaded. Please refresh the page and reorder again.');
    const expected = b.transcriptVersion ?? (ifMatch ? Number(ifMatch.replace(/[^0-9]/g, '')) : undefined);
    if (expected !== undefined && expected !== transcript.version) throw outdated();
    const duration = outputDuration(currentEditList(row));
    const words = clampWords(transcript.words, duration);
    let order: TimeRange[];
    if (b.groupOrder) {
      const groups = transcript.paragraphs.map((p) => p.groupNumber);
      const same = groups.length === b.groupOrder.length && [...b.groupOrder].sort((x, y) => x - y).join() === [...groups].sort((x, y) => (x ?? 0) - (y ?? 0)).join();
      if (!same) throw outdated();
      const byGroup = new Map(transcript.paragraphs.map((p) => [p.groupNumber, p]));
      order = b.groupOrder.map((g) => {
        const p = byGroup.get(g)!;
        return { start: words[p.wordIndices[0]!]!.start, end: words[p.wordIndices[p.wordIndices.length - 1]!]!.end };
      });
    } else {
      order = b.spec!.segments.map((s) => {
        if (s.wordIndices && s.wordIndices.length > 0) {
          const first = words[s.wordIndices[0]!];
          const last = words[s.wordIndices[s.wordIndices.length - 1]!];
          if (!first || !last || Math.abs(first.start - s.start) > 0.05 || Math.abs(last.end - s.end) > 0.05) throw outdated();
        }
        return { start: Math.max(0, s.start), end: Math.min(duration, s.end) };
      });
    }
    const unchanged = order.every((r, i) => i === 0 || r.start >= order[i - 1]!.start);
    if (unchanged) throw new AppError(422, ErrorCode.ValidationFailed, 'No changes detected');
    return this.render(row, 'reorder', userId, (el) => applyReorder(el, order), `${plural(order.length, 'segment')} reordered`);
  }

  @Post('videos/:id/burn-captions')
  @HttpCode(202)
  async burnCaptions(@Param('id') id: string, @Caller() caller: Identity) {
    const userId = caller.userId;
    const row = await this.edits.editableVideo(parseId(id), caller.userId);
    const transcript = await this.d.transcripts.getByVideo(row.id);
    if (!transcript || transcript.words.length === 0) throw new AppError(422, ErrorCode.ValidationFailed, 'There is no transcript to burn in as captions.');
    return this.render(row, 'caption', userId, (el) => withCaptions(el, true), 'burn captions');
  }

  @Post('videos/:id/revert')
  @HttpCode(200)
  async revert(@Param('id') id: string, @Caller() caller: Identity) {
    await this.edits.revertToOriginal(parseId(id), caller.userId);
    return { success: true };
  }

  /** A job of the caller's (anyone else's answers 404 like a missing one). */
  private async poll(jobId: string, kinds: readonly JobKind[], caller: Identity): Promise<JobStatus> {
    if (!/^[a-z]+_[0-9a-f-]{36}$/.test(jobId) || !kinds.some((k) => jobId.startsWith(JOB_ID_PREFIX[k]))) {
      throw new AppError(404, ErrorCode.NotFound, `There is no job with id '${jobId.slice(0, 80)}'.`);
    }
    const job = await this.edits.jobStatus(jobId).catch((err: unknown) => {
      this.d.logger.warn({ err, jobId }, 'job status request failed');
      throw new AppError(503, ErrorCode.ServiceUnavailable, 'Job status is unavailable right now. Please try again.');
    });
    if (!job || job.userId !== caller.userId) throw new AppError(404, ErrorCode.NotFound, `There is no job with id '${jobId.slice(0, 80)}'.`);
    return job;
  }

  /** Video-processing jobs (apply cuts, filler removal, keep): status idle/processing/completed/error. */
  @Get('video-processing/jobs/:jobId')
  async videoProcessingJob(@Param('jobId') jobId: string, @Caller() caller: Identity) {
    return this.poll(jobId, ['cut', 'filler'], caller);
  }

  @Get('caption-jobs/:jobId')
  async captionJob(@Param('jobId') jobId: string, @Caller() caller: Identity) {
    return this.poll(jobId, ['caption'], caller);
  }

  @Get('silence-jobs/:jobId')
  async silenceJob(@Param('jobId') jobId: string, @Caller() caller: Identity) {
    return this.poll(jobId, ['silence'], caller);
  }

  @Get('jobs/user-jobs')
  async userJobs(@Caller() caller: Identity) {
    const userId = caller.userId;
    const jobs = await this.d.bus
      .request(Subjects.rpcJobList, { userId, limit: 50 }, z.array(jobStatusSchema))
      .catch((err: unknown) => {
        this.d.logger.warn({ err }, 'job list request failed');
        throw new AppError(503, ErrorCode.ServiceUnavailable, 'Failed to fetch jobs');
      });
    return { jobs, success: true };
  }

  @Post('jobs/:jobId/cancel')
  @HttpCode(200)
  async cancel(@Param('jobId') jobId: string, @Caller() caller: Identity) {
    const userId = caller.userId;
    const reply = await this.edits.cancel(jobId, userId).catch((err: unknown) => {
      this.d.logger.warn({ err, jobId }, 'cancel request failed');
      throw new AppError(503, ErrorCode.ServiceUnavailable, 'Failed to cancel job');
    });
    if (reply.ok) return { success: true, jobId, status: 'cancelled' as ProcessingStatus };
    // someone else's job is as unknown to the caller as a missing one
    if (reply.reason === 'not_found' || reply.reason === 'forbidden') throw new AppError(404, ErrorCode.NotFound, `There is no job with id '${jobId.slice(0, 80)}'.`);
    throw new AppError(409, ErrorCode.Conflict, `The job has already finished (${reply.status ?? 'unknown'}).`, { status: reply.status });
  }

  // ---- clips ----

  @Post('clips')
  @HttpCode(202)
  async createClip(@Body() body: unknown, @Caller() caller: Identity) {
    const userId = caller.userId;
    const b = parse(clipBody, body);
    if (!(b.endTime > b.startTime)) throw new AppError(400, ErrorCode.ValidationFailed, 'A clip must end after it starts.');
    const row = await this.edits.editableVideo(parseId(b.videoId), caller.userId);
    const el = currentEditList(row);
    const duration = outputDuration(el);
    if (b.startTime >= duration) throw new AppError(422, ErrorCode.ValidationFailed, 'The clip starts after the end of the video.');
    const end = Math.min(b.endTime, duration);
    const clipId = randomUUID();
    const jobId = `${JOB_ID_PREFIX.clip}${randomUUID()}`;
    const clipEdit = editing(() => applyCuts(el, [{ start: 0, end: b.startTime }, { start: end, end: duration }].filter((r) => r.end > r.start)));
    const reframe = { aspectRatio: b.aspectRatio, offsetX: b.reframe?.offsetX ?? 0, offsetY: b.reframe?.offsetY ?? 0, scale: b.reframe?.scale ?? 1 };
    const outputKey = StorageKeys.clip(row.id, clipId, jobId);
    const vttKey = StorageKeys.clipVtt(row.id, clipId, jobId);
    // The clip's own captions, retimed to the clip.
    const transcript = await this.d.transcripts.getByVideo(row.id);
    const clipWords = clampWords(transcript?.words ?? [], duration)
      .filter((w) => (w.start + w.end) / 2 >= b.startTime && (w.start + w.end) / 2 < end)
      .map((w) => ({ ...w, start: Math.max(0, w.start - b.startTime), end: Math.min(end, w.end) - b.startTime }));
    await this.d.storage.upload(vttKey, Buffer.from(wordsToVtt(clipWords, { languageCode: transcript?.languageCode })), { contentType: 'text/vtt' });
    await this.edits.claim(row.id, jobId, 'clip', userId, row.edit_version, el, clipEdit, null);
    await this.d.clips.create({ id: clipId, videoId: row.id, name: b.name, startTime: b.startTime, endTime: end, aspectRatio: b.aspectRatio, reframe, jobId, outputKey, vttKey });
    await this.d.renders.setClip(jobId, clipId);
    await this.edits.publishRequest(jobId, 'clip', {
      videoId: row.id,
      userId,
      inputKey: row.original_key!,
      outputKey,
      segments: clipEdit.segments.map((s) => ({ start: s.start, end: s.end })),
      volumes: [],
      captions: null,
      reframe,
      summary: `clip '${b.name}' ${b.aspectRatio}`,
    });
    return { id: clipId, jobId, name: b.name, aspectRatio: b.aspectRatio, status: 'pending' };
  }

  @Get('videos/:id/clips')
  async listClips(@Param('id') id: string, @Caller() caller: Identity) {
    await this.edits.ownedVideo(parseId(id), caller.userId);
    const rows = await this.d.clips.listForVideo(parseId(id));
    // download links are signed for the caller: a link cannot send a bearer header
    return Promise.all(
      rows.map(async (r) => {
        const clip = toApiClip(r);
        const [outputPath, vttPath] = await Promise.all([this.tokens.signMediaPath(clip.outputPath, caller.userId), this.tokens.signMediaPath(clip.vttPath, caller.userId)]);
        return { ...clip, outputPath, vttPath };
      }),
    );
  }

  /** A clip of one of the caller's videos (anyone else's answers 404 like a missing one). */
  private async clip(id: string, caller: Identity): Promise<ClipRow> {
    const clip = await this.d.clips.getOwned(parseId(id, 'clip'), caller.userId);
    if (!clip) throw new AppError(404, ErrorCode.NotFound, `There is no clip with id '${id}'.`);
    return clip;
  }

  @Delete('clips/:id')
  async deleteClip(@Param('id') id: string, @Caller() caller: Identity) {
    const c = await this.clip(id, caller);
    if (c.status === 'pending' || c.status === 'processing') await this.edits.cancel(c.job_id, caller.userId).catch(() => undefined);
    await this.d.clips.delete(c.id);
    await Promise.all([this.d.storage.delete(c.output_key), this.d.storage.delete(c.vtt_key)]).catch(() => undefined);
    return { success: true };
  }

  @Get('clips/:id/download')
  @SignedMedia()
  async downloadClip(@Param('id') id: string, @Caller() caller: Identity, @Res() res: Response) {
    const c = await this.clip(id, caller);
    if (c.status !== 'completed') throw new AppError(409, ErrorCode.Conflict, 'The clip is not ready yet.');
    await this.send(res, c.output_key, 'video/mp4', downloadFileName(c.name, 'mp4'));
  }

  @Get('clips/:id/vtt')
  @SignedMedia()
  async clipVtt(@Param('id') id: string, @Caller() caller: Identity, @Res() res: Response) {
    const c = await this.clip(id, caller);
    await this.send(res, c.vtt_key, 'text/vtt; charset=utf-8', downloadFileName(c.name, 'vtt'));
  }

  private async send(res: Response, key: string, type: string, filename: string): Promise<void> {
    let obj;
    try {
      obj = await this.d.storage.getStream(key);
    } catch (err) {
      if (err instanceof ObjectNotFoundError) throw new AppError(404, ErrorCode.NotFound, 'The file is no longer available.');
      throw err;
    }
    res.status(200);
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Length', String(obj.contentLength));
    res.setHeader('Content-Disposition', contentDisposition(filename));
    await pipeline(obj.body as Readable, res);
  }
}
