import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { createClipRequestSchema, ErrorCode } from '@wordcut/contracts';
import { downloadFileName } from '@wordcut/editor-core';
import { AppError } from '@wordcut/platform';
import { ObjectNotFoundError } from '@wordcut/storage';
import type { Response } from 'express';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GatewayTokens } from '../auth/gateway-tokens';
import { Caller, SignedMedia, type Identity } from '../auth/identity';
import { parseBody, parseId } from '../http';
import type { ClipRow } from './clip-store';
import { EDIT_SERVICE } from './edits.controller';
import { createClip } from './clips';
import type { EditService } from './edits';
import { LIBRARY_DEPS, type LibraryDeps } from './videos.controller';

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
 * Clips: a part of the current version, rendered in one of six aspect ratios with its own
 * captions; listed per video, downloaded through links signed for the owner, deleted with their files.
 */
@Controller('api')
export class ClipsController {
  constructor(
    @Inject(LIBRARY_DEPS) private readonly library: LibraryDeps,
    @Inject(EDIT_SERVICE) private readonly edits: EditService,
    @Inject(GatewayTokens) private readonly tokens: GatewayTokens,
  ) {}


  @Post('clips')
  @HttpCode(202)
  async createClip(@Body() body: unknown, @Caller() caller: Identity) {
    const request = parseBody(createClipRequestSchema, body);
    return createClip(this.library, this.edits, { ...request, videoId: parseId(request.videoId) }, caller.userId);
  }

  @Get('videos/:id/clips')
  async listClips(@Param('id') id: string, @Caller() caller: Identity) {
    await this.edits.ownedVideo(parseId(id), caller.userId);
    const rows = await this.library.clips.listForVideo(parseId(id));
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
    const clip = await this.library.clips.getOwned(parseId(id, 'clip'), caller.userId);
    if (!clip) throw new AppError(404, ErrorCode.NotFound, `There is no clip with id '${id}'.`);
    return clip;
  }

  @Delete('clips/:id')
  async deleteClip(@Param('id') id: string, @Caller() caller: Identity) {
    const c = await this.clip(id, caller);
    if (c.status === 'pending' || c.status === 'processing') await this.edits.cancel(c.job_id, caller.userId).catch(() => undefined);
    await this.library.clips.delete(c.id);
    await Promise.all([this.library.storage.delete(c.output_key), this.library.storage.delete(c.vtt_key)]).catch(() => undefined);
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
      obj = await this.library.storage.getStream(key);
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
