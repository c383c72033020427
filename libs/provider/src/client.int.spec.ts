/**
 * HttpProviderClient against the provider sandbox (a real HTTP server on 127.0.0.1, started in this
 * process): resumable uploads through injected failures (5xx, 429 with Retry-After, a silent
 * provider, connections cut mid-chunk), token refresh and clone, and the signed webhooks the
 * sandbox sends to a small receiver here, verified with verifyWebhookSignature.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { providerWebhookEventSchema, type ProviderWebhookEvent } from '@wordcut/contracts';
import { startProviderSandbox, type ProviderSandbox } from '../../../tools/provider-sandbox/sandbox';
import { HttpProviderClient, ProviderError, type UploadSource } from './client';
import { ProviderTokenVerifier } from './token';
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from './webhook';

const MiB = 1024 * 1024;
const SECRET = 'whsec_client_int_spec_0123456789abcdef';
const SESSION = 'sess-client-int';

let dir: string;
let sandbox: ProviderSandbox;
let verifier: ProviderTokenVerifier;
let bigPath: string;
let bigSha: string;
/** the webhook receiver */
let receiver: http.Server;
let received: { raw: Buffer; signature: string | undefined; event: ProviderWebhookEvent }[] = [];
let failNextWebhooks = 0;

const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

function fileSource(path: string, size: number, sha?: string, contentType = 'video/mp4'): UploadSource & { opened: number[] } {
  const opened: number[] = [];
  return {
    size,
    contentType,
    ...(sha ? { sha256: sha } : {}),
    opened,
    open: async (offset) => {
      opened.push(offset);
      return createReadStream(path, { start: offset, highWaterMark: 64 * 1024 });
    },
  };
}

const bufferSource = (b: Buffer, contentType: string): UploadSource => ({
  size: b.length,
  contentType,
  sha256: sha256(b),
  open: async (offset) => (await import('node:stream')).Readable.from([b.subarray(offset)]),
});

const client = (o: Partial<ConstructorParameters<typeof HttpProviderClient>[0]> = {}): HttpProviderClient =>
  new HttpProviderClient({ apiUrl: sandbox.url, retry: { baseMs: 10, maxMs: 2000 }, requestTimeoutMs: 5000, chunkSize: MiB, ...o });

const sessionToken = (claims: Record<string, unknown> = {}): Promise<string> =>
  sandbox.signToken({
    sub: 'user-1',
    sessionId: SESSION,
    videoId: 'talk',
    title: 'The talk',
    media: {
      videoUrl: `${sandbox.url}/media/talk.mp4`,
      vttUrl: `${sandbox.url}/media/talk.vtt`,
      uploadUrlVideo: `${sandbox.url}/uploads/${SESSION}/video`,
      uploadUrlVtt: `${sandbox.url}/uploads/${SESSION}/vtt`,
      uploadUrlWordByword: `${sandbox.url}/uploads/${SESSION}/wordByword`,
    },
    ...claims,
  });

const chunkPuts = () => sandbox.requests().filter((r) => r.method === 'PUT' && r.path.startsWith('/uploads/resumable/'));

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provider-client-'));
  await writeFile(join(dir, 'talk.mp4'), randomBytes(4096));
  await writeFile(join(dir, 'talk.vtt'), 'WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n');
  const big = randomBytes(10 * MiB + 12345);
  bigPath = join(dir, 'big.bin');
  await writeFile(bigPath, big);
  bigSha = sha256(big);

  receiver = http.createServer((req, res) => {
    const pieces: Buffer[] = [];
    req.on('data', (p: Buffer) => pieces.push(p));
    req.on('end', () => {
      if (failNextWebhooks > 0) {
        failNextWebhooks -= 1;
        res.writeHead(500).end('not now');
        return;
      }
      const raw = Buffer.concat(pieces);
      const signature = req.headers[WEBHOOK_SIGNATURE_HEADER] as string | undefined;
      received.push({ raw, signature, event: providerWebhookEventSchema.parse(JSON.parse(raw.toString('utf8'))) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  sandbox = await startProviderSandbox({ port: 0, mediaDir: dir, editorUrl: 'http://localhost:4200', webhookUrl, webhookSecret: SECRET, webhookRetryDelaysMs: [30, 60, 120], webhookReadyDelayMs: 30 });
  verifier = new ProviderTokenVerifier({ issuer: sandbox.issuer, audience: sandbox.audience, jwksUrl: sandbox.jwksUrl });
});

afterAll(async () => {
  await sandbox?.close();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await sandbox.webhooksSettled();
  await sandbox.reset();
  received = [];
  failNextWebhooks = 0;
});

describe('resumable uploads', () => {
  it('uploads a file in chunks; the library holds the same bytes', async () => {
    const token = await sessionToken();
    const c = client();
    const source = fileSource(bigPath, 10 * MiB + 12345, bigSha);
    const progress: number[] = [];
    const r = await c.upload({ token, url: c.uploadUrl(SESSION, 'video'), source, onProgress: (n) => progress.push(n) });
    expect(r).toMatchObject({ providerVideoId: 'talk', bytes: source.size, sha256: bigSha, attempts: 1, resumedFrom: [] });
    expect(r.uploadId).toMatch(/^up_/);
    // one initiate, 11 chunks of 1 MiB (the last short), the source opened once
    expect(chunkPuts().map((p) => p.contentRange)).toHaveLength(11);
    expect(chunkPuts()[10]!.contentRange).toBe(`bytes ${10 * MiB}-${source.size - 1}/${source.size}`);
    expect(source.opened).toEqual([0]);
    expect(progress.at(-1)).toBe(source.size);
    const talk = sandbox.library().find((v) => v.videoId === 'talk')!;
    expect(talk).toMatchObject({ sessionId: SESSION, title: 'The talk', isClone: false, owner: 'user-1' });
    expect(talk.files.video).toMatchObject({ bytes: source.size, sha256: bigSha, uploadId: r.uploadId });
    expect(sha256(await readFile(sandbox.uploads.get(`${SESSION}/video`)!.path))).toBe(bigSha);
  });

  it('retries a provider answering 503 twice, then completes', async () => {
    const token = await sessionToken();
    sandbox.addFault({ match: { method: 'PUT', path: '^/uploads/resumable/' }, action: { kind: 'status', status: 503 }, times: 2 });
    const source = fileSource(bigPath, 10 * MiB + 12345, bigSha);
    const r = await client().upload({ token, url: `${sandbox.url}/uploads/${SESSION}/video`, source });
    expect(r.attempts).toBe(3);
    expect(r.sha256).toBe(bigSha);
    expect(chunkPuts().filter((p) => p.status === 503)).toHaveLength(2);
    expect(sandbox.library()[0]!.files.video!.sha256).toBe(bigSha);
  });

  it('waits for Retry-After on 429 before trying again', async () => {
    const token = await sessionToken();
    sandbox.addFault({ match: { method: 'POST', path: 'uploadType=resumable' }, action: { kind: 'status', status: 429, retryAfterSec: 1 } });
    const vtt = Buffer.from('WEBVTT\n\n00:00.000 --> 00:02.000\nedited\n');
    const started = Date.now();
    const r = await client().upload({ token, url: `${sandbox.url}/uploads/${SESSION}/vtt`, source: bufferSource(vtt, 'text/vtt') });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(r).toMatchObject({ attempts: 2, bytes: vtt.length, sha256: sha256(vtt), providerVideoId: 'talk' });
    const inits = sandbox.requests().filter((q) => q.method === 'POST');
    expect(inits.map((q) => q.status)).toEqual([429, 200]);
    expect(Date.parse(inits[1]!.time) - Date.parse(inits[0]!.time)).toBeGreaterThanOrEqual(1000);
  });

  it('resumes from the last byte the provider received when a connection is cut mid-chunk', async () => {
    const token = await sessionToken();
    const size = 10 * MiB + 12345;
    // the 2nd chunk request is cut after 1.5 MiB of its body
    sandbox.addFault({ match: { method: 'PUT', path: '^/uploads/resumable/' }, action: { kind: 'cut', afterBytes: 1.5 * MiB }, skip: 1 });
    const source = fileSource(bigPath, size, bigSha);
    const r = await client({ chunkSize: 4 * MiB }).upload({ token, url: `${sandbox.url}/uploads/${SESSION}/video`, source });
    expect(r.resumedFrom).toEqual([5.5 * MiB]);
    expect(r.attempts).toBe(2);
    expect(r.sha256).toBe(bigSha);
    expect(sandbox.library()[0]!.files.video!.sha256).toBe(bigSha);
    const puts = chunkPuts();
    expect(puts.filter((p) => p.contentRange?.startsWith('bytes 0-'))).toHaveLength(1);
    expect(puts.filter((p) => p.aborted).map((p) => [p.status, p.bytesReceived])).toEqual([[0, 1.5 * MiB]]);
    // after the cut: a status query, then the next chunk from where the provider stands
    expect(puts.map((p) => p.contentRange)).toEqual([
      `bytes 0-${4 * MiB - 1}/${size}`,
      `bytes ${4 * MiB}-${8 * MiB - 1}/${size}`,
      `bytes */${size}`,
      `bytes ${5.5 * MiB}-${9.5 * MiB - 1}/${size}`,
      `bytes ${9.5 * MiB}-${size - 1}/${size}`,
    ]);
    expect(source.opened).toEqual([0, 5.5 * MiB]);
  });

  it('resumes a cut first chunk from where it stopped, not from byte 0; a cut status query is asked again', async () => {
    const token = await sessionToken();
    const size = 10 * MiB + 12345;
    // the first chunk, then the status query that follows it
    sandbox.addFault({ match: { method: 'PUT', path: '^/uploads/resumable/' }, action: { kind: 'cut', afterBytes: 3 * MiB + 17 }, times: 2 });
    const r = await client({ chunkSize: 8 * MiB }).upload({ token, url: `${sandbox.url}/uploads/${SESSION}/video`, source: fileSource(bigPath, size, bigSha) });
    expect(r.resumedFrom).toEqual([3 * MiB + 17]);
    expect(r.attempts).toBe(3);
    expect(r.sha256).toBe(bigSha);
    expect(chunkPuts().map((p) => p.contentRange)).toEqual([
      `bytes 0-${8 * MiB - 1}/${size}`,
      `bytes */${size}`,
      `bytes */${size}`,
      `bytes ${3 * MiB + 17}-${size - 1}/${size}`,
    ]);
  });

  it('gives up on a silent provider after its timeout and tries again', async () => {
    const token = await sessionToken();
    sandbox.addFault({ match: { method: 'POST', path: '^/uploads/' }, action: { kind: 'timeout', ms: 1500 } });
    const r = await client({ requestTimeoutMs: 300 }).upload({ token, url: `${sandbox.url}/uploads/${SESSION}/vtt`, source: bufferSource(Buffer.from('WEBVTT\n'), 'text/vtt') });
    expect(r.attempts).toBe(2);
  });

  it('does not retry 401 or 403', async () => {
    const forged = await sandbox.signToken({ sub: 'user-1', sessionId: SESSION, videoId: 'talk' }, { key: 'forged' });
    const c = client();
    const e = (await c.upload({ token: forged, url: c.uploadUrl(SESSION, 'video'), source: bufferSource(Buffer.alloc(10), 'video/mp4') }).catch((x: unknown) => x)) as ProviderError;
    expect(e).toBeInstanceOf(ProviderError);
    expect(e).toMatchObject({ status: 401, code: 'unauthorized', transient: false });
    expect(e.message).toMatch(/Starting the upload failed: the provider answered 401/);
    const other = await sessionToken({ sessionId: 'someone-elses' });
    await expect(c.upload({ token: other, url: c.uploadUrl(SESSION, 'video'), source: bufferSource(Buffer.alloc(10), 'video/mp4') })).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    expect(sandbox.requests().map((q) => q.status)).toEqual([401, 403]);
  });

  it('fails clearly when the stored bytes do not hash to the source sha256', async () => {
    const token = await sessionToken();
    const data = Buffer.from('WEBVTT\n\nthe real bytes\n');
    const source: UploadSource = { ...bufferSource(data, 'text/vtt'), sha256: sha256('something else') };
    const e = (await client().upload({ token, url: `${sandbox.url}/uploads/${SESSION}/vtt`, source }).catch((x: unknown) => x)) as ProviderError;
    expect(e).toMatchObject({ code: 'checksum_mismatch', transient: false });
    expect(sandbox.library()[0]!.files.vtt).toBeUndefined();
    const failed = await until(() => received.find((w) => w.event.type === 'upload.failed'), 'upload.failed webhook');
    expect(failed.event.data).toMatchObject({ sessionId: SESSION, kind: 'vtt', providerVideoId: null });
  });

  it('uploads a zero-byte file', async () => {
    const token = await sessionToken();
    const r = await client().upload({ token, url: `${sandbox.url}/uploads/${SESSION}/wordByword`, source: bufferSource(Buffer.alloc(0), 'application/json') });
    expect(r).toMatchObject({ bytes: 0, sha256: sha256('') });
  });

  it('a clip upload becomes a video of its own, titled with its name, linked to the session', async () => {
    const token = await sessionToken();
    const c = client();
    const clip = randomBytes(300 * 1024);
    const r = await c.upload({ token, url: c.clipUploadUrl(SESSION), source: bufferSource(clip, 'video/mp4'), name: 'Best bit: "ünïcode" & more' });
    expect(r.providerVideoId).toMatch(/^vid_/);
    const lib = sandbox.library();
    const made = lib.find((v) => v.videoId === r.providerVideoId)!;
    expect(made).toMatchObject({ kind: 'clip', title: 'Best bit: "ünïcode" & more', sessionId: SESSION, sourceVideoId: 'talk', files: { video: { bytes: clip.length, sha256: sha256(clip) } } });
    expect(lib.find((v) => v.videoId === 'talk')!.clips).toEqual([{ videoId: r.providerVideoId, title: 'Best bit: "ünïcode" & more' }]);
    const page = await (await fetch(`${sandbox.url}/library`)).text();
    expect(page).toContain('Clip: Best bit: &quot;ünïcode&quot; &amp; more');
    expect(page).toContain(`${clip.length} bytes`);
  });

  it('continues an upload another client started (a restart) from what the provider holds, without a second session', async () => {
    const token = await sessionToken();
    const size = 10 * MiB + 12345;
    const url = `${sandbox.url}/uploads/${SESSION}/video`;
    const sessions: string[] = [];
    const stop = new AbortController();
    const first = client().upload({
      token,
      url,
      source: fileSource(bigPath, size, bigSha),
      signal: stop.signal,
      onSession: (uri) => void sessions.push(uri),
      onProgress: (n) => n > 2 * MiB && stop.abort(new Error('the process is shutting down')),
    });
    await expect(first).rejects.toMatchObject({ code: 'aborted' });
    expect(sessions).toHaveLength(1);

    const source = fileSource(bigPath, size, bigSha);
    const again: string[] = [];
    const r = await client().upload({ token, url, source, resumeUri: sessions[0]!, onSession: (uri) => void again.push(uri) });
    expect(r.sha256).toBe(bigSha);
    expect(sandbox.library()[0]!.files.video!.sha256).toBe(bigSha);
    expect(again).toEqual([]);
    expect(sandbox.requests().filter((q) => q.method === 'POST')).toHaveLength(1);
    const held = r.resumedFrom[0]!;
    expect(r.resumedFrom).toEqual([held]);
    expect(held).toBeGreaterThanOrEqual(2 * MiB);
    expect(source.opened).toEqual([held]);
    // the second client asked where the upload stands, then went on from exactly there
    const afterRestart = chunkPuts().filter((p) => p.contentRange === `bytes */${size}`);
    expect(afterRestart).toHaveLength(1);
    expect(chunkPuts().find((p) => p.seq > afterRestart[0]!.seq)!.contentRange).toBe(`bytes ${held}-${held + MiB - 1}/${size}`);
  });

  it('starts a new session when the provider no longer knows the one to resume (404)', async () => {
    const token = await sessionToken();
    const vtt = Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nagain\n');
    const gone = `${sandbox.url}/uploads/resumable/up_expired`;
    const sessions: string[] = [];
    const r = await client().upload({ token, url: `${sandbox.url}/uploads/${SESSION}/vtt`, source: bufferSource(vtt, 'text/vtt'), resumeUri: gone, onSession: (uri) => void sessions.push(uri) });
    expect(r).toMatchObject({ bytes: vtt.length, sha256: sha256(vtt), resumedFrom: [] });
    expect(sessions).toEqual([`${sandbox.url}/uploads/resumable/${r.uploadId}`]);
    expect(sandbox.requests().map((q) => [q.method, q.path, q.status])).toEqual([
      ['PUT', '/uploads/resumable/up_expired', 404],
      ['POST', `/uploads/${SESSION}/vtt`, 200],
      ['PUT', `/uploads/resumable/${r.uploadId}`, 200],
    ]);
  });

  it('stops when the caller aborts', async () => {
    const token = await sessionToken();
    const controller = new AbortController();
    const source = fileSource(bigPath, 10 * MiB + 12345, bigSha);
    const p = client().upload({ token, url: `${sandbox.url}/uploads/${SESSION}/video`, source, signal: controller.signal, onProgress: (n) => n > 2 * MiB && controller.abort(new Error('user cancelled')) });
    await expect(p).rejects.toMatchObject({ code: 'aborted', transient: false });
  });
});

describe('token refresh and clone', () => {
  it('refresh answers a fresh token with the same claims and media', async () => {
    const token = await sessionToken({ plan: { tier: 'test', quotas: { exportsPerDay: 3, exportsPerMonth: 9 } }, usageSnapshot: { exportsToday: 1, exportsThisMonth: 2 } });
    await new Promise((r) => setTimeout(r, 1100)); // a new iat
    const r = await client().refreshToken(token);
    expect(r.token).not.toBe(token);
    const [before, after] = [await verifier.verify(token), await verifier.verify(r.token)];
    expect(after.iat).toBeGreaterThan(before.iat!);
    const { exp: _e1, iat: _i1, ...sameBefore } = before;
    const { exp: _e2, iat: _i2, ...sameAfter } = after;
    expect(sameAfter).toEqual(sameBefore);
    expect(r.media).toEqual(before.media);
    await expect(client().refreshToken('not-a-token')).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('clone makes a new library video and session; a clone cannot be cloned', async () => {
    const token = await sessionToken();
    const c = client();
    const cloned = await c.cloneVideo(token);
    expect(cloned.sessionId).not.toBe(SESSION);
    const claims = await verifier.verify(cloned.token);
    expect(claims).toMatchObject({ isClone: true, sessionId: cloned.sessionId, videoId: cloned.videoId, sub: 'user-1' });
    expect(claims.media).toEqual({
      videoUrl: `${sandbox.url}/media/talk.mp4`,
      vttUrl: `${sandbox.url}/media/talk.vtt`,
      uploadUrlVideo: c.uploadUrl(cloned.sessionId, 'video'),
      uploadUrlVtt: c.uploadUrl(cloned.sessionId, 'vtt'),
      uploadUrlWordByword: c.uploadUrl(cloned.sessionId, 'wordByword'),
    });
    expect(sandbox.library().find((v) => v.videoId === cloned.videoId)).toMatchObject({ isClone: true, kind: 'clone', sessionId: cloned.sessionId, sourceVideoId: 'talk' });
    // uploads with the clone's token land on the clone
    const vtt = Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nclone\n');
    const up = await c.upload({ token: cloned.token, url: claims.media!.uploadUrlVtt!, source: bufferSource(vtt, 'text/vtt') });
    expect(up.providerVideoId).toBe(cloned.videoId);
    expect(sandbox.library().find((v) => v.videoId === 'talk')!.files.vtt).toBeUndefined();
    const again = (await c.cloneVideo(cloned.token).catch((x: unknown) => x)) as ProviderError;
    expect(again).toMatchObject({ status: 409, code: 'already_clone', transient: false });
    expect(again.message).toMatch(/This video is already a clone/);
  });
});

describe('webhooks', () => {
  it('a completed upload is confirmed by signed upload.completed then video.ready; a resend is the same event', async () => {
    const token = await sessionToken();
    const vtt = Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nhook\n');
    const r = await client().upload({ token, url: `${sandbox.url}/uploads/${SESSION}/vtt`, source: bufferSource(vtt, 'text/vtt') });
    await until(() => (received.length >= 2 ? true : undefined), 'two webhooks');
    expect(received.map((w) => w.event.type)).toEqual(['upload.completed', 'video.ready']);
    for (const w of received) {
      expect(verifyWebhookSignature({ secret: SECRET, rawBody: w.raw, header: w.signature })).toMatchObject({ ok: true });
      expect(w.event.id).toMatch(/^evt_[0-9a-f-]{36}$/);
      expect(w.event.data).toEqual({ sessionId: SESSION, uploadId: r.uploadId, kind: 'vtt', providerVideoId: 'talk', bytes: vtt.length, sha256: sha256(vtt) });
    }
    expect(new Set(received.map((w) => w.event.id)).size).toBe(2);

    const first = received[0]!;
    const res = await fetch(`${sandbox.url}/_control/webhooks/resend/${first.event.id}`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ eventId: first.event.id, delivered: true });
    const resent = received[2]!;
    expect(resent.event.id).toBe(first.event.id);
    expect(resent.raw.equals(first.raw)).toBe(true);
    expect(verifyWebhookSignature({ secret: SECRET, rawBody: resent.raw, header: resent.signature })).toMatchObject({ ok: true });
  });

  it('retries a failing receiver with backoff and logs every try', async () => {
    failNextWebhooks = 2;
    const token = await sessionToken();
    await client().upload({ token, url: `${sandbox.url}/uploads/${SESSION}/vtt`, source: bufferSource(Buffer.from('WEBVTT\n'), 'text/vtt') });
    await sandbox.webhooksSettled();
    const completed = sandbox.webhookDeliveries().filter((d) => d.type === 'upload.completed');
    expect(completed.map((d) => [d.attempt, d.status, d.ok])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 204, true],
    ]);
    expect(new Set(completed.map((d) => d.eventId)).size).toBe(1);
    expect(received.map((w) => w.event.type)).toEqual(['upload.completed', 'video.ready']);
    const logged = (await (await fetch(`${sandbox.url}/_control/webhooks`)).json()) as { deliveries: unknown[]; events: unknown[] };
    expect(logged.deliveries).toHaveLength(4);
    expect(logged.events).toHaveLength(2);
  });

  it('sendWebhook can sign with another secret or an old time, which the receiver refuses', async () => {
    const event: ProviderWebhookEvent = { id: 'evt_test', type: 'video.ready', createdAt: new Date().toISOString(), data: { sessionId: SESSION, uploadId: 'up_x', kind: 'video', providerVideoId: 'talk' } };
    await sandbox.sendWebhook(event, { signWith: 'not-the-secret-not-the-secret-0123' });
    await sandbox.sendWebhook(event, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    await sandbox.sendWebhook(event, { signWith: ['old-secret-old-secret-0123456789', SECRET] });
    expect(received.map((w) => verifyWebhookSignature({ secret: SECRET, rawBody: w.raw, header: w.signature }))).toEqual([
      { ok: false, reason: 'signature_mismatch' },
      { ok: false, reason: 'timestamp_out_of_tolerance' },
      { ok: true, timestamp: expect.any(Number) },
    ]);
  });
});
