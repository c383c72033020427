import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';

/** Issuer of every token the gateway signs itself. */
export const GATEWAY_ISSUER = 'wordcut-gateway';
const SESSION_AUDIENCE = 'wordcut-session';
const MEDIA_AUDIENCE = 'wordcut-media';
/** Owner ids of gateway sessions; provider users own as `provider:<issuer>:<sub>` (providerOwnerId). */
export const GATEWAY_SUBJECT_PREFIX = 'wordcut:';
/** Query parameter of a signed media URL. */
export const MEDIA_TOKEN_PARAM = 'st';
/** Signed media URLs are stable for this long, so a player's source does not change on every refetch. */
const MEDIA_BUCKET_SEC = 3600;

export class GatewayTokenError extends Error {
  override readonly name = 'GatewayTokenError';
  constructor(
    readonly code: 'TOKEN_EXPIRED' | 'TOKEN_INVALID',
    message: string,
  ) {
    super(message);
  }
}

export interface GatewaySession {
  token: string;
  userId: string;
  expiresAt: string;
}

/**
 * The tokens the gateway signs with its own secret (HS256): session tokens for people who arrive
 * through the upload form (they own what they upload), and signed media URLs for what a `<video>`
 * element or a download link fetches without headers (bound to one path and one owner).
 */
export class GatewayTokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly options: { sessionTtlSec: number; mediaTtlSec: number; now?: () => number },
  ) {
    if (secret.length < 32) throw new Error('GatewayTokens: the secret must be at least 32 characters');
    this.key = new TextEncoder().encode(secret);
  }

  private nowSec(): number {
    return Math.floor((this.options.now?.() ?? Date.now()) / 1000);
  }

  /** A new session; with `userId` (a refresh) the same owner continues. */
  async issueSession(userId = `${GATEWAY_SUBJECT_PREFIX}${randomUUID()}`): Promise<GatewaySession> {
    if (!userId.startsWith(GATEWAY_SUBJECT_PREFIX)) throw new Error('GatewayTokens: not a gateway subject');
    const now = this.nowSec();
    const exp = now + this.options.sessionTtlSec;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(GATEWAY_ISSUER)
      .setAudience(SESSION_AUDIENCE)
      .setSubject(userId)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, userId, expiresAt: new Date(exp * 1000).toISOString() };
  }

  /** The owner of a session token, or a GatewayTokenError. */
  async verifySession(token: string): Promise<{ userId: string; exp: number }> {
    const payload = await this.verify(token, SESSION_AUDIENCE, 'Your session has expired. Reload the page to start a new one.');
    if (!payload.sub?.startsWith(GATEWAY_SUBJECT_PREFIX)) throw new GatewayTokenError('TOKEN_INVALID', 'The session token is not valid.');
    return { userId: payload.sub, exp: payload.exp! };
  }

  /**
   * `path` with a token that lets `userId` GET exactly that path until at least `mediaTtlSec` from
   * now. The expiry is rounded up to the hour so the same URL comes back within that hour.
   */
  async signMediaPath(path: string, userId: string): Promise<string> {
    const exp = Math.ceil((this.nowSec() + this.options.mediaTtlSec) / MEDIA_BUCKET_SEC) * MEDIA_BUCKET_SEC;
    const token = await new SignJWT({ path })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(GATEWAY_ISSUER)
      .setAudience(MEDIA_AUDIENCE)
      .setSubject(userId)
      .setExpirationTime(exp)
      .sign(this.key);
    return `${path}${path.includes('?') ? '&' : '?'}${MEDIA_TOKEN_PARAM}=${token}`;
  }

  /** The owner a signed media URL was made for, when it was made for `path`. */
  async verifyMedia(token: string, path: string): Promise<{ userId: string }> {
    const payload = await this.verify(token, MEDIA_AUDIENCE, 'This link has expired. Reload the page to get a new one.');
    if (payload['path'] !== path || !payload.sub) throw new GatewayTokenError('TOKEN_INVALID', 'This link is not valid for this file.');
    return { userId: payload.sub };
  }

  private async verify(token: string, audience: string, expiredMessage: string) {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: GATEWAY_ISSUER,
        audience,
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'sub'],
        currentDate: new Date(this.nowSec() * 1000),
      });
      return payload;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new GatewayTokenError('TOKEN_EXPIRED', expiredMessage);
      throw new GatewayTokenError('TOKEN_INVALID', 'The session token is not valid.');
    }
  }
}
