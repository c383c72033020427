import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  ErrorCode,
  applyCutsRequestSchema,
  burnCaptionsRequestSchema,
  muteJobRequestSchema,
  processSilenceRequestSchema,
  removeFillersRequestSchema,
  reorderRequestSchema,
  restoreVersionRequestSchema,
  jobKindSchema,
  editExportFormatSchema,
  type JobKind,
  type JobStatus,
} from '@wordcut/contracts';
import { AppError } from '@wordcut/platform';
import { z } from 'zod';
import { Caller, type Identity } from '../auth/identity';
import { contentDisposition, parseBody, parseId, parseSeq } from '../http';
import { TimelineExports } from './timeline-export';
import { TranscriptReplacement } from './transcript-replace';
import { EditRequestService } from './edit-requests.service';
import { EditService } from './edits.service';

/**
 * Edit jobs: apply cuts (also keep selection), remove filler words, remove silences, mutes,
 * reorder and burn captions; their polling paths; revert to original. Each edit is checked and
 * composed by EditRequestService and rendered by a media worker from the original.
 */
@Controller('api')
export class EditsController {
  constructor(
    @Inject(EditService) private readonly edits: EditService,
    @Inject(EditRequestService) private readonly requests: EditRequestService,
    @Inject(TimelineExports) private readonly exports: TimelineExports,
    @Inject(TranscriptReplacement) private readonly replacement: TranscriptReplacement,
  ) {}

  /** 'Replace transcript': a caption file (multipart field `vtt`, any format the upload takes) timed against the original recording. */
  @Post('videos/:id/transcript/replace')
  @HttpCode(200)
  async replaceTranscript(@Param('id') id: string, @Req() req: Request, @Caller() caller: Identity) {
    return this.replacement.replace(parseId(id), caller.userId, req);
  }

  /** The current version for other applications (OTIO, FCPXML, EDL, MLT) or its captions and words (SRT, WebVTT, JSON). */
  @Get('videos/:id/export/:format')
  async exportEdit(@Param('id') id: string, @Param('format') format: string, @Caller() caller: Identity, @Res() res: Response): Promise<void> {
    const parsed = editExportFormatSchema.safeParse(format);
    if (!parsed.success) throw new AppError(404, ErrorCode.NotFound, `There is no export format '${format.slice(0, 32)}'. Use one of ${editExportFormatSchema.options.join(', ')}.`);
    const file = await this.exports.export(parseId(id), caller.userId, parsed.data);
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Disposition', contentDisposition(file.fileName));
    res.setHeader('Cache-Control', 'private, no-cache');
    res.status(200).send(file.body);
  }

  @Post('videos/:id/apply-cuts')
  @HttpCode(202)
  async applyCuts(@Param('id') id: string, @Body() body: unknown, @Caller() caller: Identity) {
    const { cuts } = parseBody(applyCutsRequestSchema, body);
    return this.requests.applyCuts(parseId(id), caller.userId, cuts);
  }

  @Post('videos/:id/remove-filler-words')
  @HttpCode(202)
  async removeFillers(@Param('id') id: string, @Body() body: unknown, @Caller() caller: Identity) {
    const { fillerWordIndices } = parseBody(removeFillersRequestSchema, body);
    return this.requests.removeFillers(parseId(id), caller.userId, fillerWordIndices);
  }

  @Post('videos/:id/process-silence')
  @HttpCode(202)
  async processSilence(@Param('id') id: string, @Body() body: unknown, @Caller() caller: Identity) {
    const { silenceRanges } = parseBody(processSilenceRequestSchema, body);
    return this.requests.removeSilences(parseId(id), caller.userId, silenceRanges);
  }

  @Post('mute/jobs')
  @HttpCode(202)
  async mute(@Body() body: unknown, @Caller() caller: Identity) {
    const { videoId, pendingMutes } = parseBody(muteJobRequestSchema, body);
    return this.requests.mute(parseId(videoId), caller.userId, pendingMutes);
  }

  @Post('videos/:id/reorder')
  @HttpCode(202)
  async reorder(@Param('id') id: string, @Body() body: unknown, @Caller() caller: Identity, @Headers('if-match') ifMatch: string | undefined) {
    const request = parseBody(reorderRequestSchema, body);
    return this.requests.reorder(parseId(id), caller.userId, request, ifMatch);
  }

  @Post('videos/:id/burn-captions')
  @HttpCode(202)
  async burnCaptions(@Param('id') id: string, @Body() body: unknown, @Caller() caller: Identity) {
    return this.requests.burnCaptions(parseId(id), caller.userId, parseBody(burnCaptionsRequestSchema, body ?? {}));
  }

  @Post('videos/:id/revert')
  @HttpCode(200)
  async revert(@Param('id') id: string, @Caller() caller: Identity) {
    const version = await this.edits.revertToOriginal(parseId(id), caller.userId);
    return { success: true, version };
  }

  /** Undo and redo across processing: an edit version of the video becomes the one shown. */
  @Post('videos/:id/versions/:seq/restore')
  @HttpCode(200)
  async restore(@Param('id') id: string, @Param('seq') seq: string, @Body() body: unknown, @Caller() caller: Identity) {
    const { expectedVersion } = parseBody(restoreVersionRequestSchema, body ?? {});
    const version = await this.edits.restoreVersion(parseId(id), caller.userId, parseSeq(seq), expectedVersion ?? null);
    return { success: true, version };
  }

  /** How long a job of a kind on this video will likely take (recent jobs of its kind and size), or nothing. */
  @Get('videos/:id/job-estimate')
  async jobEstimate(@Param('id') id: string, @Query('kind') kind: unknown, @Caller() caller: Identity) {
    const { kind: parsed } = parseBody(z.object({ kind: jobKindSchema }), { kind });
    return this.edits.jobEstimate(parseId(id), caller.userId, parsed);
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
