import { type FactoryProvider } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ErrorCode } from '@wordcut/contracts';
import { AppError, type Logger } from '@wordcut/platform';
import { bearerToken } from '@wordcut/provider';
import { json, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { LOGGER } from '../injection';
import type { RequestWithIdentity } from './identity';
import { AUTHENTICATION_REQUIRED, IdentityResolver } from './identity.guard';

/** JSON bodies everywhere: at most this. */
export const JSON_BODY_LIMIT = '1mb';

/**
 * The routes that carry a transcript's worth, with their larger limits: a full transcript
 * replacement (MAX_TRANSCRIPT_WORDS words at ~110 bytes each, plus paragraphs) and edits on videos.
 * Their bodies are read only once the caller's token is verified.
 */
export const LARGE_JSON_BODY_ROUTES: ReadonlyArray<{ method: string; prefix: string; limit: string }> = [
  { method: 'PATCH', prefix: '/api/transcripts', limit: '24mb' },
  { method: 'POST', prefix: '/api/videos', limit: '4mb' },
];

const isTooLarge = (err: unknown): boolean => (err as { type?: unknown } | null)?.type === 'entity.too.large';

/**
 * The gateway's JSON body parser. On a large-body route the caller's identity comes first (a
 * missing or refused token answers 401 with the body unread), then the body is read up to that
 * route's limit; everywhere else up to JSON_BODY_LIMIT. A body over its limit answers 413 and is
 * reported to the operators' error log.
 */
export function jsonBodies(resolver: Pick<IdentityResolver, 'fromBearer'>, logger: Logger): RequestHandler {
  const small = json({ limit: JSON_BODY_LIMIT });
  const large = LARGE_JSON_BODY_ROUTES.map((r) => ({ ...r, parse: json({ limit: r.limit }) }));
  return (req: Request & RequestWithIdentity, res: Response, next: NextFunction) => {
    const refused = (limit: string) => (err?: unknown) => {
      if (isTooLarge(err)) {
        logger.warn(
          { report: true, method: req.method, path: req.path, limit, contentLength: req.headers['content-length'] ?? null, userId: req.identity?.userId },
          'request refused: body too large',
        );
      }
      next(err);
    };
    const route = large.find((r) => r.method === req.method && (req.path === r.prefix || req.path.startsWith(`${r.prefix}/`)));
    if (!route) return small(req, res, refused(JSON_BODY_LIMIT));
    const token = bearerToken(req.headers.authorization);
    if (!token) return next(new AppError(401, ErrorCode.Unauthorized, AUTHENTICATION_REQUIRED, { reason: 'TOKEN_MISSING' }));
    resolver.fromBearer(token, false).then((identity) => {
      req.identity = identity;
      route.parse(req, res, refused(route.limit));
    }, next);
  };
}

/**
 * Installs jsonBodies on the HTTP server while the module is built, so it runs before the
 * service runtime's own body parser (which then finds every JSON body read).
 */
export const JSON_BODIES = Symbol('JSON_BODIES');
export const jsonBodiesProvider: FactoryProvider<true> = {
  provide: JSON_BODIES,
  inject: [HttpAdapterHost, IdentityResolver, LOGGER],
  useFactory: (host: HttpAdapterHost, resolver: IdentityResolver, logger: Logger) => {
    host.httpAdapter.use(jsonBodies(resolver, logger));
    return true;
  },
};
