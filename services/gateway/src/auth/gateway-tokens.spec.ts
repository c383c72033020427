import { GATEWAY_SUBJECT_PREFIX, GatewayTokenError, GatewayTokens } from './gateway-tokens';

const SECRET = 'a-test-secret-of-at-least-32-characters!';

describe('GatewayTokens', () => {
  let now = Date.UTC(2026, 10, 26, 12, 10, 0);
  const tokens = new GatewayTokens(SECRET, { sessionTtlSec: 3600, mediaTtlSec: 4 * 3600, now: () => now });

  it('refuses a short secret', () => {
    expect(() => new GatewayTokens('short', { sessionTtlSec: 60, mediaTtlSec: 60 })).toThrow(/at least 32/);
  });

  it('issues sessions for new owners, refreshes the same owner, and refuses them once expired', async () => {
    now = Date.UTC(2026, 10, 26, 12, 10, 0);
    const a = await tokens.issueSession();
    expect(a.userId.startsWith(GATEWAY_SUBJECT_PREFIX)).toBe(true);
    expect(a.expiresAt).toBe('2026-11-26T13:10:00.000Z');
    await expect(tokens.verifySession(a.token)).resolves.toMatchObject({ userId: a.userId });
    const again = await tokens.issueSession(a.userId);
    expect(again.userId).toBe(a.userId);
    expect((await tokens.issueSession()).userId).not.toBe(a.userId);
    await expect(tokens.issueSession('provider-user')).rejects.toThrow(/not a gateway subject/);
    now += 2 * 3600 * 1000;
    await expect(tokens.verifySession(a.token)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
  });

  it('refuses a session signed with another secret, and a media token used as a session', async () => {
    now = Date.UTC(2026, 10, 26, 12, 10, 0);
    const other = new GatewayTokens('another-secret-of-at-least-32-chars!!', { sessionTtlSec: 3600, mediaTtlSec: 3600, now: () => now });
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
