/**
 * The identity guard with everything real but HTTP: Nest's Reflector reading the metadata of
 * decorated route classes, real GatewayTokens (session tokens, signed media URLs), and a provider
 * token verifier trusting a key made here. Refusals are checked as the bodies the gateway's error
 * filter sends: library routes and publishing (@ExportRefusals) routes answer in their own shape.
 */
import { Controller, Get, Post, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { ErrorCode } from '@wordcut/contracts';
import { ProviderTokenVerifier } from '@wordcut/provider';
import { exportSPKI, generateKeyPair, SignJWT, type JWTPayload, type KeyLike } from 'jose';
import { SessionAuth } from '../session-auth';
import { GATEWAY_ISSUER, GatewayTokens, MEDIA_TOKEN_PARAM } from './gateway-tokens';
import { ExportRefusals, Public, SignedMedia, type Identity } from './identity';
import { AUTHENTICATION_REQUIRED, IdentityGuard, IdentityResolver } from './identity.guard';
import { rejectedWith, responseBodyOf } from '../../../../tools/testing/app-error';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const ISSUER = 'provider';
const AUDIENCE = 'wordcut';
const claims = { sub: 'provider-user-1', sessionId: 'session-1', videoId: 'video-1', plan: { tier: 'pro', quotas: {} }, usageSnapshot: {} };
const STREAM_PATH = '/api/videos/0b6f7a8e-2f0c-4a55-9a63-1f1f6f1d2b3c/stream/processed';

@Controller('api/videos')
class VideoRoutes {
  @Get()
  list() {}

  @Public()
  @Get('settings')
  settings() {}

  @SignedMedia()
  @Get(':id/stream/:version')
  stream() {}
}

@Public()
@Controller('api/health')
class PublicRoutes {
  @Get()
  health() {}
}

@ExportRefusals()
@Controller('api')
class ExportRoutes {
  @Get('wordcut/quota')
  @ExportRefusals({ missingMessage: 'JWT token required' })
  quota() {}

  @Post('jobs/:jobId/retry')
  @ExportRefusals({ missingMessage: 'Job ID and token required', missingCode: 'invalid_request' })
  retry() {}

  @Get('jobs/export/default')
  fallback() {}
}

type TestRequest = { headers: { authorization?: string }; query: Record<string, unknown>; path: string; identity?: Identity };

let now = Date.now();
const tokens = new GatewayTokens(SECRET, { sessionTtlSec: 3600, sessionMaxLifetimeSec: 7 * 24 * 3600, mediaTtlSec: 3600, now: () => now });
let privateKey: KeyLike;
let guard: IdentityGuard;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  privateKey = pair.privateKey;
  const auth = new SessionAuth(new ProviderTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, publicKeyPem: await exportSPKI(pair.publicKey) }));
  guard = new IdentityGuard(new Reflector(), new IdentityResolver(auth, tokens));
});

beforeEach(() => {
  now = Date.now();
});

/** A provider session token signed with this spec's key; a negative `expiresInSec` makes an expired one. */
function providerToken(payload: JWTPayload = claims, expiresInSec = 3600, issuer = ISSUER): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT(payload).setProtectedHeader({ alg: 'ES256' }).setIssuer(issuer).setAudience(AUDIENCE).setIssuedAt(iat).setExpirationTime(iat + expiresInSec).sign(privateKey);
}

/** The `st` parameter of a signed media URL for `path`. */
async function mediaToken(path: string, userId: string): Promise<string> {
  return new URL(await tokens.signMediaPath(path, userId), 'http://gateway').searchParams.get(MEDIA_TOKEN_PARAM)!;
}

function request(o: { authorization?: string; st?: string; path?: string } = {}): TestRequest {
  return {
    headers: o.authorization === undefined ? {} : { authorization: o.authorization },
    query: o.st === undefined ? {} : { [MEDIA_TOKEN_PARAM]: o.st },
    path: o.path ?? '/api/videos',
  };
}

/** Runs the guard for `Class.prototype[method]` on `req`. */
function activate<T>(controller: Type<T>, method: keyof T & string, req: TestRequest): Promise<boolean> {
  const handler = (controller.prototype as Record<string, (...args: unknown[]) => unknown>)[method]!;
  return guard.canActivate(new ExecutionContextHost([req, {}, () => undefined], controller, handler));
}

/** The JSON body the gateway's error filter sends for the refusal. */
const refusalBody = async (p: Promise<unknown>): Promise<unknown> => responseBodyOf(await rejectedWith(p));

const missing = { statusCode: 401, code: ErrorCode.Unauthorized, error: 'Unauthorized', message: AUTHENTICATION_REQUIRED, details: { reason: 'TOKEN_MISSING' } };

describe('public routes', () => {
  it('let a @Public method or a method of a @Public class through without any token, and resolve no identity', async () => {
    const a = request();
    await expect(activate(VideoRoutes, 'settings', a)).resolves.toBe(true);
    expect(a.identity).toBeUndefined();
    const b = request({ authorization: 'Bearer garbage' });
    await expect(activate(PublicRoutes, 'health', b)).resolves.toBe(true);
    expect(b.identity).toBeUndefined();
  });
});

describe('library routes', () => {
  it('refuse a request without a bearer token: 401 "Authentication required", reason TOKEN_MISSING', async () => {
    expect(await refusalBody(activate(VideoRoutes, 'list', request()))).toEqual(missing);
    expect(await refusalBody(activate(VideoRoutes, 'list', request({ authorization: 'Basic dXNlcjpwYXNz' })))).toEqual(missing);
    expect(await refusalBody(activate(VideoRoutes, 'list', request({ authorization: 'Bearer' })))).toEqual(missing);
  });

  it("resolve a provider session token to the provider's subject under its issuer, with its claims", async () => {
    const req = request({ authorization: `Bearer ${await providerToken()}` });
    await expect(activate(VideoRoutes, 'list', req)).resolves.toBe(true);
    expect(req.identity).toMatchObject({ userId: 'provider:provider:provider-user-1', via: 'provider', provider: { sub: 'provider-user-1', sessionId: 'session-1', videoId: 'video-1' } });
  });

  it("keep a provider subject that looks like a gateway session apart from that session's owner", async () => {
    const session = await tokens.issueSession();
    const req = request({ authorization: `Bearer ${await providerToken({ ...claims, sub: session.userId })}` });
    await expect(activate(VideoRoutes, 'list', req)).resolves.toBe(true);
    expect(req.identity).toMatchObject({ userId: `provider:provider:${session.userId}`, via: 'provider' });
    expect(req.identity!.userId).not.toBe(session.userId);
  });

  it('resolve a gateway session token to its wordcut: owner', async () => {
    const session = await tokens.issueSession();
    const req = request({ authorization: `bearer ${session.token}` });
    await expect(activate(VideoRoutes, 'list', req)).resolves.toBe(true);
    expect(req.identity).toEqual({ userId: session.userId, via: 'gateway', sessionStartedAt: expect.any(Number) });
    expect(session.userId.startsWith('wordcut:')).toBe(true);
  });

  it('refuse an expired gateway session with its own words, reason TOKEN_EXPIRED', async () => {
    const session = await tokens.issueSession();
    now += 2 * 3600 * 1000;
    expect(await refusalBody(activate(VideoRoutes, 'list', request({ authorization: `Bearer ${session.token}` })))).toEqual({
      ...missing,
      message: 'Your session has expired. Reload the page to start a new one.',
      details: { reason: 'TOKEN_EXPIRED' },
    });
  });

  it('refuse a gateway-issued token signed with another secret, and a signed media token used as a session', async () => {
    const other = new GatewayTokens('another-secret-of-at-least-32-chars!!', { sessionTtlSec: 3600, sessionMaxLifetimeSec: 7 * 24 * 3600, mediaTtlSec: 3600 });
    const invalid = { ...missing, message: 'The session token is not valid.', details: { reason: 'TOKEN_INVALID' } };
    expect(await refusalBody(activate(VideoRoutes, 'list', request({ authorization: `Bearer ${(await other.issueSession()).token}` })))).toEqual(invalid);
    const st = await mediaToken(STREAM_PATH, 'wordcut:u1');
    expect(await refusalBody(activate(VideoRoutes, 'stream', request({ authorization: `Bearer ${st}`, path: STREAM_PATH })))).toEqual(invalid);
  });

  it("check a token that names the gateway as issuer against the gateway's secret only, never the provider's key", async () => {
    const forged = await providerToken({ ...claims, sub: 'wordcut:someone-else' }, 3600, GATEWAY_ISSUER);
    expect(await refusalBody(activate(VideoRoutes, 'list', request({ authorization: `Bearer ${forged}` })))).toMatchObject({
      statusCode: 401,
      details: { reason: 'TOKEN_INVALID' },
    });
  });

  it("refuse an invalid or expired provider token with the provider verifier's words", async () => {
    expect(await refusalBody(activate(VideoRoutes, 'list', request({ authorization: 'Bearer not.a.jwt' })))).toEqual({
      ...missing,
      message: 'The session token is not valid: it is malformed. Open the editor again from the provider.',
      details: { reason: 'TOKEN_INVALID' },
    });
    expect(await refusalBody(activate(VideoRoutes, 'list', request({ authorization: `Bearer ${await providerToken(claims, -120)}` })))).toMatchObject({
      statusCode: 401,
      details: { reason: 'TOKEN_EXPIRED' },
    });
  });
});

describe('signed media URLs', () => {
  it('resolve the owner the URL was signed for, on a @SignedMedia route and its exact path', async () => {
    const req = request({ st: await mediaToken(STREAM_PATH, 'wordcut:owner-1'), path: STREAM_PATH });
    await expect(activate(VideoRoutes, 'stream', req)).resolves.toBe(true);
    expect(req.identity).toEqual({ userId: 'wordcut:owner-1', via: 'media-url' });
  });

  it('are not accepted on routes without @SignedMedia: the token counts as missing', async () => {
    const req = request({ st: await mediaToken('/api/videos', 'wordcut:owner-1'), path: '/api/videos' });
    expect(await refusalBody(activate(VideoRoutes, 'list', req))).toEqual(missing);
  });

  it('refuse a URL signed for another path, and an expired one, with the link wording', async () => {
    const other = await mediaToken(STREAM_PATH.replace('processed', 'original'), 'wordcut:owner-1');
    expect(await refusalBody(activate(VideoRoutes, 'stream', request({ st: other, path: STREAM_PATH })))).toEqual({
      ...missing,
      message: 'This link is not valid for this file.',
      details: { reason: 'TOKEN_INVALID' },
    });
    const st = await mediaToken(STREAM_PATH, 'wordcut:owner-1');
    now += 3 * 3600 * 1000;
    expect(await refusalBody(activate(VideoRoutes, 'stream', request({ st, path: STREAM_PATH })))).toEqual({
      ...missing,
      message: 'This link has expired. Reload the page to get a new one.',
      details: { reason: 'TOKEN_EXPIRED' },
    });
  });

  it('ignore a media token given as an array (repeated query parameter)', async () => {
    const st = await mediaToken(STREAM_PATH, 'wordcut:owner-1');
    const req = { ...request({ path: STREAM_PATH }), query: { [MEDIA_TOKEN_PARAM]: [st, st] } };
    expect(await refusalBody(activate(VideoRoutes, 'stream', req))).toEqual(missing);
  });

  it('give way to a bearer token when both are sent', async () => {
    const session = await tokens.issueSession();
    const req = request({ authorization: `Bearer ${session.token}`, st: await mediaToken(STREAM_PATH, 'wordcut:owner-1'), path: STREAM_PATH });
    await expect(activate(VideoRoutes, 'stream', req)).resolves.toBe(true);
    expect(req.identity).toEqual({ userId: session.userId, via: 'gateway', sessionStartedAt: expect.any(Number) });
  });
});

describe('publishing routes (@ExportRefusals)', () => {
  /** The 401 body of a publishing route: the export error shape, `error` repeating the code, the token problem as details. */
  const exportRefusal = (code: string, message: string, details: string) => ({ statusCode: 401, code, error: code, message, details });

  it("answer a missing token in the export error shape with the route's own message and code", async () => {
    expect(await refusalBody(activate(ExportRoutes, 'quota', request()))).toEqual(exportRefusal('unauthorized', 'JWT token required', 'TOKEN_MISSING'));
    expect(await refusalBody(activate(ExportRoutes, 'retry', request()))).toEqual(exportRefusal('invalid_request', 'Job ID and token required', 'TOKEN_MISSING'));
  });

  it("fall back to the class's refusal when the method names none", async () => {
    expect(await refusalBody(activate(ExportRoutes, 'fallback', request()))).toEqual(exportRefusal('unauthorized', 'Authentication required', 'TOKEN_MISSING'));
  });

  it('resolve a provider token, and refuse a bad one in the export shape with its error code as details', async () => {
    const req = request({ authorization: `Bearer ${await providerToken()}` });
    await expect(activate(ExportRoutes, 'quota', req)).resolves.toBe(true);
    expect(req.identity).toMatchObject({ userId: 'provider:provider:provider-user-1', via: 'provider' });
    const expired = request({ authorization: `Bearer ${await providerToken(claims, -120)}` });
    expect(await refusalBody(activate(ExportRoutes, 'quota', expired))).toEqual(
      exportRefusal('unauthorized', 'The session token has expired. Open the editor again from the provider.', 'TOKEN_EXPIRED'),
    );
  });

  it('refuse an expired gateway session in the export shape', async () => {
    const session = await tokens.issueSession();
    now += 2 * 3600 * 1000;
    const expired = request({ authorization: `Bearer ${session.token}` });
    expect(await refusalBody(activate(ExportRoutes, 'quota', expired))).toEqual(
      exportRefusal('unauthorized', 'Your session has expired. Reload the page to start a new one.', 'TOKEN_EXPIRED'),
    );
  });
});
