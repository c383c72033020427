import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ErrorCode, type IngestSource, type ProviderSessionResponse } from '@wordcut/contracts';
import { AppError, type Logger } from '@wordcut/platform';
import { randomUUID } from 'node:crypto';
import { Caller, type Identity } from '../auth/identity';
import { IngestCoordinator } from './ingest';
import { ActiveJobs } from '../limits/limits';
import type { GatewayConfig } from '../config';
import { GATEWAY_CONFIG, LOGGER } from '../injection';
import { VideoStore } from './video-store';

/**
 * POST /api/provider/sessions: the browser arrives from the provider with a
 * session token; we verify it (signature with the provider's configured key, algorithm
 * allow-list, issuer, audience, expiry), then open the session's video: the first entry
 * creates it and starts importing the media the token names, any later entry with the same
 * session gets the same video. The session's video is found by id and owner: someone else's
 * answers 404 like a missing one.
 */
/** Another person's session, said as if it did not exist. */
export const SESSION_NOT_FOUND = 'This session has no video in WordCut.';

@Controller('api/provider')
export class ProviderSessionsController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(VideoStore) private readonly videos: VideoStore,
    @Inject(IngestCoordinator) private readonly ingest: IngestCoordinator,
    @Inject(ActiveJobs) private readonly activeJobs: ActiveJobs,
  ) {}

  /** The identity guard has verified the provider's token; a WordCut session cannot open a provider video. */
  @Post('sessions')
  @HttpCode(200)
  async open(@Caller() caller: Identity): Promise<ProviderSessionResponse> {
    const claims = caller.provider;
    if (!claims) throw new AppError(401, ErrorCode.Unauthorized, 'Authentication required: send the session token from the provider as a bearer token.');
    const existing = await this.videos.getBySession(claims.sessionId, caller.userId);
    if (existing) return { success: true, video: { id: existing.id, title: existing.title }, existing: true };

    const videoUrl = claims.media?.videoUrl;
    if (!videoUrl) throw new AppError(422, ErrorCode.ValidationFailed, 'The session names no video to import (media.videoUrl is missing).');
    if (!claims.media?.vttUrl && !claims.media?.wordBywordUrl) {
      throw new AppError(422, ErrorCode.ValidationFailed, 'The session names no captions to build the transcript from (media.vttUrl or media.wordBywordUrl).');
    }
    const source: IngestSource = { kind: 'provider', videoUrl, vttUrl: claims.media.vttUrl, wordBywordUrl: claims.media.wordBywordUrl };
    const jobId = IngestCoordinator.newJobId();
    const title = claims.title?.trim() || `Video ${claims.videoId}`;
    const opened = await this.videos.createForSession({
      id: randomUUID(),
      title,
      originalName: title,
      filename: `${claims.videoId}.mp4`,
      languageCode: claims.languageCode ?? this.config.DEFAULT_LANGUAGE,
      ingestJobId: jobId,
      ingestSource: source,
      ownerId: caller.userId,
      providerSessionId: claims.sessionId,
      providerVideoId: claims.videoId,
      providerIsClone: claims.isClone ?? false,
    }, this.activeJobs);
    if (!opened) throw new AppError(404, ErrorCode.NotFound, SESSION_NOT_FOUND);
    const { video, created } = opened;
    if (created) {
      try {
        await this.ingest.request(jobId, video.id, source, claims.languageCode);
      } catch (err) {
        await this.videos.delete(video.id).catch(() => undefined);
        throw err;
      }
      this.logger.info({ videoId: video.id, sessionId: claims.sessionId, jobId }, 'provider session opened');
    }
    return { success: true, video: { id: video.id, title: video.title }, existing: !created };
  }
}
