import { Controller, Delete, Get, Inject, Param, Req } from '@nestjs/common';
import type { DeletionPreview, DeletionResult } from '@wordcut/contracts';
import type { Request } from 'express';
import { OperatorRoute, type RequestWithIdentity } from '../auth/identity';
import { parseId, videoNotFound } from '../http';
import { OPERATOR_SERVICE, type OperatorService } from './operator-service';

/**
 * Deleting one video: by its owner (bearer token; anyone else's answers 404 like a missing one)
 * or by the operator (session cookie, CSRF header on DELETE). The preview names what goes.
 */
@OperatorRoute('owner-or-operator')
@Controller('api/videos')
export class VideoDeletionController {
  constructor(@Inject(OPERATOR_SERVICE) private readonly operator: OperatorService) {}

  @Get(':id/deletion-preview')
  async preview(@Param('id') id: string, @Req() req: Request & RequestWithIdentity): Promise<DeletionPreview> {
    const videoId = await this.allowed(parseId(id), req);
    const [preview] = await this.operator.deletion.preview([videoId]);
    return preview!;
  }

  @Delete(':id')
  async delete(@Param('id') id: string, @Req() req: Request & RequestWithIdentity): Promise<DeletionResult> {
    const videoId = await this.allowed(parseId(id), req);
    return this.operator.deletion.delete([videoId], req.identity ? `owner:${req.identity.userId}` : 'operator');
  }

  /** The operator may delete any video; a person only their own. */
  private async allowed(videoId: string, req: RequestWithIdentity): Promise<string> {
    if (req.operator) return videoId;
    if (req.identity && (await this.operator.ownsVideo(videoId, req.identity.userId))) return videoId;
    throw videoNotFound(videoId);
  }
}
