import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { detectSilenceRequestSchema, type DetectSilenceResponse } from '@wordcut/contracts';
import { Caller, type Identity } from '../auth/identity';
import { parseBody, parseId } from '../http';
import { SilenceService } from './silence.service';

/** Pause detection (docs/SILENCE.md); removal is process-silence, an edit job (edits.controller.ts). */
@Controller('api')
export class SilenceController {
  constructor(@Inject(SilenceService) private readonly silence: SilenceService) {}

  /** POST /api/videos/{id}/detect-silence {minPauseDuration, contextWords, useAutoThresholds}: the pauses, typed and recommended. */
  @Post('videos/:id/detect-silence')
  @HttpCode(200)
  async detect(@Param('id') id: string, @Body() body: unknown, @Caller() caller: Identity): Promise<DetectSilenceResponse> {
    return this.silence.detect(parseId(id), caller.userId, parseBody(detectSilenceRequestSchema, body));
  }
}
