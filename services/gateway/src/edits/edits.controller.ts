import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post } from '@nestjs/common';
import {
  applyCutsRequestSchema,
  ErrorCode,
  muteJobRequestSchema,
  processSilenceRequestSchema,
  removeFillersRequestSchema,
  reorderRequestSchema,
  type JobKind,
  type JobStatus,
} from '@wordcut/contracts';
import { applyCuts, applyMute, applyReorder, mergeRanges, outputDuration, withCaptions, type MuteLevel, type TimeRange } from '@wordcut/edit-list';
import { AppError } from '@wordcut/platform';
import { clampWords } from '@wordcut/transcript';
import { Caller, type Identity } from '../auth/identity';
import { editing, parseBody, parseId } from '../http';
import { currentEditList, EditService, type EditVideoRow } from './edits.service';
import { reorderRanges } from './reorder';
import { SilenceService } from '../silence/silence.service';
import { TranscriptStore } from '../transcripts/transcript-store';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Edit jobs: apply cuts (also keep selection), remove filler words, remove silences, mutes,
 * reorder and burn captions; their polling paths; the user's jobs and cancel; revert to original.
 * Each edit composes onto the video's edit list (libs/edit-list) and a media worker renders the
 * result from the original.
 */
@Controller('api')
export class EditsController {
  constructor(
    @Inject(TranscriptStore) private readonly transcripts: TranscriptStore,
    @Inject(EditService) private readonly edits: EditService,
    @Inject(SilenceService) private readonly silence: SilenceService,
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
    const { cuts } = parseBody(applyCutsRequestSchema, body);
    const row = await this.edits.editableVideo(parseId(id), caller.userId);
    const ranges = mergeRanges(cuts.filter((r) => r.end > r.start));
    return this.render(row, 'cut', userId, (el) => applyCuts(el, ranges), `${plural(ranges.length, 'cut')}`);
  }

  @Post('videos/:id/remove-filler-words')
  @HttpCode(202)
  async removeFillers(@Param('id') id: string, @Body() body: unknown, @Caller() caller: Identity) {
    const userId = caller.userId;
    const { fillerWordIndices } = parseBody(removeFillersRequestSchema, body);
    const row = await this.edits.editableVideo(parseId(id), caller.userId);
    const transcript = await this.transcripts.getByVideo(row.id);
    if (!transcript) throw new AppError(409, ErrorCode.Conflict, 'The video has no transcript yet.');
    const bad = fillerWordIndices.find((i) => i >= transcript.words.length);
    if (bad !== undefined) throw new AppError(409, ErrorCode.OutdatedTranscript, `Word ${bad} does not exist: the transcript changed. Please reload.`);
    const words = clampWords(transcript.words, outputDuration(currentEditList(row)));
    const ranges = mergeRanges(fillerWordIndices.map((i) => ({ start: words[i]!.start, end: words[i]!.end })).filter((r) => r.end > r.start));
    if (ranges.length === 0) throw new AppError(422, ErrorCode.ValidationFailed, 'The filler words have no duration to remove.');
    return this.render(row, 'filler', userId, (el) => applyCuts(el, ranges), `${plural(fillerWordIndices.length, 'filler word')}`);
  }

  @Post('videos/:id/process-silence')
  @HttpCode(202)
  async processSilence(@Param('id') id: string, @Body() body: unknown, @Caller() caller: Identity) {
    const userId = caller.userId;
    const { silenceRanges } = parseBody(processSilenceRequestSchema, body);
    const row = await this.edits.editableVideo(parseId(id), caller.userId);
    // cut edges land inside each pause, keeping a little of its silence next to speech
    const ranges = this.silence.removalRanges(row, mergeRanges(silenceRanges.filter((r) => r.end > r.start)));
    return this.render(row, 'silence', userId, (el) => applyCuts(el, ranges), `${plural(ranges.length, 'silence')}`);
  }

  @Post('mute/jobs')
  @HttpCode(202)
  async mute(@Body() body: unknown, @Caller() caller: Identity) {
    const userId = caller.userId;
    const { videoId, pendingMutes } = parseBody(muteJobRequestSchema, body);
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
      (el) => [...byLevel].reduce((acc, [level, ranges]) => applyMute(acc, mergeRanges(ranges.filter((r) => r.end > r.start)), level), el),
      `${plural(pendingMutes.length, 'muted region')}`,
    );
  }

  @Post('videos/:id/reorder')
  @HttpCode(202)
  async reorder(@Param('id') id: string, @Body() body: unknown, @Caller() caller: Identity, @Headers('if-match') ifMatch: string | undefined) {
    const userId = caller.userId;
    const b = parseBody(reorderRequestSchema, body);
    const row = await this.edits.editableVideo(parseId(id), caller.userId);
    const transcript = await this.transcripts.getByVideo(row.id);
    if (!transcript) throw new AppError(409, ErrorCode.Conflict, 'The video has no transcript yet.');
    const duration = outputDuration(currentEditList(row));
    const order = reorderRanges(b, ifMatch, transcript, clampWords(transcript.words, duration), duration);
    return this.render(row, 'reorder', userId, (el) => applyReorder(el, order), `${plural(order.length, 'segment')} reordered`);
  }

  @Post('videos/:id/burn-captions')
  @HttpCode(202)
  async burnCaptions(@Param('id') id: string, @Caller() caller: Identity) {
    const userId = caller.userId;
    const row = await this.edits.editableVideo(parseId(id), caller.userId);
    const transcript = await this.transcripts.getByVideo(row.id);
    if (!transcript || transcript.words.length === 0) throw new AppError(422, ErrorCode.ValidationFailed, 'There is no transcript to burn in as captions.');
    return this.render(row, 'caption', userId, (el) => withCaptions(el, true), 'burn captions');
  }

  @Post('videos/:id/revert')
  @HttpCode(200)
  async revert(@Param('id') id: string, @Caller() caller: Identity) {
    await this.edits.revertToOriginal(parseId(id), caller.userId);
    return { success: true };
  }

  /** A job of the caller's of `kinds` (anyone else's answers 404 like a missing one). */
  private poll(jobId: string, kinds: readonly JobKind[], caller: Identity): Promise<JobStatus> {
    return this.edits.ownedJob(jobId, kinds, caller.userId);
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
}
