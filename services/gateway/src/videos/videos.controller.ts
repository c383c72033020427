import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ErrorCode, videoPatchSchema, WAVEFORM_DEFAULT_POINTS, type Video, type VttStatus, type Waveform } from '@wordcut/contracts';
import { AppError, type Logger } from '@wordcut/platform';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { Caller, Public, SignedMedia, type Identity } from '../auth/identity';
import type { GatewayConfig } from '../config';
import { GATEWAY_CONFIG, LOGGER } from '../injection';
import { parseId } from '../http';
import { decideRange, etagMatches } from './http-range';
import { toApiVideo } from './video-api';
import { VideosService } from './videos.service';

/** Videos in (upload), their lifecycle, waveform and media stream. */
@Controller('api')
export class VideosController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(VideosService) private readonly videos: VideosService,
  ) {}

  /** Public: the upload page asks before anyone has a session. */
  @Public()
  @Get('vtt/status')
  vttStatus(): VttStatus {
    return this.videos.vttStatus();
  }

  /** POST /api/videos/upload (multipart: `video` MP4 + `vtt` WebVTT). */
  @Post('videos/upload')
  @HttpCode(201)
  async upload(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Caller() caller: Identity): Promise<Video> {
    const row = await this.videos.upload(req, caller.userId, req.ip).catch((err: unknown) => {
      // the client may still be sending a huge body: close rather than read it all
      if (err instanceof AppError && err.statusCode === 413) res.setHeader('Connection', 'close');
      throw err;
    });
    res.setHeader('Location', `/api/videos/${row.id}`);
    return toApiVideo(row);
  }

  /** The video, with a stream URL signed for its owner. */
  @Get('videos/:id')
  async get(@Param('id') id: string, @Caller() caller: Identity): Promise<Video> {
    const { row, streamUrl, subtitlesUrl } = await this.videos.view(parseId(id), caller.userId);
    return { ...toApiVideo(row), streamUrl, subtitlesUrl };
  }

  @Patch('videos/:id')
  async patch(@Param('id') id: string, @Body() body: unknown, @Caller() caller: Identity): Promise<Video> {
    const p = videoPatchSchema.safeParse(body ?? {});
    if (!p.success) throw new AppError(400, ErrorCode.ValidationFailed, p.error.issues.map((i) => i.message).join('; '));
    return toApiVideo(await this.videos.patch(parseId(id), caller.userId, p.data));
  }

  /** Retries a failed transcript build with the same inputs. */
  @Post('videos/:id/transcribe')
  @HttpCode(202)
  async transcribe(@Param('id') id: string, @Caller() caller: Identity): Promise<Video> {
    return toApiVideo(await this.videos.retryTranscript(parseId(id), caller.userId));
  }

  /** GET /api/videos/{id}/waveform?v=&points= : stored peaks of the current media, resampled. */
  @Get('videos/:id/waveform')
  async waveform(@Param('id') id: string, @Query('points') pointsQ: string | undefined, @Res({ passthrough: true }) res: Response, @Caller() caller: Identity): Promise<Waveform> {
    // the service checks the range after the video (a missing video answers 404 first)
    const points = pointsQ === undefined ? WAVEFORM_DEFAULT_POINTS : Number(pointsQ);
    const waveform = await this.videos.waveform(parseId(id), caller.userId, points);
    res.setHeader('Cache-Control', 'private, max-age=300');
    return waveform;
  }

  /**
   * GET /api/videos/{id}/stream/processed?t= : the current media, with one HTTP range per
   * request, ETag and conditional requests. `t` only busts caches; the answer is always the current media.
   */
  @Get('videos/:id/stream/processed')
  @SignedMedia()
  async stream(@Param('id') id: string, @Req() req: Request, @Res() res: Response, @Caller() caller: Identity): Promise<void> {
    const media = await this.videos.playableMedia(parseId(id), caller.userId);
    const { etag, sizeBytes } = media;
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', `private, max-age=${this.config.STREAM_CACHE_SECONDS}`);
    res.setHeader('Content-Type', 'video/mp4');
    if (etagMatches(req.headers['if-none-match'], etag)) {
      res.status(304).end();
      return;
    }
    const ifRange = req.headers['if-range'];
    const rangeHeader = ifRange && ifRange !== etag ? undefined : req.headers.range;
    const decision = decideRange(rangeHeader, sizeBytes);
    if (decision.kind === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${sizeBytes}`);
      throw new AppError(416, 'RANGE_NOT_SATISFIABLE', decision.reason);
    }
    const obj = await this.videos.openMedia(media, decision.kind === 'partial' ? { start: decision.start, end: decision.end } : undefined);
    if (decision.kind === 'partial') {
      res.status(206);
      res.setHeader('Content-Range', `bytes ${decision.start}-${decision.end}/${sizeBytes}`);
      res.setHeader('Content-Length', String(decision.end - decision.start + 1));
    } else {
      res.status(200);
      res.setHeader('Content-Length', String(sizeBytes));
    }
    if (req.method === 'HEAD') {
      obj.body.destroy();
      res.end();
      return;
    }
    // a viewer that seeks closes its connection: that is not an error worth a log line
    await pipeline(obj.body, res).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ERR_STREAM_PREMATURE_CLOSE') this.logger.warn({ err, videoId: media.videoId }, 'stream interrupted');
    });
  }
}
