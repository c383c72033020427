import { GATEWAY_SUBJECT_PREFIX, GatewayTokenError, GatewayTokens } from './gateway-tokens';

const SECRET = 'a-test-secret-of-at-least-32-characters!';

describe('GatewayTokens', () => {
  let now = Date.UTC(2026, 10, 26, 12, 10, 0);
  const tokens = new GatewayTokens(SECRET, { sessionTtlSec: 3600, sessionMaxLifetimeSec: 7 * 24 * 3600, mediaTtlSec: 4 * 3600, now: () => now });

  it('refuses a short secret', () => {
    expect(() => new GatewayTokens('short', { sessionTtlSec: 60, sessionMaxLifetimeSec: 600, mediaTtlSec: 60 })).toThrow(/at least 32/);
  });

  it('issues sessions for new owners, refreshes the same owner, and refuses them once expired', async () => {
    now = Date.UTC(2026, 10, 26, 12, 10, 0);
    const a = await tokens.issueSession();
    expect(a.userId.startsWith(GATEWAY_SUBJECT_PREFIX)).toBe(true);
    expect(a.expiresAt).toBe('2026-11-26T13:10:00.000Z');
    const verified = await tokens.verifySession(a.token);
    expect(verified).toMatchObject({ userId: a.userId, startedAt: now / 1000 });
    const again = await tokens.refreshSession(verified);
    expect(again.userId).toBe(a.userId);
    expect((await tokens.issueSession()).userId).not.toBe(a.userId);
    await expect(tokens.refreshSession({ userId: 'provider-user', startedAt: now / 1000 })).rejects.toThrow(/not a gateway subject/);
    now += 2 * 3600 * 1000;
    await expect(tokens.verifySession(a.token)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
  });

  it('keeps the start of a session through refreshes and ends it at its maximum lifetime, however often it is refreshed', async () => {
    const start = Date.UTC(2026, 10, 26, 12, 0, 0);
    now = start;
    const lifetime = new GatewayTokens(SECRET, { sessionTtlSec: 3600, sessionMaxLifetimeSec: 3 * 3600, mediaTtlSec: 3600, now: () => now });
    let session = await lifetime.issueSession();
    // refreshed every 10 minutes, as the page does
    for (let minute = 10; minute < 3 * 60; minute += 10) {
      now = start + minute * 60_000;
      const verified = await lifetime.verifySession(session.token);
      expect(verified.startedAt).toBe(start / 1000);
      session = await lifetime.refreshSession(verified);
      expect(Date.parse(session.expiresAt)).toBeLessThanOrEqual(start + 3 * 3600_000);
    }
    expect(session.expiresAt).toBe(new Date(start + 3 * 3600_000).toISOString());
    now = start + 3 * 3600_000;
    await expect(lifetime.verifySession(session.token)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
    await expect(lifetime.refreshSession({ userId: session.userId, startedAt: start / 1000 })).rejects.toMatchObject({ code: 'TOKEN_EXPIRED', message: expect.stringMatching(/maximum lifetime/) });
  });

  it('refuses a session signed with another secret, and a media token used as a session', async () => {
    now = Date.UTC(2026, 10, 26, 12, 10, 0);
    const other = new GatewayTokens('another-secret-of-at-least-32-chars!!', { sessionTtlSec: 3600, sessionMaxLifetimeSec: 7 * 24 * 3600, mediaTtlSec: 3600, now: () => now });
    await expect(tokens.verifySession((await other.issueSession()).token)).rejects.toBeInstanceOf(GatewayTokenError);
    const url = await tokens.signMediaPath('/api/videos/v1/stream/processed', 'wordcut:u1');
    const st = new URL(url, 'http://x').searchParams.get('st')!;
    await expect(tokens.verifySession(st)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('signs a media path for one owner: valid for that path only, the same URL within the hour, then expired', async () => {
    now = Date.UTC(2026, 10, 26, 12, 10, 0);
    const path = '/api/videos/v1/stream/processed';
    const url = await tokens.signMediaPath(path, 'wordcut:u1');
    const st = new URL(url, 'http://x').searchParams.get('st')!;
    await expect(tokens.verifyMedia(st, path)).resolves.toEqual({ userId: 'wordcut:u1' });
    await expect(tokens.verifyMedia(st, '/api/videos/v2/stream/processed')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    now += 40 * 60 * 1000;
    expect(await tokens.signMediaPath(path, 'wordcut:u1')).toBe(url);
    // valid at least the configured 4 hours from when it was issued, at most one hour more
    now = Date.UTC(2026, 10, 26, 16, 9, 0);
    await expect(tokens.verifyMedia(st, path)).resolves.toEqual({ userId: 'wordcut:u1' });
    now = Date.UTC(2026, 10, 26, 17, 1, 0);
    await expect(tokens.verifyMedia(st, path)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
  });
});
