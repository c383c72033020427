import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import type { ProviderSessionResponse } from '@wordcut/contracts';
import { Caller, type Identity } from '../auth/identity';
import { VideosService } from './videos.service';

/**
 * POST /api/provider/sessions: the browser arrives from the provider with a session token; the
 * identity guard verifies it (signature with the provider's configured key, algorithm allow-list,
 * issuer, audience, expiry), then the session's video opens (VideosService.openProviderSession).
 */
@Controller('api/provider')
export class ProviderSessionsController {
  constructor(@Inject(VideosService) private readonly videos: VideosService) {}

  @Post('sessions')
  @HttpCode(200)
  async open(@Caller() caller: Identity): Promise<ProviderSessionResponse> {
    return this.videos.openProviderSession(caller);
  }
}
