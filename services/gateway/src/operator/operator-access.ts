import { ErrorCode, OPERATOR_ACCESS_DENIED } from '@wordcut/contracts';
import { AppError } from '@wordcut/platform';
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { RateLimitStore } from '../limits/limits';
import type { OperatorSessionStore } from './operator-session-store';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;

/** scrypt cost: ~50 ms and 16 MiB per attempt on one core. */
const SCRYPT = { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;
/** The throttle's window: failed logins per client address per 15 minutes. */
const FAILURE_WINDOW_SEC = 15 * 60;

export interface OperatorSession {
  idHash: string;
  csrfToken: string;
  expiresAt: Date;
}

export interface OperatorAccessOptions {
  /** the configured password; null: nobody can sign in */
  password: string | null;
  sessionTtlSec: number;
  failuresPerWindow: number;
}

/** An equal-length, constant-time comparison of two strings. */
export function sameSecret(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}

export const hashSessionId = (sessionId: string): string => createHash('sha256').update(sessionId).digest('hex');

const denied = () => new AppError(401, ErrorCode.Unauthorized, OPERATOR_ACCESS_DENIED);

/**
 * The operator's sign-in: the configured password is kept only as an scrypt hash (made at start
 * with a random salt) and a login compares hashes in constant time. A session is a random secret
 * in an httpOnly cookie; the database keeps its SHA-256 and the session's CSRF token. Failed
 * logins count per client address; beyond the limit every login of that client is refused with
 * the same words as a wrong password, until the window ends.
 */
export class OperatorAccess {
  private readonly hash: Promise<{ salt: Buffer; key: Buffer } | null>;

  constructor(
    private readonly sessions: OperatorSessionStore,
    private readonly rateLimits: RateLimitStore,
    private readonly options: OperatorAccessOptions,
  ) {
    const salt = randomBytes(16);
    this.hash = options.password === null ? Promise.resolve(null) : scryptAsync(options.password, salt, KEY_LENGTH, SCRYPT).then((key) => ({ salt, key }));
  }

  /** Signs in: a new session, or 401 (429 when throttled) with the generic refusal. */
  async login(password: string, client: string, now: Date = new Date()): Promise<{ sessionId: string; session: OperatorSession }> {
    const throttleKey = `operator-login:ip:${client}`;
    if ((await this.rateLimits.count(throttleKey, FAILURE_WINDOW_SEC, now)) >= this.options.failuresPerWindow) {
      // refused before the password is looked at, with the same words
      await this.rateLimits.hit(throttleKey, this.options.failuresPerWindow, FAILURE_WINDOW_SEC, OPERATOR_ACCESS_DENIED, now);
    }
    if (!(await this.matches(password))) {
      await this.rateLimits.hit(throttleKey, this.options.failuresPerWindow, FAILURE_WINDOW_SEC, OPERATOR_ACCESS_DENIED, now);
      throw denied();
    }
    const sessionId = randomBytes(32).toString('base64url');
    const session: OperatorSession = {
      idHash: hashSessionId(sessionId),
      csrfToken: randomBytes(32).toString('base64url'),
      expiresAt: new Date(now.getTime() + this.options.sessionTtlSec * 1000),
    };
    await this.sessions.create({ ...session, client });
    await this.sessions.prune(now);
    return { sessionId, session };
  }

  /** The live session a cookie value names, or null. */
  async session(sessionId: string | undefined, now: Date = new Date()): Promise<OperatorSession | null> {
    if (!sessionId || sessionId.length > 200) return null;
    const row = await this.sessions.find(hashSessionId(sessionId), now);
    return row ? { idHash: row.id_hash, csrfToken: row.csrf_token, expiresAt: new Date(row.expires_at) } : null;
  }

  /** Ends a session server-side (the cookie alone no longer opens anything). */
  async logout(session: OperatorSession): Promise<void> {
    await this.sessions.delete(session.idHash);
  }

  private async matches(password: string): Promise<boolean> {
    const stored = await this.hash;
    // an unset password still costs one hash, so timing says nothing about the configuration
    const salt = stored?.salt ?? randomBytes(16);
    const key = await scryptAsync(password, salt, KEY_LENGTH, SCRYPT);
    return stored !== null && timingSafeEqual(key, stored.key);
  }
}
