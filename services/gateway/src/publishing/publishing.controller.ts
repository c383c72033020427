import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { bearerToken } from '@wordcut/provider';
import { ExportRefusals } from '../auth/identity';
import { PublishingService } from './publishing';

/**
 * Publishing routes. Every call needs the provider session token as a bearer
 * token (export creation may carry a cloned video's token in its body instead); the browser's
 * view of plan and quota is never trusted: the export service counts on the server.
 */
@ExportRefusals()
@Controller('api')
export class PublishingController {
  constructor(@Inject(PublishingService) private readonly publishing: PublishingService) {}

  @Post('wordcut/refresh-token')
  @ExportRefusals({ missingMessage: 'JWT token required' })
  @HttpCode(200)
  refresh(@Headers('authorization') auth: string | undefined) {
    return this.publishing.refreshToken(bearerToken(auth));
  }

  /** The caller's export usage against the plan, counted by the export service. */
  @Get('wordcut/quota')
  @ExportRefusals({ missingMessage: 'JWT token required' })
  quota(@Headers('authorization') auth: string | undefined) {
    return this.publishing.quota(bearerToken(auth));
  }

  @Post('wordcut/clone')
  @ExportRefusals({ missingMessage: 'No authentication token' })
  @HttpCode(200)
  clone(@Headers('authorization') auth: string | undefined, @Body() body: unknown) {
    return this.publishing.clone(bearerToken(auth), body);
  }

  @Post('jobs/export')
  @ExportRefusals({ missingMessage: 'JWT token required for export. Please refresh the page.' })
  @HttpCode(202)
  createExport(@Headers('authorization') auth: string | undefined, @Body() body: unknown) {
    return this.publishing.createExport(bearerToken(auth), body);
  }

  @Post('jobs/:jobId/retry')
  @ExportRefusals({ missingMessage: 'Job ID and token required', missingCode: 'invalid_request' })
  @HttpCode(202)
  retry(@Headers('authorization') auth: string | undefined, @Param('jobId') jobId: string) {
    return this.publishing.retryExport(bearerToken(auth), jobId);
  }

  @Post('provider/sessions/:sessionId/reset')
  @ExportRefusals({ missingMessage: 'JWT token required' })
  @HttpCode(200)
  reset(@Headers('authorization') auth: string | undefined, @Param('sessionId') sessionId: string, @Body() body: unknown) {
    return this.publishing.reset(bearerToken(auth), sessionId, body);
  }
}
