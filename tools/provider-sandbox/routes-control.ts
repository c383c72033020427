/**
 * Test-control routes: the old network tricks (`/slow/<file>`, `/chunked/<file>`, `/redirect`) and
 * the loopback-only `/_control/` API (faults, request log, library, webhooks and resend, reset).
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FaultSpec } from './faults';
import { HttpError, readJson, redirect, sendJson } from './http';
import { fileSize, safeMediaName, serveMedia } from './media';
import type { Route } from './routing';
import type { SandboxState } from './state';

export function controlRoutes(s: SandboxState): Route[] {
  const { o, faults, log, library, webhooks } = s;
  return [
    {
      // ?delayMs=<ms> before the answer; with ?stallAfter=<bytes>, the delay comes after that many body bytes
      method: ['GET'],
      path: /^\/slow\/([^/]+)$/,
      handle: async ({ req, res, url, m }) => {
        const delayMs = Math.min(Number(url.searchParams.get('delayMs') ?? 2000) || 0, 60_000);
        const stallAfter = url.searchParams.get('stallAfter');
        if (stallAfter === null) {
          await s.hold(delayMs, res);
          if (!res.destroyed) await serveMedia(req, res, o.mediaDir, m[1]!);
          return;
        }
        const path = join(o.mediaDir, safeMediaName(m[1]!));
        const size = await fileSize(path);
        if (size === null) throw new HttpError(404, 'not found');
        const first = Math.min(Number(stallAfter) || 0, size);
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(size) });
        if (first > 0) await pipeline(createReadStream(path, { end: first - 1 }), res, { end: false });
        await s.hold(delayMs, res);
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
        await s.reset();
        sendJson(res, 200, { ok: true });
      },
    },
  ];
}
