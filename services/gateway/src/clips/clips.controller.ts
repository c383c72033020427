import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { createClipRequestSchema, ErrorCode } from '@wordcut/contracts';
import { downloadFileName } from '@wordcut/editor-core';
import { AppError } from '@wordcut/platform';
import type { Response } from 'express';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GatewayTokens } from '../auth/gateway-tokens';
import { Caller, SignedMedia, type Identity } from '../auth/identity';
import { contentDisposition, parseBody, parseId } from '../http';
import type { ClipRow } from './clip-store';
import { ClipsService } from './clips.service';

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


/**
 * Clips: a part of the current version, rendered in one of six aspect ratios with its own
 * captions; listed per video, downloaded through links signed for the owner, deleted with their files.
 */
@Controller('api')
export class ClipsController {
  constructor(
    @Inject(ClipsService) private readonly clips: ClipsService,
    @Inject(GatewayTokens) private readonly tokens: GatewayTokens,
  ) {}

  @Post('clips')
  @HttpCode(202)
  async createClip(@Body() body: unknown, @Caller() caller: Identity) {
    const request = parseBody(createClipRequestSchema, body);
    return this.clips.create({ ...request, videoId: parseId(request.videoId) }, caller.userId);
  }

  @Get('videos/:id/clips')
  async listClips(@Param('id') id: string, @Caller() caller: Identity) {
    const rows = await this.clips.listForVideo(parseId(id), caller.userId);
    // download links are signed for the caller: a link cannot send a bearer header
    return Promise.all(
      rows.map(async (r) => {
        const clip = toApiClip(r);
        const [outputPath, vttPath] = await Promise.all([this.tokens.signMediaPath(clip.outputPath, caller.userId), this.tokens.signMediaPath(clip.vttPath, caller.userId)]);
        return { ...clip, outputPath, vttPath };
      }),
    );
  }

  private clip(id: string, caller: Identity): Promise<ClipRow> {
    return this.clips.owned(parseId(id, 'clip'), caller.userId);
  }

  @Delete('clips/:id')
  async deleteClip(@Param('id') id: string, @Caller() caller: Identity) {
    await this.clips.delete(await this.clip(id, caller), caller.userId);
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
    const obj = await this.clips.file(key);
    res.status(200);
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Length', String(obj.contentLength));
    res.setHeader('Content-Disposition', contentDisposition(filename));
    await pipeline(obj.body as Readable, res);
  }
}
