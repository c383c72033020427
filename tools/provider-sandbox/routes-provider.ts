/**
 * The provider's own routes: the index, its JWKS, `/open` links, its media, the API a session token
 * authenticates (token refresh, clone, library) and the library's page and files.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { header, HttpError, redirect, SAFE_NAME, sendJson } from './http';
import { FILE_KINDS, renderLibraryHtml, type FileKind } from './library';
import { isFile, serveFile, serveIndex, serveMedia } from './media';
import type { Route } from './routing';
import { downloadUrls, type SandboxState } from './state';
import { carriedClaims, SANDBOX_PLANS } from './tokens';
import type { SandboxTokenClaims } from './types';

export function providerRoutes(s: SandboxState): Route[] {
  const { o, keys, library } = s;
  return [
    { method: ['GET'], path: /^\/$/, handle: ({ res }) => serveIndex(res, o.mediaDir) },
    { method: ['GET'], path: /^\/\.well-known\/jwks\.json$/, handle: ({ res }) => sendJson(res, 200, { keys: [keys.publicJwk] }) },
    {
      method: ['GET'],
      path: /^\/open$/,
      handle: async ({ res, url }) => {
        const claims = await openClaims(url.searchParams, o.mediaDir, s.baseUrl);
        const token = await s.signToken(claims);
        library.openSession({ videoId: claims.videoId, sessionId: claims.sessionId, title: claims.title ?? claims.videoId, kind: 'original', owner: 'sandbox-user', media: downloadUrls(claims.media) });
        redirect(res, `${s.editorUrl}/editor?token=${encodeURIComponent(token)}`);
      },
    },
    { method: ['GET', 'HEAD'], path: /^\/media\/([^/]+)$/, handle: ({ req, res, m }) => serveMedia(req, res, o.mediaDir, m[1]!) },

    // ---- the provider API (session token) ----
    {
      method: ['POST'],
      path: /^\/api\/token\/refresh$/,
      handle: async ({ req, res }) => {
        const claims = await s.authenticate(req);
        s.sessionVideo(claims.sessionId, claims);
        const token = await s.signToken(carriedClaims(claims));
        sendJson(res, 200, { token, ...(claims.media ? { media: claims.media } : {}) });
      },
    },
    {
      method: ['POST'],
      path: /^\/api\/videos\/clone$/,
      handle: async ({ req, res }) => {
        const claims = await s.authenticate(req);
        const source = s.sessionVideo(claims.sessionId, claims);
        if (claims.isClone === true || source.isClone) throw new HttpError(409, 'This video is already a clone', 'already_clone');
        const key = header(req, 'idempotency-key');
        const cacheKey = key ? `${claims.sub}\n${claims.sessionId}\n${key}` : null;
        const replay = cacheKey ? s.clones.get(cacheKey) : undefined;
        if (replay) return sendJson(res, 200, replay);
        const sessionId = randomUUID();
        const videoId = `vid_${randomUUID()}`;
        const title = `${source.title} (clone)`;
        const downloads = { ...source.media, ...downloadUrls(claims.media) };
        library.clone(source.videoId, { videoId, sessionId, title, owner: claims.sub, media: downloads });
        const token = await s.signToken({ ...carriedClaims(claims), sessionId, videoId, title, isClone: true, media: { ...downloads, ...s.uploadUrls(sessionId) } });
        const answer = { token, sessionId, videoId };
        if (cacheKey) s.clones.set(cacheKey, answer);
        sendJson(res, 200, answer);
      },
    },
    {
      // with a token: that user's videos; without: the whole library (it is a sandbox)
      method: ['GET'],
      path: /^\/api\/library$/,
      handle: async ({ req, res }) => {
        const owner = header(req, 'authorization') ? (await s.authenticate(req)).sub : null;
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
  ];
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
