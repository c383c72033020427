/**
 * The provider sandbox: a stand-in for the external video platform WordCut is embedded in (it opens
 * the editor with `?token=`). It is a test double of an EXTERNAL system, used locally
 * (tools/provider-sandbox/main.ts) and by integration tests, and behaves as the provider would:
 *
 * - signs session tokens (ES256), publishes its key at `GET /.well-known/jwks.json`;
 * - `GET /open?video=<name>…` → 302 to `<editorUrl>/editor?token=<jwt>` (the video joins the library);
 * - `GET|HEAD /media/<file>` serves the provider's media (single ranges → 206);
 * - the provider API, authenticated by the session token: `POST /api/token/refresh`,
 *   `POST /api/videos/clone`, `GET /api/library` (and `GET /library`, the same as a page);
 * - uploads into the library on the token's URLs `/uploads/<session>/<video|vtt|wordByword|clip>`:
 *   resumable (Google/YouTube protocol, `?uploadType=resumable`, see uploads.ts) or one request;
 * - signed webhooks (`upload.completed`, `video.ready`, `upload.failed`) to `webhookUrl`;
 * - test controls (loopback only, no auth) under `/_control/`: fault injection, request log,
 *   webhook log and resend, reset; and the old ones: `/redirect`, `/slow/<file>`, `/chunked/<file>`.
 * README.md has the route table.
 */
import { createPublicKey, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { errors as joseErrors, jwtVerify } from 'jose';
import type { Plan, ProviderMedia, ProviderTokenClaims, ProviderWebhookEvent } from '@wordcut/contracts';
import { FaultStore, RequestLog, type Fault, type FaultSpec, type RequestLogEntry } from './faults';
import { bodyOf, ConnectionCut, drain, escapeHtml, header, HttpError, isLoopback, readJson, redirect, sendError, sendJson } from './http';
import { loadOrCreateKeys, SANDBOX_ALG, signWithSandboxKeys, type SandboxKeys, type SandboxSigningAlg } from './keys';
import { FILE_KINDS, Library, renderLibraryHtml, type FileKind, type LibraryVideo, type StoredFile } from './library';
import { parseRange } from './range';
import { MAX_UPLOAD_BYTES, parseContentRange, rangeHeader, ResumableUploads, sha256File, UPLOAD_KINDS, type ResumableUpload, type UploadAnswer, type UploadKind } from './uploads';
import { WebhookSender, type WebhookDelivery, type WebhookSendOptions, type WebhookSendResult } from './webhooks';

export type { Fault, FaultSpec, RequestLogEntry } from './faults';
export type { LibraryFile, LibraryVideo } from './library';
export type { UploadAnswer } from './uploads';
export type { WebhookDelivery, WebhookSendOptions, WebhookSendResult } from './webhooks';

/** The webhook secret of local development (override with webhookSecret / PROVIDER_SANDBOX_WEBHOOK_SECRET). */
export const DEFAULT_WEBHOOK_SECRET = 'whsec_sandbox_local_dev_secret_0123456789';

export interface ProviderSandboxOptions {
  /** 0 = ephemeral */
  port: number;
  /** bind address; default 127.0.0.1 */
  host?: string;
  /** base URL put into tokens and links; default http://<host>:<port> */
  publicUrl?: string;
  mediaDir: string;
  /** the WordCut web app, e.g. http://localhost:4200 */
  editorUrl: string;
  /** default 'wordcut-provider-sandbox' */
  issuer?: string;
  /** default 'wordcut' */
  audience?: string;
  /** persist the keypair here so restarts keep tokens valid; else in memory */
  keyDir?: string;
  /** where webhooks are POSTed; none: events are recorded but not sent */
  webhookUrl?: string;
  /** HMAC secret of the webhook signatures; default DEFAULT_WEBHOOK_SECRET */
  webhookSecret?: string;
  /** pauses before each retry of a failed delivery; default [200, 400, 800] */
  webhookRetryDelaysMs?: number[];
  /** pause between `upload.completed` and `video.ready`; default 100 */
  webhookReadyDelayMs?: number;
  /** per delivery try; default 5000 */
  webhookTimeoutMs?: number;
}

export interface SignTokenOptions {
  /** default 3600; negative gives an already expired token */
  expiresInSec?: number;
  /** 'forged': a key that is not the sandbox's, under the sandbox's kid */
  key?: 'sandbox' | 'forged';
  alg?: SandboxSigningAlg;
  issuer?: string;
  audience?: string;
}

export type SandboxTokenClaims = Partial<ProviderTokenClaims> & { sessionId: string; videoId: string };

export interface UploadRecord {
  bytes: number;
  contentType: string | null;
  /** where the received body was kept (removed on close) */
  path: string;
  uploadId: string;
  providerVideoId: string | null;
  sha256: string;
}

export interface ProviderSandbox {
  url: string;
  issuer: string;
  audience: string;
  jwksUrl: string;
  publicKeyPem: string;
  webhookSecret: string;
  signToken(claims: SandboxTokenClaims, o?: SignTokenOptions): Promise<string>;
  /** the latest completed upload by `<session>/<kind>` */
  uploads: Map<string, UploadRecord>;
  /** every video of the library, in the order they joined it */
  library(): LibraryVideo[];
  /** adds a fault (see faults.ts); returns its id; throws on an invalid spec */
  addFault(spec: FaultSpec): string;
  clearFaults(): void;
  faults(): Fault[];
  /** the request log (control API calls excluded), oldest first */
  requests(): RequestLogEntry[];
  clearRequests(): void;
  webhookEvents(): ProviderWebhookEvent[];
  webhookDeliveries(): WebhookDelivery[];
  /** sends any event now (no retries unless asked), optionally signed with another secret or time */
  sendWebhook(event: ProviderWebhookEvent, o?: WebhookSendOptions): Promise<WebhookSendResult>;
  /** sends a recorded event again: same id, new timestamp and signature */
  resendWebhook(eventId: string): Promise<WebhookSendResult>;
  /** resolves when no webhook delivery is under way */
  webhooksSettled(): Promise<void>;
  /** forgets library, uploads, faults, request and webhook logs */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export const SANDBOX_PLANS: Record<'pro' | 'free', Plan> = {
  pro: { tier: 'pro', quotas: { exportsPerDay: 20, exportsPerMonth: 100 } },
  free: { tier: 'free', quotas: { exportsPerDay: 2, exportsPerMonth: 5 } },
};
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
const CONTENT_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.m4a': 'audio/mp4',
  '.wav': 'audio/wav',
  '.vtt': 'text/vtt; charset=utf-8',
  '.json': 'application/json',
};
/** Claims the sandbox sets when it signs; everything else in a token is carried over on refresh and clone. */
const REGISTERED_CLAIMS = ['iss', 'aud', 'exp', 'iat', 'nbf', 'jti'];

type TokenClaims = SandboxTokenClaims & { sub: string };

interface Ctx {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  url: URL;
  m: RegExpExecArray;
  body: AsyncGenerator<Buffer>;
}

interface Route {
  method: string[];
  path: RegExp;
  /** the handler reads the body itself (so a 'cut' fault happens inside it) */
  readsBody?: boolean;
  handle(ctx: Ctx): void | Promise<void>;
}

export async function startProviderSandbox(o: ProviderSandboxOptions): Promise<ProviderSandbox> {
  const issuer = o.issuer ?? 'wordcut-provider-sandbox';
  const audience = o.audience ?? 'wordcut';
  const editorUrl = o.editorUrl.replace(/\/+$/, '');
  const keys = await loadOrCreateKeys(o.keyDir);
  const publicKey = createPublicKey(keys.privateKey);
  const uploadDir = await mkdtemp(join(tmpdir(), 'wordcut-provider-sandbox-'));
  const uploads = new Map<string, UploadRecord>();
  const timers = new Set<NodeJS.Timeout>();
  const library = new Library();
  const faults = new FaultStore();
  const log = new RequestLog();
  /** clone answers by user, session and Idempotency-Key: a retried clone makes no second copy */
  const clones = new Map<string, { token: string; sessionId: string; videoId: string }>();
  const webhookSecret = o.webhookSecret ?? DEFAULT_WEBHOOK_SECRET;
  const webhooks = new WebhookSender({ url: o.webhookUrl, secret: webhookSecret, retryDelaysMs: o.webhookRetryDelaysMs ?? [200, 400, 800], timeoutMs: o.webhookTimeoutMs ?? 5000 });
  let baseUrl = '';

  const signToken = (claims: SandboxTokenClaims, so: SignTokenOptions = {}): Promise<string> =>
    signSandboxToken(keys, claims, { issuer, audience, ...so });

  /** The caller's token, verified with the sandbox's own key, as the provider's API would. */
  const authenticate = async (req: http.IncomingMessage): Promise<TokenClaims> => {
    const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(header(req, 'authorization') ?? '');
    const challenge = { 'www-authenticate': 'Bearer realm="provider-sandbox"' };
    if (!m) throw new HttpError(401, 'A session token is required (Authorization: Bearer <token>).', 'unauthorized', challenge);
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(m[1]!, publicKey, { issuer, audience, algorithms: [SANDBOX_ALG], requiredClaims: ['exp'], clockTolerance: 30 }));
    } catch (e) {
      const why = e instanceof joseErrors.JWTExpired ? 'has expired' : 'is not valid';
      throw new HttpError(401, `The session token ${why}.`, 'unauthorized', challenge);
    }
    for (const k of ['sub', 'sessionId', 'videoId']) {
      if (typeof payload[k] !== 'string' || !payload[k]) throw new HttpError(401, `The session token has no ${k}.`, 'unauthorized', challenge);
    }
    return payload as TokenClaims;
  };

  /** The library video a session edits; a session first seen in a valid token joins the library. */
  const sessionVideo = (sessionId: string, claims?: TokenClaims): LibraryVideo =>
    library.videoOfSession(sessionId) ??
    library.openSession(
      claims
        ? { videoId: claims.videoId, sessionId, title: claims.title ?? claims.videoId, kind: claims.isClone ? 'clone' : 'original', owner: claims.sub, media: downloadUrls(claims.media) }
        : { videoId: sessionId, sessionId, title: `Session ${sessionId}`, kind: 'original', owner: 'unknown' },
    );

  const uploadUrls = (sessionId: string): ProviderMedia => {
    const base = `${baseUrl}/uploads/${encodeURIComponent(sessionId)}`;
    return { uploadUrlVideo: `${base}/video`, uploadUrlVtt: `${base}/vtt`, uploadUrlWordByword: `${base}/wordByword` };
  };

  /** Files a completed upload in the library, then tells the webhook receiver. */
  const fileUpload = async (u: Pick<ResumableUpload, 'uploadId' | 'sessionId' | 'kind' | 'name' | 'owner' | 'path'> & { contentType: string | null }, bytes: number, sha256: string): Promise<UploadAnswer> => {
    const video = sessionVideo(u.sessionId);
    const file: StoredFile = { uploadId: u.uploadId, bytes, sha256, contentType: u.contentType, uploadedAt: new Date().toISOString(), path: u.path };
    let providerVideoId = video.videoId;
    if (u.kind === 'clip') {
      const title = u.name ?? `Clip ${video.clips.length + 1}`;
      providerVideoId = library.addClip(video.videoId, { videoId: `vid_${randomUUID()}`, sessionId: u.sessionId, title, owner: u.owner, file }).videoId;
    } else {
      library.storeFile(video.videoId, u.kind, file);
    }
    uploads.set(`${u.sessionId}/${u.kind}`, { bytes, contentType: u.contentType, path: u.path, uploadId: u.uploadId, providerVideoId, sha256 });
    const answer: UploadAnswer = { uploadId: u.uploadId, providerVideoId, bytes, sha256 };
    const data = { sessionId: u.sessionId, uploadId: u.uploadId, kind: u.kind, providerVideoId, bytes, sha256 };
    webhooks.deliverInOrder([{ event: webhooks.event('upload.completed', data) }, { event: webhooks.event('video.ready', data), delayMs: o.webhookReadyDelayMs ?? 100 }]);
    return answer;
  };

  const resumable = new ResumableUploads(
    uploadDir,
    (u, sha256) => fileUpload(u, u.total, sha256),
    (u) => webhooks.deliverInOrder([{ event: webhooks.event('upload.failed', { sessionId: u.sessionId, uploadId: u.uploadId, kind: u.kind, providerVideoId: null, bytes: u.received }) }]),
  );

  const hold = (ms: number, res: http.ServerResponse): Promise<void> =>
    new Promise<void>((resolve) => {
      const t = setTimeout(done, ms);
      timers.add(t);
      res.once('close', done);
      function done(): void {
        clearTimeout(t);
        timers.delete(t);
        resolve();
      }
    });

  const uploadTarget = (m: RegExpExecArray): { sessionId: string; kind: UploadKind } => {
    const sessionId = decodeURIComponent(m[1]!);
    const kind = m[2]!;
    if (!SAFE_NAME.test(sessionId)) throw new HttpError(400, 'bad session id', 'bad_request');
    if (!(UPLOAD_KINDS as readonly string[]).includes(kind)) {
      throw new HttpError(404, `unknown upload kind '${kind}' (expected ${UPLOAD_KINDS.join(', ')})`, 'not_found');
    }
    return { sessionId, kind: kind as UploadKind };
  };

  const routes: Route[] = [
    { method: ['GET'], path: /^\/$/, handle: ({ res }) => index(res, o.mediaDir) },
    { method: ['GET'], path: /^\/\.well-known\/jwks\.json$/, handle: ({ res }) => sendJson(res, 200, { keys: [keys.publicJwk] }) },
    {
      method: ['GET'],
      path: /^\/open$/,
      handle: async ({ res, url }) => {
        const claims = await openClaims(url.searchParams, o.mediaDir, baseUrl);
        const token = await signToken(claims);
        library.openSession({ videoId: claims.videoId, sessionId: claims.sessionId, title: claims.title ?? claims.videoId, kind: 'original', owner: 'sandbox-user', media: downloadUrls(claims.media) });
        redirect(res, `${editorUrl}/editor?token=${encodeURIComponent(token)}`);
      },
    },
    { method: ['GET', 'HEAD'], path: /^\/media\/([^/]+)$/, handle: ({ req, res, m }) => serveMedia(req, res, o.mediaDir, m[1]!) },

    // ---- the provider API (session token) ----
    {
      method: ['POST'],
      path: /^\/api\/token\/refresh$/,
      handle: async ({ req, res }) => {
        const claims = await authenticate(req);
        sessionVideo(claims.sessionId, claims);
        const token = await signToken(carriedClaims(claims));
        sendJson(res, 200, { token, ...(claims.media ? { media: claims.media } : {}) });
      },
    },
    {
      method: ['POST'],
      path: /^\/api\/videos\/clone$/,
      handle: async ({ req, res }) => {
        const claims = await authenticate(req);
        const source = sessionVideo(claims.sessionId, claims);
        if (claims.isClone === true || source.isClone) throw new HttpError(409, 'This video is already a clone', 'already_clone');
        const key = header(req, 'idempotency-key');
        const cacheKey = key ? `${claims.sub}\n${claims.sessionId}\n${key}` : null;
        const replay = cacheKey ? clones.get(cacheKey) : undefined;
        if (replay) return sendJson(res, 200, replay);
        const sessionId = randomUUID();
        const videoId = `vid_${randomUUID()}`;
        const title = `${source.title} (clone)`;
        const downloads = { ...source.media, ...downloadUrls(claims.media) };
        library.clone(source.videoId, { videoId, sessionId, title, owner: claims.sub, media: downloads });
        const token = await signToken({ ...carriedClaims(claims), sessionId, videoId, title, isClone: true, media: { ...downloads, ...uploadUrls(sessionId) } });
        const answer = { token, sessionId, videoId };
        if (cacheKey) clones.set(cacheKey, answer);
        sendJson(res, 200, answer);
      },
    },
    {
      // with a token: that user's videos; without: the whole library (it is a sandbox)
      method: ['GET'],
      path: /^\/api\/library$/,
      handle: async ({ req, res }) => {
        const owner = header(req, 'authorization') ? (await authenticate(req)).sub : null;
        sendJson(res, 200, { videos: library.list().filter((v) => owner === null || v.owner === owner) });
      },
    },
    {
      method: ['GET'],
      path: /^\/library$/,
      handle: ({ res }) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(renderLibraryHtml(library.list()));
      },
    },
    {
      method: ['GET', 'HEAD'],
      path: /^\/library\/files\/([^/]+)\/([^/]+)$/,
      handle: async ({ req, res, m }) => {
        const path = (FILE_KINDS as readonly string[]).includes(m[2]!) ? library.filePath(decodeURIComponent(m[1]!), m[2] as FileKind) : undefined;
        if (!path) throw new HttpError(404, 'no such file in the library', 'not_found');
        const video = library.video(decodeURIComponent(m[1]!))!;
        await serveFile(req, res, path, video.files[m[2] as FileKind]?.contentType ?? 'application/octet-stream');
      },
    },

    // ---- uploads ----
    {
      // the resumable session URI: chunks and status queries; the URI itself is the credential
      method: ['PUT'],
      path: /^\/uploads\/resumable\/([^/]+)$/,
      readsBody: true,
      handle: async ({ req, res, m, body }) => {
        const u = resumable.get(decodeURIComponent(m[1]!));
        if (!u) {
          await drain(body);
          throw new HttpError(404, 'no such upload session (start a new one)', 'not_found');
        }
        const range = parseContentRange(header(req, 'content-range'));
        if (!range) {
          await drain(body);
          throw new HttpError(400, "Content-Range must be 'bytes <first>-<last>/<total>' or 'bytes */<total>'", 'bad_request');
        }
        const outcome = await resumable.put(u, range, body);
        if (outcome.kind === 'completed') sendJson(res, 200, outcome.answer);
        else res.writeHead(308, { ...rangeHeader(outcome.received), 'content-length': '0' }).end();
      },
    },
    {
      method: ['PUT', 'POST'],
      path: /^\/uploads\/([^/]+)\/([^/]+)$/,
      readsBody: true,
      handle: async ({ req, res, url, m, body }) => {
        const { sessionId, kind } = uploadTarget(m);
        if (req.method === 'POST' && url.searchParams.get('uploadType') === 'resumable') {
          const claims = await authenticate(req);
          if (claims.sessionId !== sessionId) throw new HttpError(403, 'This session token belongs to another session.', 'forbidden');
          sessionVideo(sessionId, claims);
          const u = await resumable.create({ sessionId, kind, owner: claims.sub, ...uploadHeaders(req) });
          await drain(body);
          const location = `${baseUrl}/uploads/resumable/${u.uploadId}`;
          sendJson(res, 200, { uploadId: u.uploadId, location }, { location });
          return;
        }
        // the single-request upload: the whole body at once
        const claims = header(req, 'authorization') ? await authenticate(req) : undefined;
        if (claims && claims.sessionId !== sessionId) throw new HttpError(403, 'This session token belongs to another session.', 'forbidden');
        sessionVideo(sessionId, claims);
        const uploadId = `up_${randomUUID()}`;
        const path = join(uploadDir, uploadId);
        const file = createWriteStream(path);
        await pipeline(body, file);
        const answer = await fileUpload(
          { uploadId, sessionId, kind, contentType: header(req, 'content-type') ?? null, name: uploadName(req), owner: claims?.sub ?? 'unknown', path },
          file.bytesWritten,
          await sha256File(path),
        );
        // the body keeps its original shape; what the library made of it is in headers
        const made = { 'x-upload-id': uploadId, 'x-provider-video-id': answer.providerVideoId ?? '', 'x-content-sha256': answer.sha256 };
        sendJson(res, 200, { ok: true, session: sessionId, kind, bytes: answer.bytes }, made);
      },
    },

    // ---- test controls ----
    {
      // ?delayMs=<ms> before the answer; with ?stallAfter=<bytes>, the delay comes after that many body bytes
      method: ['GET'],
      path: /^\/slow\/([^/]+)$/,
      handle: async ({ req, res, url, m }) => {
        const delayMs = Math.min(Number(url.searchParams.get('delayMs') ?? 2000) || 0, 60_000);
        const stallAfter = url.searchParams.get('stallAfter');
        if (stallAfter === null) {
          await hold(delayMs, res);
          if (!res.destroyed) await serveMedia(req, res, o.mediaDir, m[1]!);
          return;
        }
        const path = join(o.mediaDir, safeMediaName(m[1]!));
        const size = await fileSize(path);
        if (size === null) throw new HttpError(404, 'not found');
        const first = Math.min(Number(stallAfter) || 0, size);
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(size) });
        if (first > 0) await pipeline(createReadStream(path, { end: first - 1 }), res, { end: false });
        await hold(delayMs, res);
        if (!res.destroyed && first < size) await pipeline(createReadStream(path, { start: first }), res);
        else res.end();
      },
    },
    {
      // the same file without Content-Length (chunked): a server that does not announce the size
      method: ['GET'],
      path: /^\/chunked\/([^/]+)$/,
      handle: async ({ res, m }) => {
        const name = safeMediaName(m[1]!);
        if ((await fileSize(join(o.mediaDir, name))) === null) throw new HttpError(404, 'not found');
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' });
        await pipeline(createReadStream(join(o.mediaDir, name), { highWaterMark: 16 * 1024 }), res);
      },
    },
    {
      method: ['GET'],
      path: /^\/redirect$/,
      handle: ({ res, url }) => {
        const to = url.searchParams.get('to');
        if (!to) throw new HttpError(400, 'redirect needs ?to=<url>');
        redirect(res, to);
      },
    },
    {
      method: ['GET', 'POST', 'DELETE'],
      path: /^\/_control\/faults$/,
      readsBody: true,
      handle: async ({ req, res, body }) => {
        if (req.method === 'GET') return sendJson(res, 200, { faults: faults.list() });
        if (req.method === 'DELETE') {
          faults.clear();
          return sendJson(res, 200, { ok: true });
        }
        try {
          sendJson(res, 200, { id: faults.add((await readJson(body)) as FaultSpec) });
        } catch (e) {
          throw e instanceof HttpError ? e : new HttpError(400, (e as Error).message, 'bad_request');
        }
      },
    },
    {
      method: ['GET', 'DELETE'],
      path: /^\/_control\/requests$/,
      handle: ({ req, res }) => {
        if (req.method === 'DELETE') log.clear();
        sendJson(res, 200, { requests: req.method === 'DELETE' ? [] : log.list() });
      },
    },
    { method: ['GET'], path: /^\/_control\/library$/, handle: ({ res }) => sendJson(res, 200, { videos: library.list() }) },
    { method: ['GET'], path: /^\/_control\/webhooks$/, handle: ({ res }) => sendJson(res, 200, webhooks.list()) },
    {
      method: ['POST'],
      path: /^\/_control\/webhooks\/resend\/([^/]+)$/,
      handle: async ({ res, m }) => {
        if (!webhooks.url) throw new HttpError(409, 'no webhook URL is configured', 'no_webhook_url');
        const sent = webhooks.resend(decodeURIComponent(m[1]!));
        if (!sent) throw new HttpError(404, 'no such webhook event', 'not_found');
        sendJson(res, 200, await sent);
      },
    },
    {
      method: ['POST'],
      path: /^\/_control\/reset$/,
      handle: async ({ res }) => {
        await reset();
        sendJson(res, 200, { ok: true });
      },
    },
  ];

  const reset = async (): Promise<void> => {
    library.clear();
    uploads.clear();
    resumable.clear();
    faults.clear();
    log.clear();
    clones.clear();
    webhooks.reset();
    await rm(uploadDir, { recursive: true, force: true });
    await mkdir(uploadDir, { recursive: true });
  };

  const dispatch = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', baseUrl || 'http://sandbox');
    const control = url.pathname.startsWith('/_control/');
    const entry = control ? null : log.start(req, res, url);
    const fault = control ? undefined : faults.take(req.method ?? '', url);
    if (entry && fault) entry.fault = fault.id;
    const cutAfter = fault?.action.kind === 'cut' ? fault.action.afterBytes : undefined;
    const body = bodyOf(req, (n) => entry && (entry.bytesReceived += n), cutAfter);
    try {
      if (control && !isLoopback(req.socket.remoteAddress)) throw new HttpError(403, 'the control API answers loopback clients only', 'forbidden');
      if (fault?.action.kind === 'timeout') {
        await hold(fault.action.ms, res);
        if (res.destroyed) return;
      }
      if (fault?.action.kind === 'status') {
        const { status, retryAfterSec, body: text } = fault.action;
        await drain(body);
        const headers = retryAfterSec !== undefined ? { 'retry-after': String(retryAfterSec) } : {};
        if (text !== undefined) res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(text);
        else sendJson(res, status, { error: 'injected_fault', message: `the sandbox answers ${status} (injected fault ${fault.id})` }, headers);
        return;
      }
      const route = findRoute(routes, req.method ?? '', url.pathname);
      if (cutAfter !== undefined && !route.route.readsBody) return await drain(body);
      await route.route.handle({ req, res, url, m: route.m, body });
    } catch (e) {
      if (e instanceof ConnectionCut || req.socket.destroyed) {
        res.destroy();
        return;
      }
      sendError(res, e);
    }
  };

  const server = http.createServer((req, res) => {
    void dispatch(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = (o.publicUrl ?? `http://${urlHost(o.host ?? '127.0.0.1')}:${port}`).replace(/\/+$/, '');

  return {
    url: baseUrl,
    issuer,
    audience,
    jwksUrl: `${baseUrl}/.well-known/jwks.json`,
    publicKeyPem: keys.publicKeyPem,
    webhookSecret,
    signToken,
    uploads,
    library: () => library.list(),
    addFault: (spec) => faults.add(spec),
    clearFaults: () => faults.clear(),
    faults: () => faults.list(),
    requests: () => log.list(),
    clearRequests: () => log.clear(),
    webhookEvents: () => webhooks.list().events,
    webhookDeliveries: () => webhooks.list().deliveries,
    sendWebhook: (event, so) => webhooks.send(event, so),
    resendWebhook: async (eventId) => {
      const sent = webhooks.resend(eventId);
      if (!sent) throw new Error(`no webhook event ${eventId}`);
      return sent;
    },
    webhooksSettled: () => webhooks.settled(),
    reset,
    close: async () => {
      webhooks.close();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await webhooks.settled();
      await rm(uploadDir, { recursive: true, force: true });
    },
  };
}

function findRoute(routes: Route[], method: string, pathname: string): { route: Route; m: RegExpExecArray } {
  for (const route of routes) {
    const m = route.path.exec(pathname);
    if (!m) continue;
    if (!route.method.includes(method)) throw new HttpError(405, 'method not allowed', pathname.startsWith('/uploads/') || pathname.startsWith('/api/') ? 'method_not_allowed' : undefined, { allow: route.method.join(', ') });
    return { route, m };
  }
  throw new HttpError(404, 'not found', pathname.startsWith('/api/') || pathname.startsWith('/_control/') ? 'not_found' : undefined);
}

/** What a resumable upload announces in its headers (Google's X-Upload-* plus our name and checksum). */
function uploadHeaders(req: http.IncomingMessage): { total: number; contentType: string; name: string | null; expectedSha256: string | null } {
  const length = header(req, 'x-upload-content-length');
  if (!length || !/^\d{1,15}$/.test(length)) throw new HttpError(400, 'X-Upload-Content-Length (the total size in bytes) is required', 'bad_request');
  const total = Number(length);
  if (total > MAX_UPLOAD_BYTES) throw new HttpError(413, `uploads are limited to ${MAX_UPLOAD_BYTES} bytes`, 'too_large');
  const sha = header(req, 'x-upload-content-sha256') ?? null;
  if (sha !== null && !/^[0-9a-fA-F]{64}$/.test(sha)) throw new HttpError(400, 'X-Upload-Content-Sha256 must be 64 hex digits', 'bad_request');
  return { total, contentType: header(req, 'x-upload-content-type') ?? 'application/octet-stream', name: uploadName(req), expectedSha256: sha?.toLowerCase() ?? null };
}

/** X-Upload-Name, URL-encoded (a clip's title); ?name= on single-request uploads. */
function uploadName(req: http.IncomingMessage): string | null {
  const raw = header(req, 'x-upload-name') ?? new URL(req.url ?? '/', 'http://x').searchParams.get('name');
  if (!raw) return null;
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, 'X-Upload-Name must be URL-encoded', 'bad_request');
  }
  return name.trim().slice(0, 300) || null;
}

/** The claims a refreshed (or cloned) token carries over: everything but what signing sets. */
function carriedClaims(claims: TokenClaims): SandboxTokenClaims {
  const out: Record<string, unknown> = { ...claims };
  for (const k of REGISTERED_CLAIMS) delete out[k];
  return out as SandboxTokenClaims;
}

function downloadUrls(media: ProviderMedia | undefined): LibraryVideo['media'] {
  const out: LibraryVideo['media'] = {};
  if (media?.videoUrl) out.videoUrl = media.videoUrl;
  if (media?.vttUrl) out.vttUrl = media.vttUrl;
  if (media?.wordBywordUrl) out.wordBywordUrl = media.wordBywordUrl;
  return out;
}

/** Fills the claims a real provider always sends; keys explicitly set to undefined are left out. */
export async function signSandboxToken(
  keys: SandboxKeys,
  claims: SandboxTokenClaims,
  o: SignTokenOptions & { issuer: string; audience: string },
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const expiresIn = o.expiresInSec ?? 3600;
  const payload: Record<string, unknown> = {
    sub: 'sandbox-user',
    plan: SANDBOX_PLANS.pro,
    usageSnapshot: { exportsToday: 0, exportsThisMonth: 0, nextResetTime: nextMidnightUtc() },
    ...claims,
  };
  for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k];
  return signWithSandboxKeys(keys, payload, {
    alg: o.alg ?? 'ES256',
    key: o.key ?? 'sandbox',
    issuer: o.issuer,
    audience: o.audience,
    iat: expiresIn > 0 ? now : now + expiresIn - 60,
    exp: now + expiresIn,
  });
}

/** The claims of a `/open` link: the video, its media URLs on this sandbox, plan and session. */
async function openClaims(q: URLSearchParams, mediaDir: string, baseUrl: string): Promise<SandboxTokenClaims> {
  const video = q.get('video') ?? '';
  if (!SAFE_NAME.test(video)) throw new HttpError(400, 'open needs ?video=<name> (letters, digits, . _ -)');
  if (!(await isFile(join(mediaDir, `${video}.mp4`)))) {
    throw new HttpError(404, `no ${video}.mp4 in the sandbox media directory (${mediaDir})`);
  }
  const session = q.get('session') || randomUUID();
  if (!SAFE_NAME.test(session) || session === 'resumable') throw new HttpError(400, 'session must be letters, digits, . _ -');
  const planName = q.get('plan') ?? 'pro';
  if (planName !== 'pro' && planName !== 'free') throw new HttpError(400, "plan must be 'pro' or 'free'");
  const lang = q.get('lang');
  const media = `${baseUrl}/media/${video}`;
  const uploadsBase = `${baseUrl}/uploads/${session}`;
  return {
    sessionId: session,
    videoId: video,
    title: video,
    plan: SANDBOX_PLANS[planName],
    ...(lang ? { languageCode: lang } : {}),
    media: {
      videoUrl: `${media}.mp4`,
      vttUrl: `${media}.vtt`,
      ...((await isFile(join(mediaDir, `${video}.words.json`))) ? { wordBywordUrl: `${media}.words.json` } : {}),
      uploadUrlVideo: `${uploadsBase}/video`,
      uploadUrlVtt: `${uploadsBase}/vtt`,
      uploadUrlWordByword: `${uploadsBase}/wordByword`,
    },
  };
}

async function serveMedia(req: http.IncomingMessage, res: http.ServerResponse, mediaDir: string, rawName: string): Promise<void> {
  const name = safeMediaName(rawName);
  await serveFile(req, res, join(mediaDir, name), CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream');
}

/** A file with single byte ranges (206) and HEAD. */
async function serveFile(req: http.IncomingMessage, res: http.ServerResponse, path: string, contentType: string): Promise<void> {
  const size = await fileSize(path);
  if (size === null) throw new HttpError(404, 'not found');
  const range = parseRange(req.headers.range, size);
  const headers: http.OutgoingHttpHeaders = { 'content-type': contentType, 'accept-ranges': 'bytes' };
  if (range.kind === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'content-range': `bytes */${size}` }).end();
    return;
  }
  const [status, start, end] = range.kind === 'partial' ? [206, range.start, range.end] : [200, 0, size - 1];
  if (status === 206) headers['content-range'] = `bytes ${start}-${end}/${size}`;
  res.writeHead(status, { ...headers, 'content-length': String(size === 0 ? 0 : end - start + 1) });
  if (req.method === 'HEAD' || size === 0) {
    res.end();
    return;
  }
  await pipeline(createReadStream(path, { start, end }), res);
}

/** One safe path segment (no slashes, no leading dot): nothing outside mediaDir can be named. */
function safeMediaName(rawName: string): string {
  let name: string;
  try {
    name = decodeURIComponent(rawName);
  } catch {
    throw new HttpError(400, 'bad file name');
  }
  if (!SAFE_NAME.test(name)) throw new HttpError(404, 'not found');
  return name;
}

async function index(res: http.ServerResponse, mediaDir: string): Promise<void> {
  const videos = (await readdir(mediaDir).catch(() => [] as string[]))
    .filter((f) => f.endsWith('.mp4'))
    .map((f) => f.slice(0, -4))
    .filter((v) => SAFE_NAME.test(v));
  const items = videos.length
    ? videos.map((v) => `<li><a href="/open?video=${v}">${v}</a> (<a href="/open?video=${v}&amp;plan=free">free plan</a>)</li>`).join('\n')
    : `<li>No .mp4 files in ${escapeHtml(mediaDir)} (run <code>npm run media</code>)</li>`;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><title>Provider sandbox</title></head><body>
<h1>Provider sandbox</h1><p>Open a video in WordCut as the provider would:</p>
<ul>
${items}
</ul>
<p>What WordCut published: <a href="/library">the library</a>.</p></body></html>`);
}

async function fileSize(path: string): Promise<number | null> {
  try {
    const s = await stat(path);
    return s.isFile() ? s.size : null;
  } catch {
    return null;
  }
}

async function isFile(path: string): Promise<boolean> {
  return (await fileSize(path)) !== null;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

function nextMidnightUtc(): string {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)).toISOString();
}
