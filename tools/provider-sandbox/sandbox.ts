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
 * - `POST /v1/audio/transcriptions`, an OpenAI-compatible speech-to-text stand-in that answers only
 *   for audio of media whose script it knows (routes-transcription.ts): not speech recognition;
 * - test controls (loopback only, no auth) under `/_control/`: fault injection, request log,
 *   webhook log and resend, reset; and the old ones: `/redirect`, `/slow/<file>`, `/chunked/<file>`.
 * README.md has the route table. This module starts the server and applies injected faults; the
 * routes are in routes-provider.ts, routes-uploads.ts, routes-transcription.ts and routes-control.ts, their state in state.ts.
 */
import { rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyOf, ConnectionCut, drain, HttpError, isLoopback, sendError, sendJson } from './http';
import { controlRoutes } from './routes-control';
import { providerRoutes } from './routes-provider';
import { uploadRoutes } from './routes-uploads';
import { transcriptionRoutes } from './routes-transcription';
import { findRoute, type Route } from './routing';
import { createSandboxState } from './state';
import type { ProviderSandbox, ProviderSandboxOptions } from './types';

export type { Fault, FaultSpec, RequestLogEntry } from './faults';
export type { LibraryFile, LibraryVideo } from './library';
export { SANDBOX_PLANS, signSandboxToken } from './tokens';
export type { ProviderSandbox, ProviderSandboxOptions, SandboxTokenClaims, SignTokenOptions, UploadRecord } from './types';
export type { UploadAnswer } from './uploads';
export { DEFAULT_WEBHOOK_SECRET } from './webhooks';
export type { WebhookDelivery, WebhookSendOptions, WebhookSendResult } from './webhooks';

export async function startProviderSandbox(o: ProviderSandboxOptions): Promise<ProviderSandbox> {
  const s = await createSandboxState(o);
  const { faults, log, webhooks, timers } = s;
  // in this order: the first route whose path matches answers
  const routes: Route[] = [...providerRoutes(s), ...uploadRoutes(s), ...transcriptionRoutes(s), ...controlRoutes(s)];

  const dispatch = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', s.baseUrl || 'http://sandbox');
    const control = url.pathname.startsWith('/_control/');
    const entry = control ? null : log.start(req, res, url);
    const fault = control ? undefined : faults.take(req.method ?? '', url);
    if (entry && fault) entry.fault = fault.id;
    const cutAfter = fault?.action.kind === 'cut' ? fault.action.afterBytes : undefined;
    const body = bodyOf(req, (n) => entry && (entry.bytesReceived += n), cutAfter);
    try {
      if (control && !isLoopback(req.socket.remoteAddress)) throw new HttpError(403, 'the control API answers loopback clients only', 'forbidden');
      if (fault?.action.kind === 'timeout') {
        await s.hold(fault.action.ms, res);
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
  const baseUrl = (o.publicUrl ?? `http://${urlHost(o.host ?? '127.0.0.1')}:${port}`).replace(/\/+$/, '');
  s.baseUrl = baseUrl;

  return {
    url: baseUrl,
    issuer: s.issuer,
    audience: s.audience,
    jwksUrl: `${baseUrl}/.well-known/jwks.json`,
    publicKeyPem: s.keys.publicKeyPem,
    webhookSecret: s.webhookSecret,
    signToken: s.signToken,
    uploads: s.uploads,
    library: () => s.library.list(),
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
    reset: s.reset,
    close: async () => {
      webhooks.close();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await webhooks.settled();
      await rm(s.uploadDir, { recursive: true, force: true });
    },
  };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
