/**
 * SafeFetcher against the provider sandbox (a real HTTP server on 127.0.0.1). Every refused URL is
 * refused before any connection is made: the private-address cases never leave this process.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { Readable } from 'node:stream';
import { startProviderSandbox } from '../../../tools/provider-sandbox/sandbox';
import { sandboxWithMediaForSpec } from '../../../tools/testing/provider-sandbox';
import { FetchFailedError, SafeFetcher, UnsafeUrlError, type SafeFetcherOptions } from './safe-fetch';

const CLIP = randomBytes(64 * 1024);
const BIG = randomBytes(300 * 1024);
const served = sandboxWithMediaForSpec('provider-fetch-', { 'clip.mp4': CLIP, 'big.bin': BIG, 'clip.vtt': 'WEBVTT\n\n00:00.000 --> 00:01.000\nhi\n' });
let port: number;
/** the sandbox as a media host reached by name: allow-listed and trusted to be on loopback */
let viaLocalhost: string;

beforeAll(() => {
  port = Number(new URL(served.sandbox.url).port);
  viaLocalhost = `http://localhost:${port}`;
});

const trustedSandbox = (extra: Partial<SafeFetcherOptions> = {}): SafeFetcher =>
  new SafeFetcher({ allowedHosts: [`localhost:${port}`], trustedPrivateHosts: ['localhost'], timeoutMs: 5000, ...extra });

async function failure(p: Promise<unknown>): Promise<UnsafeUrlError | FetchFailedError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof UnsafeUrlError || e instanceof FetchFailedError) return e;
    throw e;
  }
  throw new Error('the fetch succeeded');
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('refused before connecting', () => {
  it('refuses loopback, link-local (cloud metadata), IPv6 loopback and IPv4-mapped literals even when allow-listed', async () => {
    const f = new SafeFetcher({
      allowedHosts: [`127.0.0.1:${port}`, '169.254.169.254', '[::1]', '::ffff:7f00:1', '127.0.0.1'],
    });
    const cases: [string, RegExp][] = [
      [`http://127.0.0.1:${port}/media/clip.mp4`, /127\.0\.0\.1:\d+ is not allowed: it resolves to a loopback address/],
      ['http://169.254.169.254/latest/meta-data', /169\.254\.169\.254 is not allowed: it resolves to a linkLocal address/],
      ['http://[::1]/', /\[::1\] is not allowed: it resolves to a loopback address/],
      ['http://[::ffff:127.0.0.1]/', /loopback/],
      // numeric host spellings are normalised by the URL parser before any check
      ['http://2130706433/', /127\.0\.0\.1 is not allowed: .*loopback/],
      ['http://0x7f.1/', /loopback/],
    ];
    for (const [url, message] of cases) {
      const err = await failure(f.get(url));
      expect(err).toBeInstanceOf(UnsafeUrlError);
      expect(err).toMatchObject({ code: 'PRIVATE_ADDRESS' });
      expect(err.message).toMatch(message);
    }
  });

  it('refuses a host name that resolves to loopback unless it is trusted', async () => {
    const f = new SafeFetcher({ allowedHosts: ['localhost'] });
    const err = await failure(f.get(`${viaLocalhost}/media/clip.mp4`));
    expect(err).toMatchObject({ code: 'PRIVATE_ADDRESS' });
    expect(err.message).toContain(`localhost:${port}`);
    expect((await failure(f.get('http://localhost/'))).code).toBe('PRIVATE_ADDRESS');
  });

  it('refuses hosts and ports that are not allow-listed', async () => {
    const f = trustedSandbox();
    for (const url of ['https://media.example.com/v.mp4', `http://localhost:${port + 1}/media/clip.mp4`, 'http://localhost/media/clip.mp4', `http://127.0.0.1:${port}/media/clip.mp4`]) {
      const err = await failure(f.get(url));
      expect(err).toMatchObject({ code: 'HOST_NOT_ALLOWED' });
      expect(err.message).toMatch(/^Importing media from \S+ is not allowed\.$/);
    }
  });

  it('refuses other schemes, credentials in the URL and unparseable URLs, never echoing secrets', async () => {
    const f = new SafeFetcher({ allowedHosts: ['localhost', 'ftp.example.com'], trustedPrivateHosts: ['localhost'] });
    const cases: [string, RegExp][] = [
      ['file:///etc/passwd', /Only http and https .* \(got file\)/],
      ['ftp://ftp.example.com/v.mp4', /got ftp/],
      ['gopher://localhost:70/', /got gopher/],
      [`http://user:hunter2@localhost:${port}/media/clip.mp4?sig=s3cr3t`, /must not carry credentials \(host localhost:\d+\)/],
      [`http://:hunter2@localhost:${port}/media/clip.mp4`, /must not carry credentials/],
      ['not a url?sig=s3cr3t', /The media URL is not a valid URL\./],
    ];
    for (const [url, message] of cases) {
      const err = await failure(f.get(url));
      expect(err).toMatchObject({ code: 'URL_INVALID' });
      expect(err.message).toMatch(message);
      expect(err.message).not.toMatch(/hunter2|s3cr3t/);
    }
  });
});

describe('redirects', () => {
  const redirectTo = (target: string): string => `${viaLocalhost}/redirect?to=${encodeURIComponent(target)}`;

  it('re-checks every hop: a trusted host cannot bounce us to the metadata service', async () => {
    const allowingMetadata = trustedSandbox({ allowedHosts: [`localhost:${port}`, '169.254.169.254'] });
    const err = await failure(allowingMetadata.get(redirectTo('http://169.254.169.254/latest/meta-data/iam')));
    expect(err).toMatchObject({ code: 'PRIVATE_ADDRESS' });
    expect(err.message).toMatch(/169\.254\.169\.254 .*linkLocal/);

    const err2 = await failure(trustedSandbox().get(redirectTo('http://169.254.169.254/')));
    expect(err2).toMatchObject({ code: 'HOST_NOT_ALLOWED' });
    const err3 = await failure(trustedSandbox().get(redirectTo('file:///etc/passwd')));
    expect(err3).toMatchObject({ code: 'URL_INVALID' });
  });

  it('follows allowed redirects (relative ones too) up to the limit, and no further', async () => {
    const media = `${viaLocalhost}/media/clip.mp4`;
    const threeHops = redirectTo(redirectTo(redirectTo(media)));
    const ok = await trustedSandbox({ maxRedirects: 3 }).get(threeHops);
    expect(ok.finalUrl).toBe(media);
    expect((await readAll(ok.body)).equals(CLIP)).toBe(true);

    const err = await failure(trustedSandbox({ maxRedirects: 2 }).get(threeHops));
    expect(err).toMatchObject({ code: 'TOO_MANY_REDIRECTS' });
    expect(err.message).toMatch(/redirected more than 2 times/);

    const relative = await trustedSandbox().get(`${viaLocalhost}/redirect?to=${encodeURIComponent('/media/clip.vtt')}`);
    expect(relative.finalUrl).toBe(`${viaLocalhost}/media/clip.vtt`);
    expect((await readAll(relative.body)).toString()).toContain('WEBVTT');
  });
});

describe('fetching from an allowed (trusted-private) host', () => {
  it('streams a media file with its type and length', async () => {
    const res = await trustedSandbox().get(`${viaLocalhost}/media/clip.mp4`);
    expect(res.contentType).toBe('video/mp4');
    expect(res.contentLength).toBe(CLIP.length);
    expect(res.finalUrl).toBe(`${viaLocalhost}/media/clip.mp4`);
    expect((await readAll(res.body)).equals(CLIP)).toBe(true);
  });

  it('trusts IP literals only when listed as trusted', async () => {
    const f = new SafeFetcher({ allowedHosts: [`127.0.0.1:${port}`], trustedPrivateHosts: ['127.0.0.1'] });
    const res = await f.get(`${served.sandbox.url}/media/clip.vtt`);
    expect(res.contentType).toMatch(/^text\/vtt/);
    expect((await readAll(res.body)).toString()).toMatch(/^WEBVTT/);
  });

  it('fails non-2xx answers with the status', async () => {
    const err = await failure(trustedSandbox().get(`${viaLocalhost}/media/missing.mp4?token=s3cr3t`));
    expect(err).toBeInstanceOf(FetchFailedError);
    expect(err).toMatchObject({ code: 'HTTP_ERROR', status: 404 });
    expect(err.message).toBe(`The media server at localhost:${port} answered HTTP 404.`);
  });

  it('refuses an announced body over the limit before reading it', async () => {
    const err = await failure(trustedSandbox({ maxBytes: 100 * 1024 }).get(`${viaLocalhost}/media/big.bin`));
    expect(err).toMatchObject({ code: 'TOO_LARGE' });
    expect(err.message).toMatch(/larger than the 102400-byte limit/);
  });

  it('cuts off an unannounced (chunked) body once it passes the limit', async () => {
    const res = await trustedSandbox({ maxBytes: 100 * 1024 }).get(`${viaLocalhost}/chunked/big.bin`);
    expect(res.contentLength).toBeNull();
    let received = 0;
    const err = await failure(
      (async () => {
        for await (const c of res.body) received += (c as Buffer).length;
      })(),
    );
    expect(err).toMatchObject({ code: 'TOO_LARGE' });
    expect(received).toBeLessThanOrEqual(100 * 1024);
    // within the limit the same chunked body arrives whole
    const whole = await trustedSandbox().get(`${viaLocalhost}/chunked/big.bin`);
    expect((await readAll(whole.body)).equals(BIG)).toBe(true);
  });

  it('times out a server that does not answer', async () => {
    const started = Date.now();
    const err = await failure(trustedSandbox({ timeoutMs: 300 }).get(`${viaLocalhost}/slow/clip.mp4?delayMs=5000`));
    expect(err).toMatchObject({ code: 'TIMEOUT' });
    expect(err.message).toMatch(/stalled for more than 300 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
    // a delay shorter than the timeout is fine
    const slowOk = await trustedSandbox({ timeoutMs: 2000 }).get(`${viaLocalhost}/slow/clip.mp4?delayMs=200`);
    expect((await readAll(slowOk.body)).equals(CLIP)).toBe(true);
  });

  it('times out a body that stalls halfway', async () => {
    const res = await trustedSandbox({ timeoutMs: 300 }).get(`${viaLocalhost}/slow/clip.mp4?delayMs=5000&stallAfter=1000`);
    expect(res.contentLength).toBe(CLIP.length);
    let received = 0;
    const err = await failure(
      (async () => {
        for await (const c of res.body) received += (c as Buffer).length;
      })(),
    );
    expect(err).toMatchObject({ code: 'TIMEOUT' });
    expect(received).toBe(1000);
  });

  it('honours the caller’s abort signal', async () => {
    const ac = new AbortController();
    const pending = trustedSandbox().get(`${viaLocalhost}/slow/clip.mp4?delayMs=5000`, { signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });

    const midBody = new AbortController();
    const res = await trustedSandbox().get(`${viaLocalhost}/slow/clip.mp4?delayMs=5000&stallAfter=1000`, { signal: midBody.signal });
    setTimeout(() => midBody.abort(), 100);
    await expect(readAll(res.body)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reports a refused connection as NETWORK', async () => {
    const gone = await startProviderSandbox({ port: 0, mediaDir: served.mediaDir, editorUrl: 'http://localhost:4200' });
    const gonePort = new URL(gone.url).port;
    await gone.close();
    const f = new SafeFetcher({ allowedHosts: [`localhost:${gonePort}`], trustedPrivateHosts: ['localhost'] });
    const err = await failure(f.get(`http://localhost:${gonePort}/media/clip.mp4`));
    expect(err).toMatchObject({ code: 'NETWORK' });
    expect(err.message).toMatch(/could not be reached \(ECONNREFUSED\)/);
  });
});

describe('the sandbox media server', () => {
  function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      // raw request: the path goes out exactly as written (fetch would normalise "..")
      const req = http.request({ host: '127.0.0.1', port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('answers byte ranges with 206 and Content-Range', async () => {
    const r = await get('/media/clip.mp4', { range: 'bytes=100-199' });
    expect(r.status).toBe(206);
    expect(r.headers['content-range']).toBe(`bytes 100-199/${CLIP.length}`);
    expect(r.headers['content-length']).toBe('100');
    expect(r.body.equals(CLIP.subarray(100, 200))).toBe(true);

    const tail = await get('/media/clip.mp4', { range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(CLIP.subarray(CLIP.length - 10))).toBe(true);

    const whole = await get('/media/clip.mp4');
    expect(whole.status).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.body.equals(CLIP)).toBe(true);

    const beyond = await get('/media/clip.mp4', { range: `bytes=${CLIP.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${CLIP.length}`);
  });

  it('does not serve anything outside the media directory', async () => {
    for (const path of ['/media/..%2F..%2Fetc%2Fpasswd', '/media/../../etc/passwd', '/media/.hidden', '/media/%2Fetc%2Fpasswd', '/media/missing.mp4']) {
      const r = await get(path);
      expect(r.status).toBe(404);
      expect(r.body.toString()).not.toContain('root:');
    }
  });

  it('receives uploads and counts their bytes', async () => {
    const body = randomBytes(5000);
    const res = await fetch(`${served.sandbox.url}/uploads/sess-9/video`, { method: 'PUT', body, headers: { 'content-type': 'video/mp4' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, session: 'sess-9', kind: 'video', bytes: 5000 });
    expect(served.sandbox.uploads.get('sess-9/video')).toMatchObject({ bytes: 5000, contentType: 'video/mp4' });
    expect((await fetch(`${served.sandbox.url}/uploads/sess-9/other`, { method: 'PUT', body })).status).toBe(404);
    expect((await fetch(`${served.sandbox.url}/uploads/sess-9/video`)).status).toBe(405);
  });

  it('lists the demo links on its index page', async () => {
    const res = await fetch(`${served.sandbox.url}/`);
    expect(await res.text()).toContain('<a href="/open?video=clip">clip</a>');
  });
});
