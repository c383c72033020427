/**
 * The provider sandbox: a small stand-in for the external video platform WordCut is embedded in
 * (seed 001 §3, seed 002 "Entry by query string"). It is a test double of an EXTERNAL system, used
 * locally (tools/provider-sandbox/main.ts) and by integration tests. It:
 *
 * - signs session tokens (ES256) and publishes its key at `GET /.well-known/jwks.json`;
 * - `GET /open?video=<name>[&session=<id>][&lang=<code>][&plan=pro|free]` → 302 to
 *   `<editorUrl>/editor?token=<jwt>`, the token naming media URLs on this sandbox;
 * - `GET|HEAD /media/<file>` serves files from `mediaDir` (single-range requests → 206);
 * - `PUT|POST /uploads/<session>/<kind>` receives an export (streamed to a temp dir, counted);
 * - test controls: `GET /redirect?to=<url>` (302 anywhere), `GET /slow/<file>?delayMs=<ms>[&stallAfter=<bytes>]`,
 *   `GET /chunked/<file>` (no Content-Length);
 * - `GET /` a tiny HTML index of the demo links.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Plan, ProviderTokenClaims } from '@wordcut/contracts';
import { loadOrCreateKeys, signWithSandboxKeys, type SandboxKeys, type SandboxSigningAlg } from './keys';
import { parseRange } from './range';

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
}

export interface ProviderSandbox {
  url: string;
  issuer: string;
  audience: string;
  jwksUrl: string;
  publicKeyPem: string;
  signToken(claims: SandboxTokenClaims, o?: SignTokenOptions): Promise<string>;
  /** received uploads by `<session>/<kind>` */
  uploads: Map<string, UploadRecord>;
  close(): Promise<void>;
}

export const SANDBOX_PLANS: Record<'pro' | 'free', Plan> = {
  pro: { tier: 'pro', quotas: { exportsPerDay: 20, exportsPerMonth: 100 } },
  free: { tier: 'free', quotas: { exportsPerDay: 2, exportsPerMonth: 5 } },
};
const UPLOAD_KINDS = ['video', 'vtt', 'wordByword'] as const;
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

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startProviderSandbox(o: ProviderSandboxOptions): Promise<ProviderSandbox> {
  const issuer = o.issuer ?? 'wordcut-provider-sandbox';
  const audience = o.audience ?? 'wordcut';
  const editorUrl = o.editorUrl.replace(/\/+$/, '');
  const keys = await loadOrCreateKeys(o.keyDir);
  const uploadDir = await mkdtemp(join(tmpdir(), 'wordcut-provider-sandbox-'));
  const uploads = new Map<string, UploadRecord>();
  const timers = new Set<NodeJS.Timeout>();
  let baseUrl = '';

  const signToken = (claims: SandboxTokenClaims, so: SignTokenOptions = {}): Promise<string> =>
    signSandboxToken(keys, claims, { issuer, audience, ...so });

  const routes: Route[] = [
    { method: ['GET'], path: /^\/$/, handle: (_req, res) => index(res, o.mediaDir) },
    {
      method: ['GET'],
      path: /^\/\.well-known\/jwks\.json$/,
      handle: (_req, res) => sendJson(res, 200, { keys: [keys.publicJwk] }),
    },
    {
      method: ['GET'],
      path: /^\/open$/,
      handle: async (_req, res, url) => {
        const token = await signToken(await openClaims(url.searchParams, o.mediaDir, baseUrl));
        redirect(res, `${editorUrl}/editor?token=${encodeURIComponent(token)}`);
      },
    },
    { method: ['GET', 'HEAD'], path: /^\/media\/([^/]+)$/, handle: (req, res, _url, m) => serveMedia(req, res, o.mediaDir, m[1]!) },
    {
      // ?delayMs=<ms> before the answer; with ?stallAfter=<bytes>, the delay comes after that many body bytes
      method: ['GET'],
      path: /^\/slow\/([^/]+)$/,
      handle: async (req, res, url, m) => {
        const delayMs = Math.min(Number(url.searchParams.get('delayMs') ?? 2000) || 0, 60_000);
        const stallAfter = url.searchParams.get('stallAfter');
        const pause = (): Promise<void> =>
          new Promise<void>((resolve) => {
            const t = setTimeout(() => {
              timers.delete(t);
              resolve();
            }, delayMs);
            timers.add(t);
            res.once('close', () => {
              clearTimeout(t);
              timers.delete(t);
              resolve();
            });
          });
        if (stallAfter === null) {
          await pause();
          if (!res.destroyed) await serveMedia(req, res, o.mediaDir, m[1]!);
          return;
        }
        const path = join(o.mediaDir, safeMediaName(m[1]!));
        const size = await fileSize(path);
        if (size === null) throw new HttpError(404, 'not found');
        const first = Math.min(Number(stallAfter) || 0, size);
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(size) });
        if (first > 0) await pipeline(createReadStream(path, { end: first - 1 }), res, { end: false });
        await pause();
        if (!res.destroyed && first < size) await pipeline(createReadStream(path, { start: first }), res);
        else res.end();
      },
    },
    {
      // the same file without Content-Length (chunked): a server that does not announce the size
      method: ['GET'],
      path: /^\/chunked\/([^/]+)$/,
      handle: async (_req, res, _url, m) => {
        const name = safeMediaName(m[1]!);
        if ((await fileSize(join(o.mediaDir, name))) === null) throw new HttpError(404, 'not found');
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' });
        await pipeline(createReadStream(join(o.mediaDir, name), { highWaterMark: 16 * 1024 }), res);
      },
    },
    {
      method: ['GET'],
      path: /^\/redirect$/,
      handle: (_req, res, url) => {
        const to = url.searchParams.get('to');
        if (!to) throw new HttpError(400, 'redirect needs ?to=<url>');
        redirect(res, to);
      },
    },
    {
      method: ['PUT', 'POST'],
      path: /^\/uploads\/([^/]+)\/([^/]+)$/,
      handle: async (req, res, _url, m) => {
        const session = decodeURIComponent(m[1]!);
        const kind = m[2]!;
        if (!SAFE_NAME.test(session)) throw new HttpError(400, 'bad session id');
        if (!(UPLOAD_KINDS as readonly string[]).includes(kind)) {
          throw new HttpError(404, `unknown upload kind '${kind}' (expected ${UPLOAD_KINDS.join(', ')})`);
        }
        const path = join(uploadDir, `${session}.${kind}`);
        const file = createWriteStream(path);
        await pipeline(req, file);
        const bytes = file.bytesWritten;
        uploads.set(`${session}/${kind}`, { bytes, contentType: req.headers['content-type'] ?? null, path });
        sendJson(res, 200, { ok: true, session, kind, bytes });
      },
    },
  ];

  const server = http.createServer((req, res) => {
    void dispatch(routes, req, res, baseUrl);
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
    signToken,
    uploads,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(uploadDir, { recursive: true, force: true });
    },
  };
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
  if (!SAFE_NAME.test(session)) throw new HttpError(400, 'session must be letters, digits, . _ -');
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
  const path = join(mediaDir, name);
  const size = await fileSize(path);
  if (size === null) throw new HttpError(404, 'not found');
  const range = parseRange(req.headers.range, size);
  const headers: http.OutgoingHttpHeaders = {
    'content-type': CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream',
    'accept-ranges': 'bytes',
  };
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
</ul></body></html>`);
}

interface Route {
  method: string[];
  path: RegExp;
  handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL, match: RegExpExecArray): void | Promise<void>;
}

async function dispatch(routes: Route[], req: http.IncomingMessage, res: http.ServerResponse, baseUrl: string): Promise<void> {
  const url = new URL(req.url ?? '/', baseUrl || 'http://sandbox');
  try {
    for (const route of routes) {
      const m = route.path.exec(url.pathname);
      if (!m) continue;
      if (!route.method.includes(req.method ?? '')) throw new HttpError(405, 'method not allowed');
      await route.handle(req, res, url, m);
      return;
    }
    throw new HttpError(404, 'not found');
  } catch (e) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const status = e instanceof HttpError ? e.status : 500;
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${(e as Error).message}\n`);
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function redirect(res: http.ServerResponse, location: string): void {
  res.writeHead(302, { location }).end();
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

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
