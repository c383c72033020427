import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import {
  analyticsVideoQuerySchema,
  bulkDeleteSchema,
  bulkPreviewQuerySchema,
  ErrorCode,
  OPERATOR_COOKIE,
  operatorLoginSchema,
  type AnalyticsVideoPage,
  type BulkDeletionPreview,
  type DeletionResult,
  type OperatorStatus,
} from '@wordcut/contracts';
import { AppError } from '@wordcut/platform';
import type { CookieOptions, Request, Response } from 'express';
import { cookieValue } from '../auth/identity.guard';
import { limitAddress } from '../auth/client-address';
import { Operator, OperatorRoute, Public, type OperatorCaller } from '../auth/identity';
import { parseBody } from '../http';
import { OPERATOR_SERVICE, type OperatorService } from './operator-service';

/**
 * The operator dashboard's access and video management. Signing in sets the session cookie
 * (httpOnly, SameSite=Strict, Secure outside a local stack) and answers the session's CSRF token;
 * every other route here needs that cookie, and every state-changing one the token header too.
 */
@Controller('api/analytics')
export class OperatorController {
  constructor(@Inject(OPERATOR_SERVICE) private readonly operator: OperatorService) {}

  /** Public: whether this browser holds a live operator session (and its CSRF token when it does). */
  @Public()
  @Get('status')
  async status(@Req() req: Request): Promise<OperatorStatus> {
    const session = await this.operator.access.session(cookieValue(req.headers.cookie, OPERATOR_COOKIE));
    return session ? { authenticated: true, csrfToken: session.csrfToken, expiresAt: session.expiresAt.toISOString() } : { authenticated: false };
  }

  /** Public: the password; a wrong one (and a throttled client) gets 'Access denied: Incorrect password'. */
  @Public()
  @Post('login')
  @HttpCode(200)
  async login(@Body() body: unknown, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<OperatorStatus> {
    // JSON only: a cross-site form cannot send it without the browser asking this origin first
    if (!req.is('application/json')) throw new AppError(415, ErrorCode.UnsupportedMedia, 'Send the password as JSON.');
    const { password } = parseBody(operatorLoginSchema, body);
    const { sessionId, session } = await this.operator.access.login(password, limitAddress(req.ip));
    res.cookie(OPERATOR_COOKIE, sessionId, { ...this.cookieOptions(), expires: session.expiresAt });
    return { authenticated: true, csrfToken: session.csrfToken, expiresAt: session.expiresAt.toISOString() };
  }

  /** Ends the session server-side and clears the cookie. */
  @OperatorRoute()
  @Post('logout')
  @HttpCode(200)
  async logout(@Operator() operator: OperatorCaller, @Res({ passthrough: true }) res: Response): Promise<OperatorStatus> {
    await this.operator.access.logout(operator);
    res.clearCookie(OPERATOR_COOKIE, this.cookieOptions());
    return { authenticated: false };
  }

  @OperatorRoute()
  @Get('videos')
  async videos(@Query() query: unknown): Promise<AnalyticsVideoPage> {
    return this.operator.videos.list(parseBody(analyticsVideoQuerySchema, query));
  }

  @OperatorRoute()
  @Get('videos/bulk-preview')
  async bulkPreview(@Query() query: unknown): Promise<BulkDeletionPreview> {
    return this.operator.deletion.bulkPreview(parseBody(bulkPreviewQuerySchema, query).ids);
  }

  @OperatorRoute()
  @Post('videos/bulk-delete')
  @HttpCode(200)
  async bulkDelete(@Body() body: unknown): Promise<DeletionResult> {
    return this.operator.deletion.delete(parseBody(bulkDeleteSchema, body).videoIds, 'operator');
  }

  private cookieOptions(): CookieOptions {
    return { httpOnly: true, secure: this.operator.cookieSecure, sameSite: 'strict', path: '/api' };
  }
}
