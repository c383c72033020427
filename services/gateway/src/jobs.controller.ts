import { Controller, Get, Headers, HttpCode, Inject, Optional, Param, Post, Req, Res } from '@nestjs/common';
import {
  toFailedVocabulary,
  ErrorCode,
  JOB_ID_PREFIX,
  jobIdSchema,
  jobStatusSchema,
  PROBE_UPLOAD_FIELD,
  Subjects,
  jobRequestedSubject,
  type JobAccepted,
  type JobRequestedEvent,
  type JobStatus,
  EXPORT_JOB_PREFIX,
  type ExportJobStatus,
  type ProcessingStatus,
  JOB_KINDS,
  jobKindFromId,
} from '@wordcut/contracts';
import type { Messaging } from '@wordcut/messaging';
import { AppError, type Logger } from '@wordcut/platform';
import type { ObjectStorage } from '@wordcut/storage';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { GatewayConfig } from './config';
import { receiveSingleFile } from './upload';
import { PublishingService } from './publishing/publishing';
import { bearerToken } from '@wordcut/provider';
import { limitAddress } from './auth/client-address';
import { Caller, type Identity } from './auth/identity';
import { EditService } from './edits/edits.service';
import { RateLimitStore } from './limits/limits';
import { GATEWAY_CONFIG, LOGGER, MESSAGING, OBJECT_STORAGE } from './injection';

/**
 * Jobs as the person sees them: probe uploads, any job's status, the list of their jobs and
 * cancel. Every answer is about the caller's own jobs; anyone else's is not found.
 */
@Controller('api')
export class JobsController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(MESSAGING) private readonly bus: Messaging,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(RateLimitStore) private readonly rateLimits: RateLimitStore,
    @Inject(EditService) private readonly edits: EditService,
    @Optional() @Inject(PublishingService) private readonly publishing?: PublishingService,
  ) {}

  /** Store an uploaded file, ask for a probe job, answer 202 with its id (an upload: only where uploads are on). */
  @Post('probe-jobs')
  @HttpCode(202)
  async createProbeJob(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Caller() caller: Identity): Promise<JobAccepted> {
    if (!this.config.LEGACY_UPLOAD_ENABLED) throw new AppError(403, ErrorCode.Forbidden, 'Uploading is disabled here: open your video from the provider instead.');
    const tooMany = 'You have uploaded too many files in the last hour. Please try again later.';
    await this.rateLimits.hit(`upload:user:${caller.userId}`, this.config.UPLOADS_PER_HOUR_PER_USER, 3600, tooMany);
    await this.rateLimits.hit(`upload:ip:${limitAddress(req.ip)}`, this.config.UPLOADS_PER_HOUR_PER_IP, 3600, tooMany);
    const id = randomUUID();
    const jobId = `${JOB_ID_PREFIX.probe}${id}`;
    const key = `uploads/probe/${id}`;
    const file = await receiveSingleFile(req, this.storage, { field: PROBE_UPLOAD_FIELD, key, maxBytes: this.config.UPLOAD_MAX_BYTES }).catch(
      (err: unknown) => {
        if (err instanceof AppError && err.statusCode === 413) res.setHeader('Connection', 'close');
        throw err;
      },
    );
    const event: JobRequestedEvent = {
      jobId,
      kind: 'probe',
      input: { objectKey: file.key, originalName: file.originalName, sizeBytes: file.sizeBytes, userId: caller.userId },
      requestedAt: new Date().toISOString(),
    };
    try {
      await this.bus.publish(jobRequestedSubject(jobId), event, { msgId: jobId });
    } catch (err) {
      await this.storage.delete(key).catch(() => undefined);
      this.logger.error({ err }, 'could not publish job request');
      throw new AppError(503, ErrorCode.ServiceUnavailable, 'The job queue is unavailable. Please try again in a moment.');
    }
    this.logger.info({ jobId, sizeBytes: file.sizeBytes }, 'probe job requested');
    res.setHeader('Location', `/api/jobs/${jobId}/status`);
    return { jobId };
  }

  @Get('jobs/:jobId/status')
  async status(@Param('jobId') jobId: string, @Caller() caller: Identity, @Headers('authorization') auth?: string): Promise<(Omit<JobStatus, 'status'> & { status: string }) | ExportJobStatus> {
    // export jobs live in the export service and are read with the session token
    if (jobId.startsWith(EXPORT_JOB_PREFIX) && this.publishing) return this.publishing.exportStatus(bearerToken(auth), jobId);
    if (!jobIdSchema.safeParse(jobId).success) throw new AppError(400, ErrorCode.ValidationFailed, 'That is not a job id.');
    let job: JobStatus | null;
    try {
      job = await this.bus.request(Subjects.rpcJobGet, { jobId }, jobStatusSchema.nullable(), this.config.RPC_TIMEOUT_MS);
    } catch (err) {
      this.logger.error({ err, jobId }, 'job query failed');
      throw new AppError(503, ErrorCode.ServiceUnavailable, 'Job status is unavailable right now. Please try again.');
    }
    // someone else's job is as unknown to the caller as a missing one
    if (!job || job.userId !== caller.userId) throw new AppError(404, ErrorCode.NotFound, `Job ${jobId} was not found.`);
    // Mute, reorder (and later export) jobs polled here end as 'failed'; probe jobs keep 'error'.
    return job.kind === 'probe' ? job : { ...job, status: toFailedVocabulary(job.status) };
  }

  @Get('jobs/user-jobs')
  async userJobs(@Caller() caller: Identity) {
    const userId = caller.userId;
    const jobs = await this.bus
      .request(Subjects.rpcJobList, { userId, limit: 50 }, z.array(jobStatusSchema))
      .catch((err: unknown) => {
        this.logger.warn({ err }, 'job list request failed');
        throw new AppError(503, ErrorCode.ServiceUnavailable, 'Failed to fetch jobs');
      });
    return { jobs, success: true };
  }

  /**
   * Any job of the caller's by its id, in the words of its kind's status path (the job-kind
   * registry); the seed's paths (video-processing, caption, silence, jobs/:id/status) stay as
   * aliases. Declared after jobs/user-jobs, which it would otherwise match.
   */
  @Get('jobs/:jobId')
  async job(@Param('jobId') jobId: string, @Caller() caller: Identity, @Headers('authorization') auth?: string) {
    const kind = jobKindFromId(jobId);
    if (kind && JOB_KINDS[kind].statusRoute !== 'jobs') return this.edits.ownedJob(jobId, [kind], caller.userId);
    return this.status(jobId, caller, auth);
  }

  @Post('jobs/:jobId/cancel')
  @HttpCode(200)
  async cancel(@Param('jobId') jobId: string, @Caller() caller: Identity) {
    const userId = caller.userId;
    const reply = await this.edits.cancel(jobId, userId).catch((err: unknown) => {
      this.logger.warn({ err, jobId }, 'cancel request failed');
      throw new AppError(503, ErrorCode.ServiceUnavailable, 'Failed to cancel job');
    });
    if (reply.ok) return { success: true, jobId, status: 'cancelled' as ProcessingStatus };
    // someone else's job is as unknown to the caller as a missing one
    if (reply.reason === 'not_found' || reply.reason === 'forbidden') throw new AppError(404, ErrorCode.NotFound, `There is no job with id '${jobId.slice(0, 80)}'.`);
    throw new AppError(409, ErrorCode.Conflict, `The job has already finished (${reply.status ?? 'unknown'}).`, { status: reply.status });
  }
}
