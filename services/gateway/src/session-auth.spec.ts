/**
 * SessionAuth with a real ProviderTokenVerifier: tokens signed here with a fresh ES256 key, and a
 * JWKS endpoint (an in-process HTTP server) that is down, for the provider-outage case. Errors are
 * checked as the bodies the gateway's error filter sends: library routes and publishing routes
 * answer the same refusal in their own shape.
 */
import { ErrorCode } from '@wordcut/contracts';
import { ProviderTokenVerifier } from '@wordcut/provider';
import { exportSPKI, generateKeyPair, SignJWT, type JWTPayload, type KeyLike } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SessionAuth } from './session-auth';
import { rejectedWith, responseBodyOf } from '../../../tools/testing/app-error';

const ISSUER = 'provider';
const AUDIENCE = 'wordcut';
const claims = { sub: 'user-1', sessionId: 'session-1', videoId: 'video-1', plan: { tier: 'pro', quotas: {} }, usageSnapshot: {} };

let privateKey: KeyLike;
let auth: SessionAuth;
let jwksDown: Server;
let authWithoutKeys: SessionAuth;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  privateKey = pair.privateKey;
  auth = new SessionAuth(new ProviderTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, publicKeyPem: await exportSPKI(pair.publicKey) }));
  jwksDown = createServer((_req, res) => res.writeHead(503).end('maintenance'));
  await new Promise<void>((resolve) => jwksDown.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(jwksDown.address() as AddressInfo).port}/.well-known/jwks.json`;
  authWithoutKeys = new SessionAuth(new ProviderTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwksUrl }));
});

afterAll(async () => {
  await new Promise((resolve) => jwksDown?.close(resolve));
});

/** A token signed with this spec's key; `expiresInSec` below zero makes an expired one (beyond the 30 s leeway). */
function sign(payload: JWTPayload = claims, expiresInSec = 3600): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(payload).setProtectedHeader({ alg: 'ES256' }).setIssuer(ISSUER).setAudience(AUDIENCE).setIssuedAt(now).setExpirationTime(now + expiresInSec).sign(privateKey);
}

/** The JSON body the gateway's error filter sends for the refusal. */
const refusalBody = async (p: Promise<unknown>): Promise<unknown> => responseBodyOf(await rejectedWith(p));

const REOPEN = 'Open the editor again from the provider.';
const KEYS_MESSAGE = "The provider's signing keys could not be fetched, so the session token cannot be checked. Try again in a moment.";

describe('library routes (verifyBearer)', () => {
  it('answers the claims of a valid bearer token', async () => {
    const verified = await auth.verifyBearer(`Bearer ${await sign()}`, { required: true });
    expect(verified).toMatchObject({ sub: 'user-1', sessionId: 'session-1', videoId: 'video-1' });
  });

  it('answers null without a token when none is required, and 401 with the given message when one is', async () => {
    await expect(auth.verifyBearer(undefined, { required: false })).resolves.toBeNull();
    await expect(auth.verifyBearer('Basic dXNlcjpwYXNz', { required: false })).resolves.toBeNull();
    expect(await refusalBody(auth.verifyBearer(undefined, { required: true }))).toEqual({
      statusCode: 401,
      code: ErrorCode.Unauthorized,
      error: 'Unauthorized',
      message: 'Authentication required',
    });
    expect(await refusalBody(auth.verifyBearer('', { required: true, missingMessage: 'Send the session token.' }))).toMatchObject({
      statusCode: 401,
      message: 'Send the session token.',
    });
  });

  it('answers 401 with the token error code as reason for an invalid or expired token', async () => {
    expect(await refusalBody(auth.verifyBearer('Bearer not.a.jwt', { required: false }))).toEqual({
      statusCode: 401,
      code: ErrorCode.Unauthorized,
      error: 'Unauthorized',
      message: `The session token is not valid: it is malformed. ${REOPEN}`,
      details: { reason: 'TOKEN_INVALID' },
    });
    expect(await refusalBody(auth.verifyBearer(`Bearer ${await sign(claims, -120)}`, { required: true }))).toEqual({
      statusCode: 401,
      code: ErrorCode.Unauthorized,
      error: 'Unauthorized',
      message: `The session token has expired. ${REOPEN}`,
      details: { reason: 'TOKEN_EXPIRED' },
    });
  });

  it('answers 503 when the provider keys cannot be fetched', async () => {
    expect(await refusalBody(authWithoutKeys.verifyBearer(`Bearer ${await sign()}`, { required: true }))).toEqual({
      statusCode: 503,
      code: ErrorCode.ServiceUnavailable,
      error: 'Service Unavailable',
      message: KEYS_MESSAGE,
      details: { reason: 'KEYS_UNAVAILABLE' },
    });
  });
});

describe('publishing routes (verifyForExport)', () => {
  it('answers the claims of a valid token', async () => {
    await expect(auth.verifyForExport(await sign(), 'JWT token required')).resolves.toMatchObject({ sub: 'user-1', sessionId: 'session-1' });
  });

  it('answers a missing token with the given message and error code', async () => {
    expect(await refusalBody(auth.verifyForExport(null, 'JWT token required'))).toEqual({
      statusCode: 401,
      code: 'unauthorized',
      error: 'unauthorized',
      message: 'JWT token required',
    });
    expect(await refusalBody(auth.verifyForExport(undefined, 'Job ID and token required', 'invalid_request'))).toEqual({
      statusCode: 401,
      code: 'invalid_request',
      error: 'invalid_request',
      message: 'Job ID and token required',
    });
  });

  it('answers 401 unauthorized with the token error code as details for an invalid or expired token', async () => {
    expect(await refusalBody(auth.verifyForExport('not.a.jwt', 'JWT token required'))).toEqual({
      statusCode: 401,
      code: 'unauthorized',
      error: 'unauthorized',
      message: `The session token is not valid: it is malformed. ${REOPEN}`,
      details: 'TOKEN_INVALID',
    });
    expect(await refusalBody(auth.verifyForExport(await sign(claims, -120), 'JWT token required'))).toEqual({
      statusCode: 401,
      code: 'unauthorized',
      error: 'unauthorized',
      message: `The session token has expired. ${REOPEN}`,
      details: 'TOKEN_EXPIRED',
    });
  });

  it('answers 503 service_unavailable when the provider keys cannot be fetched', async () => {
    expect(await refusalBody(authWithoutKeys.verifyForExport(await sign(), 'JWT token required'))).toEqual({
      statusCode: 503,
      code: 'service_unavailable',
      error: 'service_unavailable',
      message: KEYS_MESSAGE,
    });
  });
});
