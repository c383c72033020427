import { OPERATOR_ACCESS_DENIED } from '@wordcut/contracts';
import { AppError } from '@wordcut/platform';
import { tooManyRequests, type RateLimitStore } from '../limits/limits';
import { cookieValue } from '../auth/identity.guard';
import { hashSessionId, OperatorAccess, sameSecret } from './operator-access';
import type { OperatorSessionRow, OperatorSessionStore } from './operator-session-store';

/** Sessions in memory, keyed by the hash like the table. */
class MemorySessions {
  readonly rows = new Map<string, OperatorSessionRow>();
  async create(s: { idHash: string; csrfToken: string; client: string; expiresAt: Date }) {
    this.rows.set(s.idHash, { id_hash: s.idHash, csrf_token: s.csrfToken, client: s.client, created_at: new Date(), expires_at: s.expiresAt });
  }
  async find(idHash: string, now = new Date()) {
    const row = this.rows.get(idHash);
    return row && row.expires_at > now ? row : null;
  }
  async delete(idHash: string) {
    return this.rows.delete(idHash);
  }
  async prune() {
    return 0;
  }
}

/** Fixed-window counters in memory with the store's refusal. */
class MemoryLimits {
  readonly counts = new Map<string, number>();
  async count(key: string) {
    return this.counts.get(key) ?? 0;
  }
  async hit(key: string, limit: number, _windowSec: number, message: string) {
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    if (n > limit) throw tooManyRequests(message, 60);
  }
}

const PASSWORD = 'correct horse battery';

function access(password: string | null = PASSWORD) {
  const sessions = new MemorySessions();
  const limits = new MemoryLimits();
  const subject = new OperatorAccess(sessions as unknown as OperatorSessionStore, limits as unknown as RateLimitStore, { password, sessionTtlSec: 3600, failuresPerWindow: 3 });
  return { subject, sessions, limits };
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('OperatorAccess', () => {
  it('signs in with the password: a session whose id only the cookie holds (the store keeps its hash)', async () => {
    const { subject, sessions } = access();
    const now = new Date('2026-01-01T00:00:00Z');
    const { sessionId, session } = await subject.login(PASSWORD, '10.0.0.1', now);
    expect(sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect([...sessions.rows.keys()]).toEqual([hashSessionId(sessionId)]);
    expect(session.csrfToken).not.toBe(sessionId);
    expect(session.expiresAt.toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(await subject.session(sessionId, now)).toEqual(session);
    expect(await subject.session(sessionId, new Date('2026-01-01T01:00:01Z'))).toBeNull();
  });

  it('refuses a wrong password with the generic words, and counts the failure', async () => {
    const { subject, limits } = access();
    const err = await refusal(subject.login('wrong', '10.0.0.2'));
    expect([err.statusCode, err.message]).toEqual([401, OPERATOR_ACCESS_DENIED]);
    expect(await limits.count('operator-login:ip:10.0.0.2')).toBe(1);
  });

  it('throttles a client after the allowed failures, even with the right password, with the same words', async () => {
    const { subject } = access();
    for (let i = 0; i < 3; i++) expect((await refusal(subject.login(`wrong ${i}`, '10.0.0.3'))).statusCode).toBe(401);
    const throttled = await refusal(subject.login(PASSWORD, '10.0.0.3'));
    expect([throttled.statusCode, throttled.message]).toEqual([429, OPERATOR_ACCESS_DENIED]);
    // other clients are not affected
    await expect(subject.login(PASSWORD, '10.0.0.4')).resolves.toMatchObject({ session: expect.any(Object) });
  });

  it('lets nobody in when no password is configured', async () => {
    const { subject } = access(null);
    expect((await refusal(subject.login(PASSWORD, '10.0.0.5'))).message).toBe(OPERATOR_ACCESS_DENIED);
    expect((await refusal(subject.login('', '10.0.0.5'))).statusCode).toBe(401);
  });

  it('ends the session server-side on logout', async () => {
    const { subject } = access();
    const { sessionId, session } = await subject.login(PASSWORD, '10.0.0.6');
    await subject.logout(session);
    expect(await subject.session(sessionId)).toBeNull();
    expect(await subject.session(undefined)).toBeNull();
    expect(await subject.session('x'.repeat(500))).toBeNull();
  });
});

describe('sameSecret and cookieValue', () => {
  it('compares secrets of any length without throwing', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abc', 'abcd')).toBe(false);
    expect(sameSecret('', 'abc')).toBe(false);
  });

  it('reads one cookie from a Cookie header', () => {
    expect(cookieValue('a=1; wordcut_operator=s%3Dx; b=2', 'wordcut_operator')).toBe('s=x');
    expect(cookieValue('wordcut_operator_old=1', 'wordcut_operator')).toBeUndefined();
    expect(cookieValue(undefined, 'wordcut_operator')).toBeUndefined();
    expect(cookieValue('wordcut_operator=%E0%A4%A', 'wordcut_operator')).toBeUndefined();
  });
});

