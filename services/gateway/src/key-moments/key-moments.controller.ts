import { Body, Controller, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { exportKeyMomentRequestSchema, type ExportKeyMomentResponse, type KeyMomentsPending, type KeyMomentsResponse } from '@wordcut/contracts';
import type { Response } from 'express';
import { Caller, type Identity } from '../auth/identity';
import { parseBody, parseId } from '../http';
import { KeyMomentsService } from './key-moments.service';

/** Key moments (docs/KEYMOMENTS.md): find them for the current version, read the stored ones, export one as a clip. */
@Controller('api')
export class KeyMomentsController {
  constructor(@Inject(KeyMomentsService) private readonly keyMoments: KeyMomentsService) {}

  /** POST /api/videos/{id}/find-key-moments: the moments of the current version (stored, or found now); 202 with the job while it still runs. */
  @Post('videos/:id/find-key-moments')
  @HttpCode(200)
  async find(@Param('id') id: string, @Caller() caller: Identity, @Res({ passthrough: true }) res: Response): Promise<KeyMomentsResponse | KeyMomentsPending> {
    const answer = await this.keyMoments.find(parseId(id), caller.userId);
    if ('jobId' in answer) res.status(202);
    return answer;
  }

  /** GET /api/videos/{id}/key-moments: the stored moments of the current version, or none. */
  @Get('videos/:id/key-moments')
  async list(@Param('id') id: string, @Caller() caller: Identity): Promise<KeyMomentsResponse> {
    return this.keyMoments.stored(parseId(id), caller.userId);
  }

  /** POST /api/key-moments/{momentId}/export: the moment becomes a clip of its video (202, rendered like every clip). */
  @Post('key-moments/:momentId/export')
  @HttpCode(202)
  async export(@Param('momentId') momentId: string, @Body() body: unknown, @Caller() caller: Identity): Promise<ExportKeyMomentResponse> {
    const request = parseBody(exportKeyMomentRequestSchema, body);
    return this.keyMoments.exportMoment(parseId(momentId, 'key moment'), caller.userId, request);
  }
}
