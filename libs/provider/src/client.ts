/**
 * WordCut's client of the provider's API (docs/PUBLISHING.md): token refresh, clone, and uploads into the
 * provider's library with the resumable protocol Google/YouTube use:
 *
 *   POST <upload url>?uploadType=resumable   (X-Upload-Content-Length/-Type/-Name/-Sha256) → Location
 *   PUT  <Location>  Content-Range: bytes a-b/N  → 308 Range: bytes=0-<last> … → 200 {uploadId, …}
 *   PUT  <Location>  Content-Range: bytes * /N (no space)  → where the provider is (status query)
 *
 * Over 400 lines on purpose: the resumable protocol, its resume rules and the API calls share one
 * retry policy and one error mapping.
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
import type { Readable } from 'node:stream';
import { honoursRetryAfter, isRetryableStatus, nextTryInMs, readRetryAfter, Retry, type ProviderMedia, type RetryPolicy } from '@wordcut/contracts';

export interface UploadSource {
  size: number;
  contentType: string;
  /** hex sha256 of the whole source, checked against what the provider reports it stored */
  sha256?: string;
  /** a stream of the source from byte `offset` to its end */
  open(offset: number): Promise<NodeJS.ReadableStream | Readable>;
}

export interface UploadResult {
  uploadId: string;
  providerVideoId: string | null;
  bytes: number;
  sha256: string | null;
  /** 1 + the number of retries the upload needed */
  attempts: number;
  /** the offsets the upload resumed from after each interruption */
  resumedFrom: number[];
}

export type UploadFileKind = 'video' | 'vtt' | 'wordByword';

export interface UploadOptions {
  token: string;
  url: string;
  source: UploadSource;
  /** a clip's title (X-Upload-Name) */
  name?: string;
  signal?: AbortSignal;
  onProgress?(sentBytes: number): void;
  /**
   * The session URI of an upload of these same bytes that an earlier run started (e.g. before a
   * restart): the provider is asked how much it holds and the upload continues from there. A
   * session the provider no longer knows (404, 410) is replaced by a fresh one.
   */
  resumeUri?: string;
  /** Called with a newly started session URI, and awaited before any byte is sent (to persist it). */
  onSession?(uri: string): void | Promise<void>;
}

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

/** A failed provider call. `transient` failures were retried until the budget ran out. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly status: number | null;
  readonly code: string;
  readonly retryAfterSec?: number;
  readonly transient: boolean;
  constructor(o: { message: string; status: number | null; code: string; transient: boolean; retryAfterSec?: number; cause?: unknown }) {
    super(o.message, o.cause === undefined ? undefined : { cause: o.cause });
    this.status = o.status;
    this.code = o.code;
    this.transient = o.transient;
    if (o.retryAfterSec !== undefined) this.retryAfterSec = o.retryAfterSec;
  }
}

const KIB256 = 256 * 1024;

/** Retry-After as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  const asked = readRetryAfter(value);
  if (!asked) return undefined;
  return 'delaySeconds' in asked ? asked.delaySeconds : Math.max(0, Math.ceil((asked.untilMs - nowMs) / 1000));
}

/** The next byte the provider expects, from a 308's `Range: bytes=0-<last>` (no header: 0). */
export function nextOffsetFromRange(range: string | null | undefined): number {
  const m = /^bytes=0-(\d+)$/.exec(range?.trim() ?? '');
  return m ? Number(m[1]) + 1 : 0;
}


function codeForStatus(status: number, bodyCode: string | undefined): string {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'provider_unavailable';
  return bodyCode ?? ({ 400: 'bad_request', 404: 'not_found', 408: 'timeout', 409: 'conflict', 413: 'too_large' } as Record<number, string>)[status] ?? `http_${status}`;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** A non-2xx answer as a ProviderError; `what` names the step for the message ("Cloning the video"). */
function answerError(what: string, a: Answer): ProviderError {
  let body: { error?: unknown; message?: unknown } = {};
  try {
    body = JSON.parse(a.text) as typeof body;
  } catch {
    // not JSON: the text itself is the detail
  }
  const detail = typeof body.message === 'string' ? body.message : a.text.trim().slice(0, 300);
  const retryAfterSec = honoursRetryAfter(a.status) ? parseRetryAfter(a.headers.get('retry-after')) : undefined;
  return new ProviderError({
    message: `${what} failed: the provider answered ${a.status}${detail ? ` (${detail})` : ''}`,
    status: a.status,
    code: codeForStatus(a.status, typeof body.error === 'string' ? body.error : undefined),
    transient: isRetryableStatus(a.status),
    ...(retryAfterSec !== undefined ? { retryAfterSec } : {}),
  });
}

function badResponse(what: string, detail: string): ProviderError {
  return new ProviderError({ message: `${what} failed: the provider's answer ${detail}`, status: null, code: 'bad_response', transient: false });
}

/** Reads a source from any offset, in pieces of exact lengths; re-opens only when asked for another offset. */
class SourceCursor {
  private iterator: AsyncIterator<Buffer | string> | null = null;
  private stream: (NodeJS.ReadableStream | Readable) | null = null;
  private position = -1;
  private leftover: Buffer | null = null;

  constructor(private readonly source: UploadSource) {}

  async *take(offset: number, length: number): AsyncGenerator<Buffer> {
    if (offset !== this.position) await this.reopen(offset);
    for (let remaining = length; remaining > 0; ) {
      let piece = this.leftover ?? (await this.next());
      this.leftover = null;
      if (piece.length > remaining) [piece, this.leftover] = [piece.subarray(0, remaining), piece.subarray(remaining)];
      remaining -= piece.length;
      this.position += piece.length;
      yield piece;
    }
  }

  close(): void {
    (this.stream as Readable | null)?.destroy?.();
    this.stream = this.iterator = this.leftover = null;
    this.position = -1;
  }

  private async reopen(offset: number): Promise<void> {
    this.close();
    this.stream = await this.source.open(offset);
    this.iterator = (this.stream as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
    this.position = offset;
  }

  private async next(): Promise<Buffer> {
    const r = await this.iterator!.next();
    if (r.done) throw new ProviderError({ message: `The upload source ended at byte ${this.position} of ${this.source.size}`, status: null, code: 'source_truncated', transient: false });
    return typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
  }
}

interface RetryState {
  attempts: number;
  /** consecutive failures since the last progress */
  failures: number;
}

export class HttpProviderClient implements ProviderClient {
  private readonly apiUrl: string;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly chunkSize: number;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(o: HttpProviderClientOptions) {
    this.apiUrl = o.apiUrl.replace(/\/+$/, '');
    this.retry = { ...Retry.providerRequest, ...o.retry };
    if (!(this.retry.tries >= 1)) throw new Error('HttpProviderClient: retry.tries must be at least 1');
    this.timeoutMs = o.requestTimeoutMs ?? 30_000;
    this.chunkSize = o.chunkSize ?? 32 * KIB256;
    if (!(this.chunkSize > 0) || this.chunkSize % KIB256 !== 0) throw new Error('HttpProviderClient: chunkSize must be a positive multiple of 256 KiB');
    this.fetchImpl = o.fetchImpl ?? fetch;
    this.sleep = o.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = o.random ?? Math.random;
  }

  clipUploadUrl(sessionId: string): string {
    return `${this.apiUrl}/uploads/${encodeURIComponent(sessionId)}/clip`;
  }

  uploadUrl(sessionId: string, kind: UploadFileKind): string {
    return `${this.apiUrl}/uploads/${encodeURIComponent(sessionId)}/${kind}`;
  }

  async refreshToken(token: string): Promise<{ token: string; media?: ProviderMedia }> {
    const what = 'Refreshing the session token';
    const body = await this.retrying({ attempts: 1, failures: 0 }, undefined, () => this.postJson(what, '/api/token/refresh', token, {}));
    if (typeof body['token'] !== 'string') throw badResponse(what, 'has no token');
    const media = body['media'];
    return { token: body['token'], ...(media && typeof media === 'object' ? { media: media as ProviderMedia } : {}) };
  }

  /** One Idempotency-Key for all tries: a retried clone whose first answer was lost makes no second copy. */
  async cloneVideo(token: string): Promise<{ token: string; sessionId: string; videoId: string }> {
    const what = 'Cloning the video';
    const headers = { 'idempotency-key': randomUUID() };
    const body = await this.retrying({ attempts: 1, failures: 0 }, undefined, () => this.postJson(what, '/api/videos/clone', token, headers));
    const { token: newToken, sessionId, videoId } = body;
    if (typeof newToken !== 'string' || typeof sessionId !== 'string' || typeof videoId !== 'string') throw badResponse(what, 'lacks token, sessionId or videoId');
    return { token: newToken, sessionId, videoId };
  }

  async upload(o: UploadOptions): Promise<UploadResult> {
    const { source, signal } = o;
    if (!Number.isSafeInteger(source.size) || source.size < 0) throw new Error('upload: source.size must be a non-negative integer');
    const state: RetryState = { attempts: 1, failures: 0 };
    const resumedFrom: number[] = [];
    const held = o.resumeUri === undefined ? null : await this.held(o.resumeUri, source.size, state, signal);
    if (held && 'done' in held) return this.finish(held.done, source, state, resumedFrom);
    let sessionUri: string;
    let offset = 0;
    if (held) {
      sessionUri = o.resumeUri!;
      offset = held.received;
      resumedFrom.push(offset);
      o.onProgress?.(offset);
    } else {
      sessionUri = await this.retrying(state, signal, () => this.initiate(o));
      await o.onSession?.(sessionUri);
    }
    const cursor = new SourceCursor(source);
    try {
      for (let interrupted = false; ; ) {
        try {
          const step = interrupted
            ? await this.retrying(state, signal, () => this.put(sessionUri, source.size, offset, null, signal))
            : await this.put(sessionUri, source.size, offset, cursor, signal, o.onProgress);
          if ('done' in step) return this.finish(step.done, source, state, resumedFrom);
          if (interrupted) resumedFrom.push(step.received);
          else if (step.received <= offset) throw new ProviderError({ message: `Uploading made no progress: the provider still holds ${step.received} bytes`, status: 308, code: 'no_progress', transient: true });
          if (step.received > offset) state.failures = 0;
          offset = step.received;
          o.onProgress?.(offset);
          interrupted = false;
        } catch (e) {
          if (!(e instanceof ProviderError) || !e.transient || interrupted) throw e;
          await this.pause(e, state, signal);
          interrupted = true;
        }
      }
    } finally {
      cursor.close();
    }
  }

  /**
   * Where an earlier upload session stands (the status query); null when the provider no longer
   * knows it (404, 410: expired or never completed), so a fresh session is started instead.
   */
  private async held(uri: string, total: number, state: RetryState, signal?: AbortSignal): Promise<{ received: number } | { done: Answer } | null> {
    try {
      return await this.retrying(state, signal, () => this.put(uri, total, 0, null, signal));
    } catch (e) {
      if (e instanceof ProviderError && (e.status === 404 || e.status === 410)) return null;
      throw e;
    }
  }

  private async initiate(o: UploadOptions): Promise<string> {
    const url = new URL(o.url);
    url.searchParams.set('uploadType', 'resumable');
    const headers: Record<string, string> = {
      authorization: `Bearer ${o.token}`,
      'x-upload-content-length': String(o.source.size),
      'x-upload-content-type': o.source.contentType,
      'content-length': '0',
    };
    if (o.name !== undefined) headers['x-upload-name'] = encodeURIComponent(o.name);
    if (o.source.sha256) headers['x-upload-content-sha256'] = o.source.sha256;
    const a = await this.send(url.href, 'POST', headers, null, o.signal);
    if (a.status < 200 || a.status > 299) throw answerError('Starting the upload', a);
    const location = a.headers.get('location');
    if (!location) throw badResponse('Starting the upload', 'has no Location header');
    return new URL(location, url).href;
  }

  /** One chunk from `offset` (cursor given), or a status query (cursor null). */
  private async put(uri: string, total: number, offset: number, cursor: SourceCursor | null, signal?: AbortSignal, onProgress?: (n: number) => void): Promise<{ received: number } | { done: Answer }> {
    const length = cursor && total > 0 ? Math.min(this.chunkSize, total - offset) : 0;
    const range = length > 0 ? `bytes ${offset}-${offset + length - 1}/${total}` : `bytes */${total}`;
    let sent = offset;
    const body = length > 0 ? tap(cursor!.take(offset, length), (n) => onProgress?.((sent += n))) : null;
    const a = await this.send(uri, 'PUT', { 'content-range': range, 'content-length': String(length) }, body, signal);
    if (a.status === 200 || a.status === 201) return { done: a };
    if (a.status === 308) return { received: nextOffsetFromRange(a.headers.get('range')) };
    throw answerError('Uploading', a);
  }

  private finish(a: Answer, source: UploadSource, state: RetryState, resumedFrom: number[]): UploadResult {
    const what = 'Uploading';
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(a.text) as Record<string, unknown>;
    } catch {
      throw badResponse(what, 'is not JSON');
    }
    if (typeof r['uploadId'] !== 'string') throw badResponse(what, 'has no uploadId');
    const bytes = typeof r['bytes'] === 'number' ? r['bytes'] : source.size;
    const sha256 = typeof r['sha256'] === 'string' ? r['sha256'].toLowerCase() : null;
    if (bytes !== source.size) {
      throw new ProviderError({ message: `The provider stored ${bytes} bytes of ${source.size}; the upload must be restarted`, status: a.status, code: 'size_mismatch', transient: false });
    }
    if (source.sha256 && sha256 && sha256 !== source.sha256.toLowerCase()) {
      throw new ProviderError({ message: `The provider stored different bytes than were sent (sha256 ${sha256.slice(0, 12)}… instead of ${source.sha256.slice(0, 12)}…); the upload must be restarted`, status: a.status, code: 'checksum_mismatch', transient: false });
    }
    const providerVideoId = typeof r['providerVideoId'] === 'string' ? r['providerVideoId'] : null;
    return { uploadId: r['uploadId'], providerVideoId, bytes, sha256, attempts: state.attempts, resumedFrom };
  }

  private async postJson(what: string, path: string, token: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
    const a = await this.send(`${this.apiUrl}${path}`, 'POST', { authorization: `Bearer ${token}`, accept: 'application/json', 'content-length': '0', ...headers }, null);
    if (a.status < 200 || a.status > 299) throw answerError(what, a);
    try {
      const body: unknown = JSON.parse(a.text);
      if (body && typeof body === 'object') return body as Record<string, unknown>;
    } catch {
      // fall through
    }
    throw badResponse(what, 'is not a JSON object');
  }

  /** Runs `op` until it succeeds, fails for good, or the budget of tries without progress is spent. */
  private async retrying<T>(state: RetryState, signal: AbortSignal | undefined, op: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await op();
      } catch (e) {
        if (!(e instanceof ProviderError) || !e.transient) throw e;
        await this.pause(e, state, signal);
      }
    }
  }

  /** Waits before the next try (backoff, at least Retry-After), or rethrows when it should not be retried. */
  private async pause(e: ProviderError, state: RetryState, signal: AbortSignal | undefined): Promise<void> {
    state.failures += 1;
    if (state.failures >= this.retry.tries) {
      throw new ProviderError({ message: `${e.message}; gave up after ${state.failures} tries`, status: e.status, code: e.code, transient: true, ...(e.retryAfterSec !== undefined ? { retryAfterSec: e.retryAfterSec } : {}), cause: e });
    }
    const delay = nextTryInMs(this.retry, state.failures, this.random, e.retryAfterSec === undefined ? null : e.retryAfterSec * 1000);
    // a wait longer than we would ever back off is the caller's to schedule (the error carries it)
    if (delay === null) throw e;
    state.attempts += 1;
    await abortable(this.sleep(delay), signal);
  }

  /**
   * One HTTP exchange, read to the end. The timer measures inactivity: it restarts whenever the body
   * hands over bytes, so a large chunk on a slow link is not cut while it moves.
   */
  private async send(url: string, method: string, headers: Record<string, string>, body: AsyncIterable<Buffer> | null, signal?: AbortSignal): Promise<Answer> {
    if (signal?.aborted) throw aborted(signal);
    const controller = new AbortController();
    let timedOut = false;
    let over = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      // fetch may still pull body pieces after the exchange ended (an early answer, a cut)
      if (over) return;
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, this.timeoutMs);
    };
    const onAbort = (): void => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    arm();
    try {
      const init: RequestInit & { duplex?: 'half' } = { method, headers, redirect: 'manual', signal: controller.signal };
      if (body) Object.assign(init, { body: tap(body, arm), duplex: 'half' });
      const res = await this.fetchImpl(url, init);
      arm();
      return { status: res.status, headers: res.headers, text: await res.text() };
    } catch (e) {
      if (e instanceof ProviderError) throw e;
      if (signal?.aborted) throw aborted(signal);
      if (timedOut) throw new ProviderError({ message: `The provider did not answer within ${this.timeoutMs} ms`, status: null, code: 'timeout', transient: true, cause: e });
      const cause = (e as { cause?: { message?: string; code?: string } }).cause;
      if (cause instanceof ProviderError) throw cause;
      const detail = cause?.code ?? cause?.message ?? (e as Error).message;
      throw new ProviderError({ message: `The provider could not be reached (${detail})`, status: null, code: 'network_error', transient: true, cause: e });
    } finally {
      over = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** Passes the pieces through, telling `onBytes` how many went by. */
async function* tap(source: AsyncIterable<Buffer>, onBytes: (n: number) => void): AsyncGenerator<Buffer> {
  for await (const piece of source) {
    onBytes(piece.length);
    yield piece;
  }
}

function aborted(signal: AbortSignal): ProviderError {
  const reason = signal.reason instanceof Error ? signal.reason.message : 'the upload was cancelled';
  return new ProviderError({ message: `Cancelled: ${reason}`, status: null, code: 'aborted', transient: false, cause: signal.reason });
}

function abortable(p: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(aborted(signal));
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(aborted(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
