import { Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import type { KeyMomentsResponse } from '@wordcut/contracts';
import { Caller, type Identity } from '../auth/identity';
import { parseId } from '../http';
import type { KeyMomentsService } from './key-moments';

export const KEY_MOMENTS_SERVICE = Symbol('KEY_MOMENTS_SERVICE');

/** Key moments (docs/KEYMOMENTS.md): find them for the current version, or read the stored ones. */
@Controller('api')
export class KeyMomentsController {
  constructor(@Inject(KEY_MOMENTS_SERVICE) private readonly keyMoments: KeyMomentsService) {}

  /** POST /api/videos/{id}/find-key-moments: the moments of the current version (stored, or found now). */
  @Post('videos/:id/find-key-moments')
  @HttpCode(200)
  async find(@Param('id') id: string, @Caller() caller: Identity): Promise<KeyMomentsResponse> {
    return this.keyMoments.find(parseId(id), caller.userId);
  }

  /** GET /api/videos/{id}/key-moments: the stored moments of the current version, or none. */
  @Get('videos/:id/key-moments')
  async list(@Param('id') id: string, @Caller() caller: Identity): Promise<KeyMomentsResponse> {
    return this.keyMoments.stored(parseId(id), caller.userId);
  }
}
