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

/** What a verified session token says: its owner, its expiry and when the session began (its `iat`, kept by every refresh). */
export interface VerifiedGatewaySession {
  userId: string;
  exp: number;
  startedAt: number;
}

const LIFETIME_OVER = 'Your session has reached its maximum lifetime. Reload the page to start a new one.';

/**
 * The tokens the gateway signs with its own secret (HS256): session tokens for people who arrive
 * through the upload form (they own what they upload), and signed media URLs for what a `<video>`
 * element or a download link fetches without headers (bound to one path and one owner).
 */
export class GatewayTokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly options: { sessionTtlSec: number; sessionMaxLifetimeSec: number; mediaTtlSec: number; now?: () => number },
  ) {
    if (secret.length < 32) throw new Error('GatewayTokens: the secret must be at least 32 characters');
    this.key = new TextEncoder().encode(secret);
  }

  private nowSec(): number {
    return Math.floor((this.options.now?.() ?? Date.now()) / 1000);
  }

  /** A new session. */
  async issueSession(): Promise<GatewaySession> {
    const now = this.nowSec();
    return this.sign(`${GATEWAY_SUBJECT_PREFIX}${randomUUID()}`, now, now);
  }

  /**
   * The same session with a new expiry: it keeps its start (`iat`) and never outlives
   * `sessionMaxLifetimeSec` from it; past that, a GatewayTokenError (TOKEN_EXPIRED).
   */
  async refreshSession(session: Pick<VerifiedGatewaySession, 'userId' | 'startedAt'>): Promise<GatewaySession> {
    if (!session.userId.startsWith(GATEWAY_SUBJECT_PREFIX)) throw new Error('GatewayTokens: not a gateway subject');
    const now = this.nowSec();
    if (now >= this.lifetimeEnd(session.startedAt)) throw new GatewayTokenError('TOKEN_EXPIRED', LIFETIME_OVER);
    return this.sign(session.userId, session.startedAt, now);
  }

  private lifetimeEnd(startedAt: number): number {
    return startedAt + this.options.sessionMaxLifetimeSec;
  }

  private async sign(userId: string, startedAt: number, now: number): Promise<GatewaySession> {
    const exp = Math.min(now + this.options.sessionTtlSec, this.lifetimeEnd(startedAt));
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(GATEWAY_ISSUER)
      .setAudience(SESSION_AUDIENCE)
      .setSubject(userId)
      .setIssuedAt(startedAt)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, userId, expiresAt: new Date(exp * 1000).toISOString() };
  }

  /** The owner of a session token, or a GatewayTokenError (also once the session is past its maximum lifetime). */
  async verifySession(token: string): Promise<VerifiedGatewaySession> {
    const payload = await this.verify(token, SESSION_AUDIENCE, 'Your session has expired. Reload the page to start a new one.', ['exp', 'sub', 'iat']);
    if (!payload.sub?.startsWith(GATEWAY_SUBJECT_PREFIX)) throw new GatewayTokenError('TOKEN_INVALID', 'The session token is not valid.');
    if (this.nowSec() >= this.lifetimeEnd(payload.iat!)) throw new GatewayTokenError('TOKEN_EXPIRED', LIFETIME_OVER);
    return { userId: payload.sub, exp: payload.exp!, startedAt: payload.iat! };
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

  private async verify(token: string, audience: string, expiredMessage: string, requiredClaims = ['exp', 'sub']) {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: GATEWAY_ISSUER,
        audience,
        algorithms: ['HS256'],
        requiredClaims,
        currentDate: new Date(this.nowSec() * 1000),
      });
      return payload;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new GatewayTokenError('TOKEN_EXPIRED', expiredMessage);
      throw new GatewayTokenError('TOKEN_INVALID', 'The session token is not valid.');
    }
  }
}
