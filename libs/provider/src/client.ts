/**
 * WordCut's client of the provider's API (docs/PUBLISHING.md): token refresh, clone, and uploads into the
 * provider's library with the resumable protocol Google/YouTube use:
 *
 *   POST <upload url>?uploadType=resumable   (X-Upload-Content-Length/-Type/-Name/-Sha256) → Location
 *   PUT  <Location>  Content-Range: bytes a-b/N  → 308 Range: bytes=0-<last> … → 200 {uploadId, …}
 *   PUT  <Location>  Content-Range: bytes * /N (no space)  → where the provider is (status query)
 *
 * This module holds the client and its API calls; the resumable session is upload-session.ts, its
 * retry loop retry-loop.ts, one HTTP exchange http-exchange.ts and the errors provider-error.ts.
 *
 * Why this shape: exports are large and the network between us and the provider is not ours. A
 * failure costs at most the bytes of the chunk in flight: after any interruption the client asks
 * the provider how much it holds and re-opens the source at exactly that byte (never from 0 unless
 * the provider has nothing). The session URI outlives the process: a caller that keeps it
 * (onSession) and hands it back (resumeUri) continues an upload that a restart interrupted.
 * Transient failures (network errors, timeouts, 5xx, 429) are retried with exponential backoff and
 * full jitter, waiting at least what Retry-After asks; everything else (401, 403, other 4xx) fails
 * at once with a ProviderError whose `code` says why.
 */
import { randomUUID } from 'node:crypto';
import { Retry, type ProviderMedia, type RetryPolicy } from '@wordcut/contracts';
import { HttpExchange } from './http-exchange';
import { answerError, badResponse } from './provider-error';
import { RetryLoop } from './retry-loop';
import { UploadSession, type UploadOptions, type UploadResult } from './upload-session';

export { parseRetryAfter, ProviderError } from './provider-error';
export { nextOffsetFromRange, type UploadOptions, type UploadResult, type UploadSource } from './upload-session';

export type UploadFileKind = 'video' | 'vtt' | 'wordByword';

export interface ProviderClient {
  refreshToken(token: string): Promise<{ token: string; media?: ProviderMedia }>;
  cloneVideo(token: string): Promise<{ token: string; sessionId: string; videoId: string }>;
  upload(o: UploadOptions): Promise<UploadResult>;
  clipUploadUrl(sessionId: string): string;
  uploadUrl(sessionId: string, kind: UploadFileKind): string;
}

export interface HttpProviderClientOptions {
  /** the provider's base URL, e.g. http://localhost:4610 */
  apiUrl: string;
  /** tries per step without progress and their backoff (default Retry.providerRequest) */
  retry?: Partial<RetryPolicy>;
  /** a request with no progress (no body bytes taken, no answer) for this long is abandoned; default 30000 */
  requestTimeoutMs?: number;
  /** bytes per upload request; default 8 MiB, a multiple of 256 KiB */
  chunkSize?: number;
  fetchImpl?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const KIB256 = 256 * 1024;

export class HttpProviderClient implements ProviderClient {
  private readonly apiUrl: string;
  private readonly http: HttpExchange;
  private readonly retry: RetryLoop;
  private readonly uploads: UploadSession;

  constructor(o: HttpProviderClientOptions) {
    this.apiUrl = o.apiUrl.replace(/\/+$/, '');
    const retry = { ...Retry.providerRequest, ...o.retry };
    if (!(retry.tries >= 1)) throw new Error('HttpProviderClient: retry.tries must be at least 1');
    const timeoutMs = o.requestTimeoutMs ?? 30_000;
    const chunkSize = o.chunkSize ?? 32 * KIB256;
    if (!(chunkSize > 0) || chunkSize % KIB256 !== 0) throw new Error('HttpProviderClient: chunkSize must be a positive multiple of 256 KiB');
    this.http = new HttpExchange(o.fetchImpl ?? fetch, timeoutMs);
    this.retry = new RetryLoop(retry, o.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))), o.random ?? Math.random);
    this.uploads = new UploadSession(this.http, this.retry, chunkSize);
  }

  clipUploadUrl(sessionId: string): string {
    return `${this.apiUrl}/uploads/${encodeURIComponent(sessionId)}/clip`;
  }

  uploadUrl(sessionId: string, kind: UploadFileKind): string {
    return `${this.apiUrl}/uploads/${encodeURIComponent(sessionId)}/${kind}`;
  }

  async refreshToken(token: string): Promise<{ token: string; media?: ProviderMedia }> {
    const what = 'Refreshing the session token';
    const body = await this.retry.retrying({ attempts: 1, failures: 0 }, undefined, () => this.postJson(what, '/api/token/refresh', token, {}));
    if (typeof body['token'] !== 'string') throw badResponse(what, 'has no token');
    const media = body['media'];
    return { token: body['token'], ...(media && typeof media === 'object' ? { media: media as ProviderMedia } : {}) };
  }

  /** One Idempotency-Key for all tries: a retried clone whose first answer was lost makes no second copy. */
  async cloneVideo(token: string): Promise<{ token: string; sessionId: string; videoId: string }> {
    const what = 'Cloning the video';
    const headers = { 'idempotency-key': randomUUID() };
    const body = await this.retry.retrying({ attempts: 1, failures: 0 }, undefined, () => this.postJson(what, '/api/videos/clone', token, headers));
    const { token: newToken, sessionId, videoId } = body;
    if (typeof newToken !== 'string' || typeof sessionId !== 'string' || typeof videoId !== 'string') throw badResponse(what, 'lacks token, sessionId or videoId');
    return { token: newToken, sessionId, videoId };
  }

  upload(o: UploadOptions): Promise<UploadResult> {
    return this.uploads.upload(o);
  }

  private async postJson(what: string, path: string, token: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
    const a = await this.http.send(`${this.apiUrl}${path}`, 'POST', { authorization: `Bearer ${token}`, accept: 'application/json', 'content-length': '0', ...headers }, null);
    if (a.status < 200 || a.status > 299) throw answerError(what, a);
    try {
      const body: unknown = JSON.parse(a.text);
      if (body && typeof body === 'object') return body as Record<string, unknown>;
    } catch {
      // fall through
    }
    throw badResponse(what, 'is not a JSON object');
  }
}
