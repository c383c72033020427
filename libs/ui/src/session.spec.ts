/** @jest-environment jsdom */
import type { QuotaUsage } from '@wordcut/contracts';
import {
  QUOTA_PATH,
  REFRESH_TOKEN_PATH,
  SESSION_TOKEN_KEY,
  bearerHeaders,
  getSessionToken,
  refreshSessionToken,
  refreshSessionUsage,
  sessionStore,
  startTokenRefresh,
} from './session';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A JWT-shaped token (the browser never verifies signatures; the gateway does). */
const jwt = (claims: Record<string, unknown>) => `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url(claims)}.c2lnbmF0dXJl`;

const claims = {
  sub: 'user-1',
  sessionId: 'sess-1',
  videoId: 'prov-video-1',
  plan: { tier: 'pro', quotas: { exportsPerDay: 5, exportsPerMonth: 40 } },
  usageSnapshot: { exportsToday: 2, exportsThisMonth: 33, nextResetTime: '2025-07-01T00:00:00.000Z' },
  languageCode: 'de',
  media: {
    videoUrl: 'https://cdn.example/v.mp4',
    vttUrl: 'https://cdn.example/v.vtt',
    wordBywordUrl: 'https://cdn.example/v.json',
    uploadUrlVideo: 'https://up.example/v',
    uploadUrlVtt: 'https://up.example/vtt',
    uploadUrlWordByword: 'https://up.example/wbw',
  },
  isClone: true,
};

const serverUsage: QuotaUsage = {
  exportsToday: 3,
  maxPerDay: 5,
  exportsThisMonth: 34,
  maxPerMonth: 40,
  nextDailyReset: '2025-06-11T00:00:00.000Z',
  nextMonthlyReset: '2025-07-01T00:00:00.000Z',
};

function refreshAnswer(newToken: string, extra: Record<string, unknown> = {}) {
  return { newToken, plan: { tier: 'business', quotas: { exportsPerDay: 10, exportsPerMonth: 100 } }, usage: serverUsage, ...extra };
}

/** A stub fetch answering from a queue (last answer repeats); records every call. */
function stubFetch(...answers: Array<() => Response | Promise<Response>>) {
  const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
  let i = 0;
  const fn = jest.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init });
    const answer = answers[Math.min(i++, answers.length - 1)]!;
    return answer();
  });
  return { fetch: fn as unknown as typeof fetch, calls };
}
/** A fetch answer (jsdom has no Response): what the code reads of one. */
const reply = (status: number, body: unknown): Response => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { ok: status >= 200 && status < 300, status, statusText: '', text: async () => text } as unknown as Response;
};
const json = (status: number, body: unknown) => () => reply(status, body);
/** Fetches that fail the common ways: a refusal, a network error, an answer of another shape. */
const failingFetches = (wrongShape: unknown): Array<typeof fetch> => [
  stubFetch(() => reply(401, 'expired')).fetch,
  stubFetch(() => {
    throw new TypeError('Failed to fetch');
  }).fetch,
  stubFetch(json(200, wrongShape)).fetch,
];

afterEach(() => {
  sessionStore.clear();
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('sessionStore.setToken', () => {
  it('decodes plan, usage, language, session, clone flag and media addresses from the token', () => {
    const token = jwt(claims);
    sessionStore.setToken(token);
    const s = sessionStore.get();
    expect(s.token).toBe(token);
    expect(s.plan).toEqual(claims.plan);
    expect(s.usage).toMatchObject({
      exportsToday: 2,
      maxPerDay: 5,
      exportsThisMonth: 33,
      maxPerMonth: 40,
      nextMonthlyReset: '2025-07-01T00:00:00.000Z',
    });
    expect(Date.parse(s.usage!.nextDailyReset)).toBeGreaterThan(Date.now());
    expect(s.languageCode).toBe('de');
    expect(s.sessionId).toBe('sess-1');
    expect(s.providerVideoId).toBe('prov-video-1');
    expect(s.isClone).toBe(true);
    expect(s.uploadUrls).toEqual({ video: 'https://up.example/v', vtt: 'https://up.example/vtt', wordByword: 'https://up.example/wbw' });
    expect(s.downloadUrls).toEqual({ video: 'https://cdn.example/v.mp4', vtt: 'https://cdn.example/v.vtt', wordByword: 'https://cdn.example/v.json' });
    expect(s.refreshedAt).toBeNull();
    expect(sessionStorage.getItem(SESSION_TOKEN_KEY)).toBe(token);
    expect(SESSION_TOKEN_KEY).toBe('wordcut_session_token');
  });

  it('lets `extra` override what the token says', () => {
    const plan = { tier: 'team', quotas: { exportsPerMonth: 7 } };
    sessionStore.setToken(jwt(claims), { plan, usage: serverUsage, languageCode: 'fr', uploadUrls: { video: 'https://up2.example/v' } });
    const s = sessionStore.get();
    expect(s.plan).toEqual(plan);
    expect(s.usage).toEqual(serverUsage);
    expect(s.languageCode).toBe('fr');
    expect(s.uploadUrls).toEqual({ video: 'https://up2.example/v' });
    expect(s.downloadUrls.video).toBe('https://cdn.example/v.mp4');
  });

  it('keeps an opaque (non-JWT) token with nothing decoded', () => {
    sessionStore.setToken('  opaque-token  ');
    expect(sessionStore.get()).toMatchObject({ token: 'opaque-token', plan: null, usage: null, sessionId: null, isClone: false, uploadUrls: {}, downloadUrls: {} });
    expect(getSessionToken()).toBe('opaque-token');
  });

  it('ignores a malformed claim without losing the others', () => {
    sessionStore.setToken(jwt({ ...claims, plan: 'gold', media: { videoUrl: 'not a url' } }));
    const s = sessionStore.get();
    expect(s.plan).toBeNull();
    expect(s.downloadUrls).toEqual({});
    expect(s.sessionId).toBe('sess-1');
    expect(s.usage).toMatchObject({ exportsThisMonth: 33, maxPerMonth: null });
  });

  it('refuses an empty token', () => {
    expect(() => sessionStore.setToken('  ')).toThrow('the token is empty');
  });

  it('notifies subscribers with a new snapshot, and clear() empties state and storage', () => {
    const seen: Array<string | null> = [];
    const unsubscribe = sessionStore.subscribe(() => seen.push(sessionStore.get().token));
    const before = sessionStore.get();
    sessionStore.setToken('t1');
    expect(sessionStore.get()).not.toBe(before);
    sessionStore.clear();
    unsubscribe();
    sessionStore.setToken('t2');
    expect(seen).toEqual(['t1', null]);
    sessionStore.clear();
    expect(sessionStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
    expect(sessionStore.get().token).toBeNull();
  });

  it('keeps the token in memory when sessionStorage refuses it', () => {
    jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    sessionStore.setToken('mem-token');
    expect(sessionStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
    expect(getSessionToken()).toBe('mem-token');
  });

  it('restores the stored token (and its claims) when the module loads', () => {
    const token = jwt(claims);
    sessionStorage.setItem(SESSION_TOKEN_KEY, token);
    jest.isolateModules(() => {
      const fresh = require('./session') as typeof import('./session');
      expect(fresh.getSessionToken()).toBe(token);
      expect(fresh.sessionStore.get()).toMatchObject({ sessionId: 'sess-1', plan: claims.plan });
    });
    sessionStorage.removeItem(SESSION_TOKEN_KEY);
  });
});

describe('bearerHeaders', () => {
  it('is the Authorization header of the current (or a given) token, {} without one', () => {
    expect(bearerHeaders()).toEqual({});
    sessionStore.setToken('abc');
    expect(bearerHeaders()).toEqual({ authorization: 'Bearer abc' });
    expect(bearerHeaders('xyz')).toEqual({ authorization: 'Bearer xyz' });
    expect(bearerHeaders(null)).toEqual({});
  });
});

describe('refreshSessionToken', () => {
  it('POSTs with the bearer token and cookies; an OK answer replaces the token and what the server says', async () => {
    const old = jwt(claims);
    const fresh = jwt({ ...claims, usageSnapshot: { exportsToday: 0, exportsThisMonth: 0 } });
    sessionStore.setToken(old);
    const api = stubFetch(json(200, refreshAnswer(fresh, { newDownloadUrls: { video: 'https://cdn2.example/v.mp4' }, languageCode: 'es' })));
    await expect(refreshSessionToken(api.fetch)).resolves.toBe(true);

    expect(api.calls).toHaveLength(1);
    expect(api.calls[0]!.url).toBe(REFRESH_TOKEN_PATH);
    expect(REFRESH_TOKEN_PATH).toBe('/api/wordcut/refresh-token');
    expect(api.calls[0]!.init).toMatchObject({ method: 'POST', credentials: 'include' });
    expect((api.calls[0]!.init!.headers as Record<string, string>).authorization).toBe(`Bearer ${old}`);

    const s = sessionStore.get();
    expect(s.token).toBe(fresh);
    expect(sessionStorage.getItem(SESSION_TOKEN_KEY)).toBe(fresh);
    expect(s.plan?.tier).toBe('business');
    expect(s.usage).toEqual(serverUsage); // the server's count wins over the token's snapshot
    expect(s.languageCode).toBe('es');
    expect(s.downloadUrls).toEqual({ video: 'https://cdn2.example/v.mp4' });
    // no newUploadUrls in the answer: the new token's media claims give them
    expect(s.uploadUrls.video).toBe('https://up.example/v');
    expect(s.refreshedAt).not.toBeNull();
  });

  it('keeps the media addresses of the same session when neither the answer nor the new token has them', async () => {
    sessionStore.setToken(jwt(claims));
    const { media: _media, ...withoutMedia } = claims;
    const api = stubFetch(json(200, refreshAnswer(jwt(withoutMedia))));
    await expect(refreshSessionToken(api.fetch)).resolves.toBe(true);
    expect(sessionStore.get().uploadUrls.vtt).toBe('https://up.example/vtt');
    expect(sessionStore.get().downloadUrls.vtt).toBe('https://cdn.example/v.vtt');
  });

  it('resolves false and changes nothing on a non-OK answer, a network error or a body it cannot read', async () => {
    sessionStore.setToken('t-old');
    const before = sessionStore.get();
    for (const f of failingFetches({ token: 'wrong shape' })) await expect(refreshSessionToken(f)).resolves.toBe(false);
    expect(sessionStore.get()).toBe(before);
  });

  it('without a token makes no call', async () => {
    const api = stubFetch(json(200, refreshAnswer('x')));
    await expect(refreshSessionToken(api.fetch)).resolves.toBe(false);
    expect(api.calls).toHaveLength(0);
  });

  it('drops an answer for a token that was replaced meanwhile (a clone set a new one)', async () => {
    sessionStore.setToken('t-before');
    let answer!: (r: Response) => void;
    const api = stubFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    const pending = refreshSessionToken(api.fetch);
    sessionStore.setToken('t-clone');
    answer(json(200, refreshAnswer('t-refreshed'))());
    await expect(pending).resolves.toBe(false);
    expect(getSessionToken()).toBe('t-clone');
  });

  it('shares one request between callers while it is under way', async () => {
    sessionStore.setToken('t-1');
    const api = stubFetch(json(200, refreshAnswer('t-2')));
    const [a, b] = await Promise.all([refreshSessionToken(api.fetch), refreshSessionToken(api.fetch)]);
    expect([a, b]).toEqual([true, true]);
    expect(api.calls).toHaveLength(1);
  });
});

describe('refreshSessionUsage', () => {
  it("GETs the server's count with the bearer token; it replaces the token's snapshot and nothing else", async () => {
    const token = jwt(claims);
    sessionStore.setToken(token);
    const before = sessionStore.get();
    expect(before.usage).toMatchObject({ exportsToday: 2, exportsThisMonth: 33 });
    const api = stubFetch(json(200, serverUsage));
    await expect(refreshSessionUsage(api.fetch)).resolves.toBe(true);
    expect(api.calls).toHaveLength(1);
    expect(api.calls[0]!.url).toBe(QUOTA_PATH);
    expect(QUOTA_PATH).toBe('/api/wordcut/quota');
    expect(api.calls[0]!.init?.method).toBeUndefined();
    expect((api.calls[0]!.init!.headers as Record<string, string>).authorization).toBe(`Bearer ${token}`);
    expect(sessionStore.get()).toEqual({ ...before, usage: serverUsage });
  });

  it('resolves false and keeps what is shown on a refusal, a network error or an answer of another shape', async () => {
    sessionStore.setToken(jwt(claims));
    const before = sessionStore.get();
    for (const f of failingFetches({ exportsToday: -1 })) await expect(refreshSessionUsage(f)).resolves.toBe(false);
    await expect(refreshSessionUsage(stubFetch(json(200, 'not json {')).fetch)).resolves.toBe(false);
    expect(sessionStore.get()).toBe(before);
  });

  it('without a token makes no call; an answer for a replaced token is dropped; callers share one request', async () => {
    const none = stubFetch(json(200, serverUsage));
    await expect(refreshSessionUsage(none.fetch)).resolves.toBe(false);
    expect(none.calls).toHaveLength(0);

    sessionStore.setToken('t-before');
    let answer!: (r: Response) => void;
    const slow = stubFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    const [a, b] = [refreshSessionUsage(slow.fetch), refreshSessionUsage(slow.fetch)];
    expect(slow.calls).toHaveLength(1);
    sessionStore.setToken('t-clone');
    answer(reply(200, serverUsage));
    await expect(Promise.all([a, b])).resolves.toEqual([false, false]);
    expect(sessionStore.get().usage).toBeNull();
  });
});

describe('startTokenRefresh (every 10 minutes, a silent retry 30 s after a failure)', () => {
  const MIN = 60_000;

  it('refreshes every 10 minutes and stores each new token', async () => {
    jest.useFakeTimers();
    sessionStore.setToken('t-0');
    let n = 0;
    const api = stubFetch(() => json(200, refreshAnswer(`t-${++n}`))());
    const stop = startTokenRefresh({ fetchImpl: api.fetch });
    await jest.advanceTimersByTimeAsync(10 * MIN - 1);
    expect(api.calls).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(api.calls).toHaveLength(1);
    expect(getSessionToken()).toBe('t-1');
    expect(sessionStorage.getItem(SESSION_TOKEN_KEY)).toBe('t-1');
    await jest.advanceTimersByTimeAsync(10 * MIN);
    expect(api.calls).toHaveLength(2);
    // the second refresh presented the first refreshed token
    expect((api.calls[1]!.init!.headers as Record<string, string>).authorization).toBe('Bearer t-1');
    expect(getSessionToken()).toBe('t-2');
    stop();
    await jest.advanceTimersByTimeAsync(30 * MIN);
    expect(api.calls).toHaveLength(2);
  });

  it('retries a failed refresh after 30 s, then the normal cadence resumes', async () => {
    jest.useFakeTimers();
    sessionStore.setToken('t-0');
    const api = stubFetch(
      () => reply(503, 'busy'),
      json(200, refreshAnswer('t-1')),
      json(200, refreshAnswer('t-2')),
    );
    const stop = startTokenRefresh({ fetchImpl: api.fetch });
    await jest.advanceTimersByTimeAsync(10 * MIN);
    expect(api.calls).toHaveLength(1);
    expect(getSessionToken()).toBe('t-0');
    await jest.advanceTimersByTimeAsync(30_000 - 1);
    expect(api.calls).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(api.calls).toHaveLength(2);
    expect(getSessionToken()).toBe('t-1');
    await jest.advanceTimersByTimeAsync(10 * MIN - 1);
    expect(api.calls).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(api.calls).toHaveLength(3);
    stop();
  });

  it('a failed retry does not retry again at once: the next try is 10 minutes later', async () => {
    jest.useFakeTimers();
    sessionStore.setToken('t-0');
    const api = stubFetch(() => reply(401, ''));
    const stop = startTokenRefresh({ fetchImpl: api.fetch });
    await jest.advanceTimersByTimeAsync(10 * MIN + 30_000);
    expect(api.calls).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(10 * MIN - 1);
    expect(api.calls).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(api.calls).toHaveLength(3);
    await jest.advanceTimersByTimeAsync(30_000);
    expect(api.calls).toHaveLength(4);
    expect(getSessionToken()).toBe('t-0');
    stop();
  });

  it('does nothing while there is no token, and starts refreshing once there is one', async () => {
    jest.useFakeTimers();
    const api = stubFetch(json(200, refreshAnswer('t-1')));
    const stop = startTokenRefresh({ fetchImpl: api.fetch, intervalMs: 1000, retryMs: 100 });
    await jest.advanceTimersByTimeAsync(5000);
    expect(api.calls).toHaveLength(0);
    sessionStore.setToken('t-0');
    await jest.advanceTimersByTimeAsync(1000);
    expect(api.calls).toHaveLength(1);
    expect(getSessionToken()).toBe('t-1');
    stop();
  });
});
