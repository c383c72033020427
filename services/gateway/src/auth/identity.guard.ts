import { type CanActivate, type ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ErrorCode, OPERATOR_COOKIE, OPERATOR_CSRF_HEADER } from '@wordcut/contracts';
import { AppError, PUBLIC_ROUTE } from '@wordcut/platform';
import { bearerToken } from '@wordcut/provider';
import { decodeJwt } from 'jose';
import type { Request } from 'express';
import { exportError } from '../publishing/export-error';
import { SessionAuth } from '../session-auth';
import { GATEWAY_ISSUER, GatewayTokenError, GatewayTokens, MEDIA_TOKEN_PARAM } from './gateway-tokens';
import { EXPORT_REFUSALS, OPERATOR_ROUTE, SIGNED_MEDIA_ROUTE, type ExportRefusal, type Identity, type OperatorRouteKind, type RequestWithIdentity } from './identity';
import { OperatorAccess, sameSecret } from '../operator/operator-access';

export const OPERATOR_SESSION_REQUIRED = 'Operator session required';
export const CSRF_REFUSED = 'Missing or invalid CSRF token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** One cookie's value from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      try {
        return decodeURIComponent(part.slice(at + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export const AUTHENTICATION_REQUIRED = 'Authentication required';

/**
 * Resolves who is calling from a bearer token: the gateway's own session tokens (by their issuer)
 * or the provider's session tokens (everything else, verified against the provider's keys).
 */
@Injectable()
export class IdentityResolver {
  constructor(
    private readonly sessions: SessionAuth,
    private readonly tokens: GatewayTokens,
  ) {}

  async fromBearer(token: string, exportRefusals: boolean): Promise<Identity> {
    if (issuerOf(token) === GATEWAY_ISSUER) {
      try {
        const { userId, startedAt } = await this.tokens.verifySession(token);
        return { userId, via: 'gateway', sessionStartedAt: startedAt };
      } catch (err) {
        if (err instanceof GatewayTokenError) throw refusal(err.message, err.code, exportRefusals);
        throw err;
      }
    }
    const claims = exportRefusals ? await this.sessions.verifyForExport(token, AUTHENTICATION_REQUIRED) : await this.sessions.verifyBearer(`Bearer ${token}`, { required: true });
    return { userId: claims.ownerId, via: 'provider', provider: claims };
  }

  async fromMediaToken(token: string, path: string): Promise<Identity> {
    try {
      const { userId } = await this.tokens.verifyMedia(token, path);
      return { userId, via: 'media-url' };
    } catch (err) {
      if (err instanceof GatewayTokenError) throw refusal(err.message, err.code, false);
      throw err;
    }
  }
}

function issuerOf(token: string): string | undefined {
  try {
    const iss = decodeJwt(token).iss;
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}

function refusal(message: string, reason: string, exportRefusals: boolean): AppError {
  return exportRefusals ? exportError(401, 'unauthorized', message, { details: reason }) : new AppError(401, ErrorCode.Unauthorized, message, { reason });
}

/**
 * The one place a caller's identity is resolved: every route needs one unless marked @Public.
 * Routes marked @SignedMedia also accept a signed media URL instead of a bearer header. The
 * identity lands on the request for @Caller(); ownership is then checked where the object is read.
 */
@Injectable()
export class IdentityGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly resolver: IdentityResolver,
    @Optional() private readonly operators?: OperatorAccess,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const req = ctx.switchToHttp().getRequest<Request & RequestWithIdentity>();
    const operatorRoute = this.reflector.getAllAndOverride<OperatorRouteKind | undefined>(OPERATOR_ROUTE, targets);
    if (operatorRoute === 'operator') return this.operatorOnly(req);
    if (operatorRoute === 'owner-or-operator' && !bearerToken(req.headers.authorization)) return this.operatorOnly(req);
    const exportRefusal = this.reflector.getAllAndOverride<ExportRefusal | undefined>(EXPORT_REFUSALS, targets);
    const token = bearerToken(req.headers.authorization);
    if (token) {
      // a large-body route resolved it already, before reading the body
      req.identity ??= await this.resolver.fromBearer(token, exportRefusal !== undefined);
      return true;
    }
    const mediaToken = req.query[MEDIA_TOKEN_PARAM];
    if (typeof mediaToken === 'string' && this.reflector.get<boolean>(SIGNED_MEDIA_ROUTE, ctx.getHandler())) {
      req.identity = await this.resolver.fromMediaToken(mediaToken, req.path);
      return true;
    }
    if (exportRefusal) throw exportError(401, exportRefusal.missingCode ?? 'unauthorized', exportRefusal.missingMessage, { details: 'TOKEN_MISSING' });
    throw refusal(AUTHENTICATION_REQUIRED, 'TOKEN_MISSING', false);
  }

  /**
   * Operator routes read only the operator cookie (a bearer token is not looked at, so an editor's
   * token answers 401 there); a state-changing call must also carry the session's CSRF token.
   */
  private async operatorOnly(req: Request & RequestWithIdentity): Promise<boolean> {
    const session = await this.operators?.session(cookieValue(req.headers.cookie, OPERATOR_COOKIE));
    if (!session) throw new AppError(401, ErrorCode.Unauthorized, OPERATOR_SESSION_REQUIRED, { reason: 'OPERATOR_SESSION_MISSING' });
    if (!SAFE_METHODS.has(req.method)) {
      const sent = req.headers[OPERATOR_CSRF_HEADER];
      if (typeof sent !== 'string' || !sameSecret(sent, session.csrfToken)) throw new AppError(403, ErrorCode.Forbidden, CSRF_REFUSED, { reason: 'CSRF' });
    }
    req.operator = session;
    return true;
  }
}
