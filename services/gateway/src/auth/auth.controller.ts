import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ErrorCode } from '@wordcut/contracts';
import { AppError } from '@wordcut/platform';
import type { GatewayConfig } from '../config';
import { GATEWAY_CONFIG } from '../injection';
import { GatewayTokenError, GatewayTokens, type GatewaySession } from './gateway-tokens';
import { RateLimitStore } from '../limits/limits';
import { ClientAddress } from './client-address';
import { Caller, Public, type Identity } from './identity';

/**
 * Gateway sessions, for people who arrive through the upload form rather than from the provider:
 * a short-lived token the gateway signs itself; whoever holds it owns what they upload. The
 * browser refreshes it well before it ends; an ended one cannot be refreshed, and no refresh
 * carries it past GATEWAY_SESSION_MAX_LIFETIME_SECONDS from its start.
 */
@Controller('api/auth')
export class AuthController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(RateLimitStore) private readonly rateLimits: RateLimitStore,
    @Inject(GatewayTokens) private readonly tokens: GatewayTokens,
  ) {}

  /** Public: starts a new identity (only where the upload form is on), a limited number per client address. */
  @Public()
  @Post('session')
  @HttpCode(201)
  async start(@ClientAddress() client: string): Promise<GatewaySession> {
    if (!this.config.LEGACY_UPLOAD_ENABLED) throw new AppError(403, ErrorCode.Forbidden, 'Uploading is disabled here: open your video from the provider instead.');
    await this.rateLimits.hit(
      `session:ip:${client}`,
      this.config.SESSIONS_PER_HOUR_PER_IP,
      3600,
      'Too many new sessions from your network in the last hour. Please try again later.',
    );
    return this.tokens.issueSession();
  }

  /**
   * The same identity with a new expiry, never past the session's maximum lifetime from its start
   * (401 then); only for gateway sessions (provider tokens refresh at the provider).
   */
  @Post('session/refresh')
  @HttpCode(200)
  async refresh(@Caller() caller: Identity): Promise<GatewaySession> {
    if (caller.via !== 'gateway' || caller.sessionStartedAt === undefined) {
      throw new AppError(400, ErrorCode.ValidationFailed, 'Only a WordCut session can be refreshed here; provider sessions refresh at /api/wordcut/refresh-token.');
    }
    try {
      return await this.tokens.refreshSession({ userId: caller.userId, startedAt: caller.sessionStartedAt });
    } catch (err) {
      if (err instanceof GatewayTokenError) throw new AppError(401, ErrorCode.Unauthorized, err.message, { reason: err.code });
      throw err;
    }
  }
}
