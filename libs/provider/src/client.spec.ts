/**
 * The client's pure rules (Retry-After, the 308 Range) and its retry decisions (the curve is libs/contracts retry.ts). The retry
 * decisions are driven through a scripted fetch so the waits can be read exactly (the behaviour
 * against a real provider is client.int.spec.ts, against the sandbox).
 */
import { HttpProviderClient, nextOffsetFromRange, parseRetryAfter, ProviderError } from './client';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 120 ', now)).toBe(120);
  });
  it('reads an HTTP date as the seconds until it (rounded up), never negative', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter(new Date(now + 1500).toUTCString(), now)).toBe(1);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
  });
  it('ignores absent and unreadable values', () => {
    for (const v of [undefined, null, '', 'soon', '-5', '1.5']) expect(parseRetryAfter(v, now)).toBeUndefined();
  });
});

describe('nextOffsetFromRange', () => {
  it('is one past the last byte the provider holds; nothing held without a Range', () => {
    expect(nextOffsetFromRange('bytes=0-1048575')).toBe(1048576);
    expect(nextOffsetFromRange('bytes=0-0')).toBe(1);
    expect(nextOffsetFromRange(null)).toBe(0);
    expect(nextOffsetFromRange('bytes=5-9')).toBe(0);
  });
});

describe('HttpProviderClient retries', () => {
  type Scripted = { status: number; headers?: Record<string, string>; body?: string } | Error;

  function client(script: Scripted[], o: { attempts?: number; maxDelayMs?: number } = {}) {
    const calls: string[] = [];
    const sleeps: number[] = [];
    const fetchImpl = (async (url: string | URL | Request) => {
      calls.push(String(url));
      const next = script.shift();
      if (!next) throw new Error('no more scripted answers');
      if (next instanceof Error) throw new TypeError('fetch failed', { cause: next });
      return new Response(next.body ?? null, { status: next.status, headers: next.headers });
    }) as typeof fetch;
    const c = new HttpProviderClient({
      apiUrl: 'http://provider.test/',
      fetchImpl,
      sleep: async (ms) => void sleeps.push(ms),
      random: () => 0.5,
      retry: { tries: o.attempts ?? 5, baseMs: 100, maxMs: o.maxDelayMs ?? 30_000 },
    });
    return { c, calls, sleeps };
  }
  const ok = { status: 200, body: JSON.stringify({ token: 'new', media: { videoUrl: 'http://provider.test/media/a.mp4' } }) };

  it('retries 5xx and network errors with jittered exponential backoff', async () => {
    const { c, calls, sleeps } = client([{ status: 503 }, Object.assign(new Error('reset'), { code: 'ECONNRESET' }), { status: 500 }, ok]);
    await expect(c.refreshToken('t')).resolves.toEqual({ token: 'new', media: { videoUrl: 'http://provider.test/media/a.mp4' } });
    expect(calls).toEqual(Array(4).fill('http://provider.test/api/token/refresh'));
    expect(sleeps).toEqual([50, 100, 200]);
  });

  it('waits at least Retry-After on 429 and 503 (seconds or HTTP date)', async () => {
    const date = new Date(Date.now() + 4000).toUTCString();
    const { c, sleeps } = client([{ status: 429, headers: { 'retry-after': '7' } }, { status: 503, headers: { 'retry-after': date } }, ok]);
    await c.refreshToken('t');
    expect(sleeps[0]).toBe(7000);
    expect(sleeps[1]).toBeGreaterThanOrEqual(3000);
    expect(sleeps[1]).toBeLessThanOrEqual(5000);
  });

  it('does not retry 401, 403 or other 4xx, and names the code', async () => {
    for (const [status, code, body] of [
      [401, 'unauthorized', ''],
      [403, 'forbidden', ''],
      [409, 'already_clone', JSON.stringify({ error: 'already_clone', message: 'This video is already a clone' })],
      [400, 'bad_request', 'nope'],
    ] as const) {
      const { c, calls, sleeps } = client([{ status, body }]);
      const e = await c.cloneVideo('t').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ProviderError);
      expect(e).toMatchObject({ status, code, transient: false });
      expect(calls).toHaveLength(1);
      expect(sleeps).toEqual([]);
    }
  });

  it('gives up after the configured tries with the last error, still marked transient', async () => {
    const { c, calls } = client([{ status: 502 }, { status: 502 }, { status: 502 }], { attempts: 3 });
    const e = (await c.refreshToken('t').catch((x: unknown) => x)) as ProviderError;
    expect(e).toMatchObject({ status: 502, code: 'provider_unavailable', transient: true });
    expect(e.message).toMatch(/gave up after 3 tries/);
    expect(calls).toHaveLength(3);
  });

  it('hands a Retry-After longer than it would ever wait back to the caller', async () => {
    const { c, calls } = client([{ status: 429, headers: { 'retry-after': '3600' } }], { maxDelayMs: 10_000 });
    await expect(c.refreshToken('t')).rejects.toMatchObject({ code: 'rate_limited', retryAfterSec: 3600, transient: true });
    expect(calls).toHaveLength(1);
  });

  it('sends one Idempotency-Key for every try of a clone', async () => {
    const keys: (string | null)[] = [];
    const answers = [{ status: 503 }, { status: 200, body: JSON.stringify({ token: 'c', sessionId: 's2', videoId: 'v2' }) }];
    const c = new HttpProviderClient({
      apiUrl: 'http://provider.test',
      sleep: async () => undefined,
      fetchImpl: (async (_u: unknown, init?: RequestInit) => {
        keys.push(new Headers(init?.headers).get('idempotency-key'));
        const a = answers.shift()!;
        return new Response(a.body ?? null, { status: a.status });
      }) as typeof fetch,
    });
    await expect(c.cloneVideo('t')).resolves.toEqual({ token: 'c', sessionId: 's2', videoId: 'v2' });
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  describe('resuming a stored upload session', () => {
    const source = { size: 10, contentType: 'text/vtt', open: async () => (await import('node:stream')).Readable.from([Buffer.alloc(10)]) };
    const done = { status: 200, body: JSON.stringify({ uploadId: 'up_1', providerVideoId: 'pv', bytes: 10 }) };

    it('starts a new session when the provider says the stored one is gone (410)', async () => {
      const { c, calls } = client([{ status: 410 }, { status: 200, headers: { location: '/uploads/resumable/up_1' } }, done]);
      const sessions: string[] = [];
      const r = await c.upload({ token: 't', url: 'http://provider.test/uploads/s/vtt', source, resumeUri: 'http://provider.test/uploads/resumable/up_0', onSession: (uri) => void sessions.push(uri) });
      expect(r).toMatchObject({ uploadId: 'up_1', resumedFrom: [] });
      expect(calls).toEqual(['http://provider.test/uploads/resumable/up_0', 'http://provider.test/uploads/s/vtt?uploadType=resumable', 'http://provider.test/uploads/resumable/up_1']);
      expect(sessions).toEqual(['http://provider.test/uploads/resumable/up_1']);
    });

    it('answers the result when the stored session already holds every byte', async () => {
      const { c, calls } = client([done]);
      const r = await c.upload({ token: 't', url: 'http://provider.test/uploads/s/vtt', source, resumeUri: 'http://provider.test/uploads/resumable/up_1' });
      expect(r).toMatchObject({ uploadId: 'up_1', bytes: 10 });
      expect(calls).toEqual(['http://provider.test/uploads/resumable/up_1']);
    });

    it('fails on any other refusal of the stored session', async () => {
      const { c, calls } = client([{ status: 400, body: 'the upload failed' }]);
      await expect(c.upload({ token: 't', url: 'http://provider.test/uploads/s/vtt', source, resumeUri: 'http://provider.test/uploads/resumable/up_1' })).rejects.toMatchObject({ status: 400, transient: false });
      expect(calls).toHaveLength(1);
    });
  });

  it('builds upload URLs from the API URL', () => {
    const { c } = client([]);
    expect(c.clipUploadUrl('s 1/x')).toBe('http://provider.test/uploads/s%201%2Fx/clip');
    expect(c.uploadUrl('abc', 'wordByword')).toBe('http://provider.test/uploads/abc/wordByword');
  });

  it('refuses a chunk size that is not a multiple of 256 KiB', () => {
    expect(() => new HttpProviderClient({ apiUrl: 'http://p', chunkSize: 1000 })).toThrow(/256 KiB/);
    expect(() => new HttpProviderClient({ apiUrl: 'http://p', chunkSize: 512 * 1024 })).not.toThrow();
  });
});
